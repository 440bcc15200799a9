"""The bot's log: one line of JSON per event, on the ``stawvs_ap.apbot`` logger.

Every line is an object with ``time`` (UTC, RFC 3339), ``event`` (a dotted
name such as ``move.accepted``) and the event's fields. Text values are cut to
:data:`MAX_FIELD_CHARS`, and JSON escapes every line break, so a line stays a
line whatever a payload held. No line ever carries the client secret, a token
or a request's signature: the callers pass none of them, and
:class:`~stawvs_ap.apbot.settings.Secret` shows itself as ``"***"``.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Final

__all__ = ["LOGGER", "MAX_FIELD_CHARS", "log_event"]

LOGGER: Final = logging.getLogger("stawvs_ap.apbot")
#: The longest text of one field in a log line.
MAX_FIELD_CHARS: Final = 200


def _field(value: object) -> object:
    if isinstance(value, bool | int | float) or value is None:
        return value
    text = str(value)
    return text if len(text) <= MAX_FIELD_CHARS else text[:MAX_FIELD_CHARS] + "…"


def log_event(event: str, *, level: int = logging.INFO, **fields: object) -> None:
    """Log ``event`` with ``fields`` as one line of JSON (``level``: INFO by default)."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    record = {"time": stamp, "event": event, **{k: _field(v) for k, v in fields.items()}}
    LOGGER.log(level, "%s", json.dumps(record, ensure_ascii=True, separators=(",", ":")))
