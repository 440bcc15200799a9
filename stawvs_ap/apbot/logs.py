"""The bot's log: one line of JSON per event, on the ``stawvs_ap.apbot`` logger.

Every line is an object with ``time`` (UTC, RFC 3339), ``event`` (a dotted
name such as ``move.accepted``) and the event's fields, each a JSON value (a
list of variants is a JSON list). Text values are cut to
:data:`MAX_FIELD_CHARS`, and JSON escapes every line break, so a line stays a
line whatever a payload held.

No line ever carries the client secret, a token or a request's signature: the
callers pass none of them, :class:`~stawvs_ap.apbot.settings.Secret` shows
itself as ``"***"``, and every text registered with :func:`hide` (the secret,
each token) is written ``***`` wherever it appears in a field, as a last guard.

What strangers can make the bot write is bounded: :class:`Throttle` lets one
line per kind of refusal through per period and counts the rest.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Final

__all__ = ["LOGGER", "MAX_FIELD_CHARS", "Throttle", "hide", "log_event"]

LOGGER: Final = logging.getLogger("stawvs_ap.apbot")
#: The longest text of one field in a log line.
MAX_FIELD_CHARS: Final = 200
#: The most texts kept hidden (the oldest tokens are forgotten first).
_MAX_HIDDEN: Final = 64

_hidden: list[str] = []
_hidden_lock = threading.Lock()


def hide(secret: str) -> None:
    """Never write ``secret`` (nor any of its lines) in a log line."""
    parts = {secret, *secret.splitlines()}
    with _hidden_lock:
        for part in parts:
            if len(part) >= 4 and part not in _hidden:
                _hidden.append(part)
        del _hidden[:-_MAX_HIDDEN]


def _text(value: str) -> str:
    with _hidden_lock:
        hidden = list(_hidden)
    for secret in sorted(hidden, key=len, reverse=True):
        value = value.replace(secret, "***")
    return value if len(value) <= MAX_FIELD_CHARS else value[:MAX_FIELD_CHARS] + "…"


def _field(value: object) -> object:
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [_field(item) for item in value[:20]]
    return _text(str(value))


def log_event(event: str, *, level: int = logging.INFO, **fields: object) -> None:
    """Log ``event`` with ``fields`` as one line of JSON (``level``: INFO by default)."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    record = {"time": stamp, "event": event, **{k: _field(v) for k, v in fields.items()}}
    LOGGER.log(level, "%s", json.dumps(record, ensure_ascii=True, separators=(",", ":")))


class Throttle:
    """At most one line per kind every ``period`` seconds; the lines held back
    are counted and their number given, as ``suppressed``, with the next line
    of the kind let through. Kinds are the bot's own words (a handful), so the
    count of them stays small."""

    def __init__(self, period: float = 60.0, *, clock: Callable[[], float] = time.monotonic):
        self.period = period
        self._clock = clock
        self._lock = threading.Lock()
        self._kinds: dict[str, tuple[float, int]] = {}

    def let_through(self, kind: str) -> int | None:
        """None to hold this line back; else how many of its kind were held back
        since the last one written."""
        now = self._clock()
        with self._lock:
            last, held = self._kinds.get(kind, (-float("inf"), 0))
            if now - last < self.period:
                self._kinds[kind] = (last, held + 1)
                return None
            if len(self._kinds) > 256:  # never expected: kinds are few
                self._kinds.clear()
            self._kinds[kind] = (now, 0)
            return held
