"""Records and replay: the floor above the host contract.

:func:`from_record` replays a game record (``gen_record()``'s, or the Abstract
Play engine's with ``initial=``), validating every move, and checks its header
against the replay:

>>> from stawvs_ap import InvalidRecordError, StawvsGame
>>> game = StawvsGame.new(2, seed=3).move("b7").move("c7").resign(1)
>>> record = game.gen_record(uid="demo", players=[{"name": "Ann"}, {"name": "Bob"}])
>>> record["moves"][0], [player["result"] for player in record["header"]["players"]]
(['b7', 'c7'], [0, 1])
>>> replayed = from_record(record)
>>> replayed.gameover, replayed.winner, replayed.moves() == game.moves()
(True, [2], True)
>>> record["header"]["players"][0]["result"] = 1  # Ann did not win
>>> try:
...     from_record(record)
... except InvalidRecordError as error:
...     print(error.code)
BAD_RECORD
"""

from __future__ import annotations

from .replay import from_record, game_of, parse_starting_position, record_in

__all__ = ["from_record", "game_of", "parse_starting_position", "record_in"]
