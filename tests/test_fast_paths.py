"""The fast paths of playing a move agree with the slow ones they shortcut.

``validation.fast_accept`` (used by ``judge`` and ``StawvsGame.move``) must only
accept what the ordered checks of ``judge_in_order`` accept as complete, so the
verdict, and the first error reported, never depend on it; ``Position.play``
builds collection moves in one pass and must equal ``_copy()`` + ``_apply()``.
Positions: every ply of the reference games, and random games of every player
count and variant set (``hey`` claims, passes, finished games).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from stawvs_ap import StawvsGame
from stawvs_ap.board import RAYS, SQUARE_NAMES, next_to
from stawvs_ap.errors import IllegalMoveError
from stawvs_ap.position import Position
from stawvs_ap.validation import COMPLETE, fast_accept, judge, judge_in_order

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import hostile as h
    import reference_data as ref
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import hostile as h
    from tests import reference_data as ref

SLOTS = Position.__slots__


def _reference_positions() -> Iterator[tuple[str, Position]]:
    for game in ref.games():
        replay = StawvsGame(game["initial"])
        yield ref.game_id(game), replay.position
        for ply in game["plies"]:
            replay.move(ply["move"])
            yield ref.game_id(game), replay.position


def _random_positions() -> Iterator[tuple[str, Position]]:
    rng = random.Random(20251113)
    for i, variants in enumerate(h.VARIANT_SETS * 2):
        numplayers = 2 + i % 3
        game = h.new_game(numplayers, variants, seed=i)
        label = f"random-{numplayers}p-{'+'.join(variants) or 'base'}-{i}"
        yield label, game.position
        while game.moves():
            game.move(rng.choice(game.moves()))
            yield label, game.position


def _move_strings(position: Position, rng: random.Random) -> list[str]:
    """Legal moves, their prefixes, moves failing each check, and odd spellings."""
    unrestricted = position._copy()
    unrestricted.eliminated = ()  # what a player who has passed would like to play
    legal = unrestricted.legal_move_strings()
    sample = rng.sample(legal, min(8, len(legal)))
    texts = ["", "pass", "PASS", " pass ", "a1-b1,", "z9", "a1-a1,a1", *sample]
    for text in sample:
        texts += [text.upper(), " ".join(text), text.split(",")[0], text[:2]]
    capped = [sq for sq in range(64) if position.caps[sq]]
    for _ in range(12):
        source = rng.choice(capped) if capped and rng.random() < 0.7 else rng.randrange(64)
        dest, target = rng.randrange(64), rng.randrange(64)
        if rng.random() < 0.3:
            target = source  # the only claim hey allows
        names = SQUARE_NAMES[source], SQUARE_NAMES[dest], SQUARE_NAMES[target]
        texts += [names[0], f"{names[0]}-{names[1]}", f"{names[0]}-{names[1]},{names[2]}"]
    return texts


def _cases() -> Iterator[tuple[str, Position]]:
    yield from _reference_positions()
    yield from _random_positions()


def test_fast_accept_and_judge_agree_with_the_ordered_checks() -> None:
    rng = random.Random(7)
    accepted = 0
    for label, position in _cases():
        for text in [*_move_strings(position, rng), None, 5]:
            slow = judge_in_order(position, text)
            assert judge(position, text) == slow, (label, text)
            ended = judge_in_order(position, text, game_over=True)
            assert judge(position, text, game_over=True) == ended, (label, text)
            fast = fast_accept(position, text)
            if fast is not None:
                assert slow.code is None and slow.complete == COMPLETE, (label, text)
                assert slow.move == fast, (label, text)
                accepted += 1
            else:  # every complete move is taken by the fast path
                assert slow.code is not None or slow.complete != COMPLETE, (label, text)
    assert accepted > 10_000


def test_next_to_is_the_first_square_of_each_ray() -> None:
    rng = random.Random(3)
    for mask in [0, *(1 << sq for sq in range(64)), *(rng.getrandbits(64) for _ in range(200))]:
        expected = 0
        for sq in range(64):
            if mask >> sq & 1:
                for ray in RAYS[sq]:
                    expected |= 1 << ray[0]
        assert next_to(mask) == expected, hex(mask)


def test_can_move_says_whether_a_cap_has_somewhere_to_slide() -> None:
    for label, position in _cases():
        for player in range(1, position.rules.numplayers + 1):
            slides = any(position.destinations(sq) for sq in position.cap_squares(player))
            assert position.can_move(player) == slides, (label, player)


def _snapshot(position: Position) -> tuple[object, ...]:
    return tuple(
        list(value) if isinstance(value, list) else value
        for value in (getattr(position, slot) for slot in SLOTS)
    )


@pytest.mark.parametrize("source", ["reference", "random"])
def test_play_equals_copy_then_apply(source: str) -> None:
    cases = _reference_positions() if source == "reference" else _random_positions()
    for label, position in cases:
        if position.is_over:
            continue
        before = _snapshot(position)
        for move in position.legal_moves():
            after, results = position.play(move)
            expected = position._copy()
            expected_results = expected._apply(move)
            assert results == expected_results, (label, str(move))
            assert _snapshot(after) == _snapshot(expected), (label, str(move))
            assert after.board is not position.board and after.caps is not position.caps
            assert _snapshot(position) == before, (label, str(move))


def test_move_plays_exactly_the_complete_moves_and_reports_the_ordered_error() -> None:
    rng = random.Random(11)
    for game in ref.games()[::3]:
        replay = StawvsGame(game["initial"])
        for ply in [*game["plies"], None]:
            position, ended = replay.position, replay.gameover
            for text in _move_strings(position, rng):
                slow = judge_in_order(position, text, game_over=ended)
                trial = replay.clone()
                if slow.code is None and slow.complete == COMPLETE:
                    assert slow.move is not None
                    trial.move(text)
                    expected, results = position.play(slow.move)
                    assert _snapshot(trial.position) == _snapshot(expected), text
                    assert trial.results == results
                else:
                    with pytest.raises(IllegalMoveError) as raised:
                        trial.move(text)
                    assert raised.value.code == (slow.code or "INCOMPLETE"), text
                    assert raised.value.message.endswith(slow.message), text
                    assert trial.position is position
            if ply is not None:
                replay.move(ply["move"])
