"""Helpers for the property and fuzz tests: random games, budgets, independent checks.

Nothing here uses the engine's internals: games are driven through
:class:`StawvsGame` and inspected through their serialized form, so the checks
stay independent of the code they check.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st

from stawvs_ap import StawvsGame
from stawvs_ap.core.playout import random_move

CORPUS = Path(__file__).resolve().parent / "corpus"

#: Cases per profile as a share of ``ci`` (profiles: ``tests/conftest.py``).
_SCALE = {"fast": 0.1, "ci": 1.0, "nightly": 20.0, "dev": 0.02}


def profile() -> str:
    """The hypothesis profile in force: ``HYPOTHESIS_PROFILE``, else ``fast``.

    ``tests/conftest.py`` loads it before any test module is imported (and
    ``--hypothesis-profile`` after that, still before), so the profile hypothesis
    reports is the one the budgets below must follow.
    """
    current = getattr(settings, "get_current_profile_name", None)  # newer hypothesis
    name = current() if current is not None else getattr(settings, "_current_profile", None)
    if name and name != "default":
        return str(name)
    return os.environ.get("HYPOTHESIS_PROFILE", "fast")


def scaled(examples: int) -> int:
    """A test's number of cases under the ``ci`` profile, scaled for the profile in force.

    At least 1; a profile not listed in ``_SCALE`` gets the ``ci`` number.
    """
    return max(1, int(examples * _SCALE.get(profile(), 1.0)))


def thinned(
    values: Sequence[Any], every: int, ids: Callable[[Any], str] | None = None
) -> list[Any]:
    """``values`` as pytest parameters, every ``every``-th one (from the first) for
    the default run and the others marked ``slow``, for the long battery only.

    For repetition that costs time and adds little to a quick run: the battery
    still runs every value, under the same test ids (pytest's own without ``ids``).
    """
    return [
        pytest.param(
            value, id=ids(value) if ids else None, marks=() if i % every == 0 else pytest.mark.slow
        )
        for i, value in enumerate(values)
    ]


def thinned_cases(cases: Sequence[Sequence[Any]], every: int) -> list[Any]:
    """:func:`thinned` for a parametrization of several arguments: each case a
    tuple of them."""
    return [
        pytest.param(*case, marks=() if i % every == 0 else pytest.mark.slow)
        for i, case in enumerate(cases)
    ]


#: Every legal variant set: at most one setup variant, any subset of the others.
VARIANT_SETS: tuple[tuple[str, ...], ...] = tuple(
    tuple(v for v in (setup, *others) if v)
    for setup in (None, "hole", "random")
    for n in range(4)
    for others in itertools.combinations(("hey", "finalfree", "pieces-2"), n)
)

FIXED_TIME = "2025-12-12T00:00:00.000Z"


def fixed_clock() -> str:
    return FIXED_TIME


def new_game(numplayers: int, variants: tuple[str, ...], seed: int) -> StawvsGame:
    """A seeded game whose timestamps never change, so states compare byte for byte."""
    return StawvsGame(numplayers, variants=list(variants), seed=seed, clock=fixed_clock)


def play_random(game: StawvsGame, rng: random.Random, plies: int) -> StawvsGame:
    """Play up to ``plies`` uniformly random legal moves (fewer if the game ends)."""
    for _ in range(plies):
        moves = game.moves()
        if not moves:
            break
        game.move(rng.choice(moves))
    return game


def game_before_end(players: int, variants: tuple[str, ...], seed: int, plies: int) -> StawvsGame:
    """A seeded game after up to ``plies`` random moves, stopping before a move
    that would end it (so a bot always has a position to think about)."""
    rng = random.Random(seed)
    game = StawvsGame.new(players, variants, seed=seed)
    for _ in range(plies):
        move = random_move(game.position, rng)
        if game.position.play(move)[0].is_over:
            break
        game.move(move)
    return game


@st.composite
def random_games(draw: st.DrawFn, max_plies: int = 220) -> tuple[StawvsGame, random.Random]:
    """A game of any player count and variant set, some random plies in (maybe over)."""
    numplayers = draw(st.integers(2, 4), label="numplayers")
    variants = draw(st.sampled_from(VARIANT_SETS), label="variants")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    plies = draw(st.integers(0, max_plies), label="plies")
    rng = random.Random(seed ^ 0x5EED)
    game = play_random(new_game(numplayers, variants, seed), rng, plies)
    return game, rng


def ply_bound(numplayers: int, caps_each: int) -> int:
    """The most plies a game can last, from the number of pyramids.

    Every collection move claims a pyramid, and the pyramids under the caps
    can never be claimed, so there are at most ``c = 60 - numplayers * caps_each``
    claims. Between two claims at most ``numplayers - 1`` passes follow each
    other: ``numplayers`` passes in a row mean everyone has passed, which ends
    the game. So the collection phase has at most ``numplayers * (c + 1)`` turns,
    after the ``numplayers * caps_each`` placements.
    """
    placements = numplayers * caps_each
    claims = 60 - placements
    return placements + numplayers * (claims + 1)


def without_timestamps(serialized: str) -> dict[str, Any]:
    """A state with its timestamps dropped, to compare games played at other times."""
    state = json.loads(serialized)
    for entry in state["stack"]:
        entry.pop("_timestamp", None)
    return dict(state)


def pyramid_census(serialized: str) -> tuple[Counter[tuple[str, int]], int]:
    """Count the coloured pyramids of the last entry: on the board and in collections.

    Ghosts are not counted: their pyramid is in a collection. Returns the
    count per (colour, size) and the number of ghosts seen.
    """
    top = json.loads(serialized)["stack"][-1]
    census: Counter[tuple[str, int]] = Counter()
    ghosts = 0
    for _square, cell in top["board"]["value"]:
        colour, size = cell[0]
        if colour == "GH":
            ghosts += 1
        else:
            census[(colour, size)] += 1
    for collection in top["captured"]:
        for colour, size in collection:
            census[(colour, size)] += 1
    return census, ghosts


# -- an independent scorer ----------------------------------------------------

_TREES = tuple(itertools.product(range(4), repeat=3))  # colour of (small, medium, large)


def brute_force_score(collection: list[tuple[str, int]]) -> int:
    """The best score over every way of grouping ``collection`` into trees.

    Exhaustive: at each step either stop (the rest scores 1 each) or build one
    more tree from any small, medium and large; trees are built in a fixed
    order of their colours so each grouping is tried once.
    """
    colours = ("PI", "BL", "GR", "OR")
    counts = [0] * 12
    for colour, size in collection:
        counts[colours.index(colour) * 3 + size - 1] += 1
    return _best(tuple(counts), 0)


@cache
def _best(counts: tuple[int, ...], first_tree: int) -> int:
    best = sum(counts)  # no more trees: every pyramid left scores 1
    for index in range(first_tree, len(_TREES)):
        small, medium, large = _TREES[index]
        kinds = (small * 3, medium * 3 + 1, large * 3 + 2)
        if any(counts[k] == 0 for k in kinds):
            continue
        rest = list(counts)
        for k in kinds:
            rest[k] -= 1
        points = 7 if small == medium == large else 5
        best = max(best, points + _best(tuple(rest), index))
    return best
