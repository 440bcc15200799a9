"""Timestamps: one form, one parser, and a clock whose one-slot memo never goes stale."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from stawvs_ap.state.timestamps import format_timestamp, parse_timestamp, to_timestamp, utc_now


def test_the_clock_gives_the_current_millisecond_as_the_plain_formatting_does() -> None:
    for _ in range(50):
        before = format_timestamp(datetime.now(UTC))
        stamp = utc_now()
        after = format_timestamp(datetime.now(UTC))
        assert before <= stamp <= after  # one form, so text order is time order
        parse_timestamp(stamp)


def test_the_clock_moves_on_once_its_millisecond_is_past() -> None:
    first = utc_now()
    time.sleep(0.005)
    assert utc_now() > first


@pytest.mark.parametrize(
    "text", ["2025-12-12T00:00:00Z", "2025-12-12T00:00:00.000", "2025-12-12T00:00:00.000Z\n"]
)
def test_only_the_one_form_parses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_timestamp(text)


def test_a_host_time_with_an_offset_becomes_the_one_form() -> None:
    assert to_timestamp("2025-12-12T02:00:00+02:00") == "2025-12-12T00:00:00.000Z"
