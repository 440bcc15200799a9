"""Records for the tests of the doors that take them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden"


def in_progress(record: dict[str, Any], rounds: int) -> dict[str, Any]:
    """A copy of ``record`` cut after its first ``rounds`` rounds, as a host records
    a game still being played: no player has a score, a result or a rank yet."""
    cut = copy.deepcopy(record)
    cut["moves"] = cut["moves"][:rounds]
    cut["header"].pop("date-end", None)
    for player in cut["header"]["players"]:
        for key in ("result", "rank", "score"):
            player.pop(key, None)
    return cut


def golden_in_progress(name: str, rounds: int) -> dict[str, Any]:
    """The golden game ``name``'s record, cut after ``rounds`` rounds."""
    fixture = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    return in_progress(fixture["record"], rounds)


def without_board(record: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``record`` as Abstract Play writes it, with no starting board, and a state
    of its game whose first entry holds that board (what ``initial`` takes)."""
    from stawvs_ap import from_record

    initial = from_record(record, allow_unfinished=True).serialize()
    bare = copy.deepcopy(record)
    del bare["header"]["startingPosition"]
    return bare, initial
