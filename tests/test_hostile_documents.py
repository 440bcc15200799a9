"""Huge hostile documents are refused by counting, before anything reads their items
(docs/CONTRACT.md §4): text and parsed dicts get the same limits.

No test here is timed (timings belong in benchmarks/): instead the shape models,
which would read every item, are replaced by a trap that fails the test if an
oversized document ever reaches them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.state import format as state_format
from stawvs_ap.state.format import MAX_ENTRIES, MAX_STATE_BYTES
from stawvs_ap.state.reader import load_state

START = json.loads(StawvsGame.new(2, seed=3).serialize())


def _entry(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["stack"][0]  # type: ignore[no-any-return]


DAMAGE: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a million empty collections": (
        lambda d: _entry(d).__setitem__("captured", [[]] * 1_300_000),
        "'captured' is too long",
    ),
    "1.9 million eliminated zeros": (
        lambda d: _entry(d).__setitem__("eliminated", [0] * 1_900_000),
        "'eliminated' is too long",
    ),
    "a 3,166-entry stack": (
        lambda d: d.__setitem__("stack", d["stack"] * 3_166),
        "the stack is too long",
    ),
    "a board of a million cells": (
        lambda d: _entry(d)["board"].__setitem__("value", [["a1", [["PI", 1]]]] * 1_000_000),
        "the board is too long",
    ),
    "a collection of 500,000 pyramids": (
        lambda d: _entry(d)["captured"].__setitem__(0, [["PI", 1]] * 500_000),
        "a collection is too long",
    ),
    "a result holding a million numbers": (
        lambda d: _entry(d).__setitem__("_results", [{"type": "x", "n": [0] * 1_000_000}]),
        "too long",
    ),
    "a million variants": (lambda d: d.__setitem__("variants", ["x"] * 1_000_000), "'variants'"),
    "a hundred megabytes under an unknown key": (
        lambda d: d.__setitem__("pad", "x" * 100_000_000),
        "pad",
    ),
}


@pytest.fixture
def models_never_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The models may read a one-entry header (the fast path reads the first
    entry of a text that way), never a whole oversized document."""
    real = state_format.StateModel.model_validate

    def trap(data: Any, *args: Any, **kwargs: Any) -> Any:
        stack = data.get("stack") if isinstance(data, dict) else None
        if not isinstance(stack, list) or len(stack) > 1 or len(json.dumps(data)) > 10_000:
            raise AssertionError("an oversized document reached the shape models")
        return real(data, *args, **kwargs)

    monkeypatch.setattr(state_format.StateModel, "model_validate", trap)


@pytest.mark.usefixtures("models_never_read")
@pytest.mark.parametrize("damage", list(DAMAGE))
def test_an_oversized_parsed_state_is_refused_by_counting(damage: str) -> None:
    change, words = DAMAGE[damage]
    doc = copy.deepcopy(START)
    change(doc)
    for fast in (True, False):
        with pytest.raises(StawvsError) as refused:
            load_state(doc, fast=fast)
        assert refused.value.code == "BAD_STATE"
        assert words in refused.value.message


@pytest.mark.slow
@pytest.mark.usefixtures("models_never_read")
@pytest.mark.parametrize("damage", list(DAMAGE))
def test_an_oversized_state_as_text_is_refused_by_counting(damage: str) -> None:
    change, words = DAMAGE[damage]
    doc = copy.deepcopy(START)
    change(doc)
    text = json.dumps(doc, separators=(",", ":"))
    with pytest.raises(StawvsError) as refused:
        StawvsGame(text)
    assert refused.value.code == "BAD_STATE"
    if len(text) > MAX_STATE_BYTES:
        assert f"{MAX_STATE_BYTES}" in refused.value.message
    else:
        assert words in refused.value.message


def test_no_game_has_more_entries_than_the_limit() -> None:
    # 4 players with 2 caps each make the longest games: 220 moves at most.
    placements = 4 * 2
    assert placements + 4 * (61 - placements) + 2 <= MAX_ENTRIES


@pytest.mark.parametrize(
    ("doc", "unit"),
    [(" " * (MAX_STATE_BYTES + 1), "characters"), (b" " * (MAX_STATE_BYTES + 1), "bytes")],
)
def test_an_oversized_state_is_refused_unread_in_its_own_unit(doc: str | bytes, unit: str) -> None:
    with pytest.raises(StawvsError, match=f"{MAX_STATE_BYTES + 1} {unit} long"):
        load_state(doc)
