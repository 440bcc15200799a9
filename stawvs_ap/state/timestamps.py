"""Timestamps as Abstract Play writes them: UTC to the millisecond, ``2025-12-12T00:00:00.000Z``.

One pattern and one parser (:func:`parse_timestamp`), used for stack entries,
records and the clock; :func:`to_timestamp` brings a time a host gives in
another form (an offset, fewer digits, a ``datetime``) to this one.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from typing import Final

from ..errors import ErrorCode, StawvsError, excerpt

__all__ = [
    "PATTERN",
    "format_timestamp",
    "is_timestamp",
    "parse_timestamp",
    "to_timestamp",
    "utc_now",
]

#: The only form accepted: ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (a real instant, in UTC).
PATTERN: Final = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"
_FORM: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z", re.ASCII)


def parse_timestamp(text: object) -> datetime:
    """The instant ``text`` names; ``BAD_ARGUMENT`` unless it is exactly of the form
    ``2025-12-12T00:00:00.000Z`` and a real date and time (no trailing newline)."""
    if not isinstance(text, str) or _FORM.fullmatch(text) is None:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"{excerpt(text)} is not a UTC time such as 2025-12-12T00:00:00.000Z",
        )
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"{excerpt(text)} is not a real date and time"
        ) from None


def is_timestamp(text: object) -> bool:
    """Whether :func:`parse_timestamp` accepts ``text``."""
    try:
        parse_timestamp(text)
    except ValueError:
        return False
    return True


# RFC 3339 date-times as hosts pass them: any offset, up to microseconds.
_RFC_3339: Final = re.compile(
    r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})", re.ASCII
)


def to_timestamp(value: object) -> str:
    """``value`` (a ``datetime``, naive ones taken as UTC, or RFC 3339 text with any
    offset) as a timestamp of this module's form; ``BAD_ARGUMENT`` otherwise."""
    if isinstance(value, datetime):
        return format_timestamp(value)
    if isinstance(value, str) and _RFC_3339.fullmatch(value):
        try:
            return format_timestamp(datetime.fromisoformat(value))
        except ValueError:
            pass
    raise StawvsError(
        ErrorCode.BAD_ARGUMENT,
        f"{excerpt(value)} is not a date and time such as 2025-12-12T00:00:00.000Z or "
        "2025-12-12T02:00:00+02:00",
    )


def format_timestamp(when: datetime) -> str:
    """``when`` in UTC, to the millisecond (a naive ``datetime`` is taken as UTC)."""
    when = when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC)
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


_last: tuple[int, str] = (-1, "")


def utc_now() -> str:
    """Now, as Abstract Play writes it."""
    global _last
    # Every move is stamped, and a replay stamps dozens within one millisecond:
    # formatting costs 2.5 µs a stamp, this one-slot memo 0.3.
    millis = time.time_ns() // 1_000_000
    if millis != _last[0]:
        _last = (millis, format_timestamp(datetime.fromtimestamp(millis / 1000, UTC)))
    return _last[1]
