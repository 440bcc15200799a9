"""Values from outside are quoted through the one rule (stawvs_ap.errors.excerpt):
a refusal names a huge value cut short, whatever door it came in by, and stays
one line (issue 51, finding 4)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_inprocess import run

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.apbot.protocol import challenge_refusal
from stawvs_ap.bots.arena import Match
from stawvs_ap.bots.spec import BotSpec
from stawvs_ap.core.squares import Square
from stawvs_ap.core.variants import check_variants
from stawvs_ap.state.timestamps import parse_timestamp

#: The longest refusal a huge value may make.
SHORT = 300
HUGE = "x" * 100_000


def _game() -> StawvsGame:
    return StawvsGame.new(2, seed=1)


@pytest.mark.parametrize(
    "call",
    [
        lambda: check_variants([HUGE]),
        lambda: check_variants([list(range(100_000))]),
        lambda: check_variants(["hole", HUGE[:60] + "hole"]),
        lambda: StawvsGame.new(2, [HUGE]),
        lambda: StawvsGame([HUGE]),  # type: ignore[arg-type]
        lambda: _game().load(10**5000),
        lambda: _game().resign(10**4000),
        lambda: Square.parse(HUGE),
        lambda: parse_timestamp(HUGE),
        lambda: Match((BotSpec("random"), BotSpec("random")), seed=10**5000),
    ],
    ids=[
        "an unknown variant",
        "a variant that is no text",
        "a long unknown variant",
        "a new game's variant",
        "a state that is no state",
        "a stack index",
        "a player",
        "a square",
        "a time",
        "an arena's seed",
    ],
)
def test_a_huge_value_is_named_cut_short_in_one_line(call: Callable[[], object]) -> None:
    with pytest.raises(StawvsError) as refused:
        call()
    assert len(refused.value.message) < SHORT
    assert "\n" not in refused.value.message
    assert "…" in refused.value.message or "too long to show" in refused.value.message


def test_new_with_a_huge_variant_prints_one_short_line() -> None:
    done = run("new", "--players", "2", "--variant", HUGE)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and len(done.stderr) < SHORT
    assert "unknown variant 'xxxx" in done.stderr


def test_a_challenge_with_a_megabyte_variant_gets_a_short_answer() -> None:
    challenge = {
        "verb": "challenge",
        "metaGame": "stawvs",
        "variants": ["v" * 1_000_000],
        "clockStart": 72,
        "clockInc": 24,
        "clockMax": 168,
        "challengers": ["p1"],
    }
    reason = challenge_refusal(challenge)
    assert reason is not None and reason.startswith("unknown variant 'vvvv")
    assert len(reason) < SHORT


@pytest.mark.slow  # four commands in processes of their own
def test_the_hostile_doors_benchmark_prints_a_row_per_door() -> None:
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "hostile_doors.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()[1:]
    assert len(rows) == 7
    written = [int(row.split()[-2].replace(",", "")) for row in rows]
    assert max(written[:3]) < 5_000 and max(written[3:]) < 300
