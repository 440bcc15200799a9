"""What Abstract Play's bot framework sends, read and judged: signed requests
(:func:`signature_fault`), challenges (:func:`challenge_refusal`) and the
fields of a move webhook beside the game (:func:`move_fields`), and the think
time a move gets (:func:`think_seconds`).

The field names, headers and the signing string are those of node-backend's
``docs/bots/`` (protocol and authentication): a request is signed over
``<X-Signature-Timestamp>.<X-Signature-Nonce>.<raw body>`` with Ed25519, the
signature sent in base64 as ``X-Signature``.
"""

from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Mapping
from typing import Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ..errors import ErrorCode, StawvsError, excerpt
from ..host.game import variant_ids

__all__ = [
    "DEFAULT_THINK_CAP",
    "GAME",
    "MAX_BODY_BYTES",
    "MIN_THINK_SECONDS",
    "SIGNATURE_WINDOW",
    "challenge_refusal",
    "move_fields",
    "signature_fault",
    "think_seconds",
]

#: The game this bot plays (``metaGame``).
GAME: Final = "stawvs"
#: The largest webhook body read (one is a few kilobytes).
MAX_BODY_BYTES: Final = 1 << 20
#: How far a signature's timestamp may be from the bot's clock, in seconds.
SIGNATURE_WINDOW: Final = 300
#: The shortest think time of a move, in seconds.
MIN_THINK_SECONDS: Final = 0.1
#: The longest think time of a move when the bot spec sets none, in seconds.
DEFAULT_THINK_CAP: Final = 10.0
#: A move thinks for at most this share of the clock left.
CLOCK_SHARE: Final = 1 / 40
#: The longest clock a challenge may set, in hours (a year).
MAX_CLOCK_HOURS: Final = 24 * 366
_MAX_NONCE_CHARS: Final = 128
_MAX_SIGNATURE_CHARS: Final = 256
_MAX_GAMEID_CHARS: Final = 128


def signature_fault(
    key: Ed25519PublicKey,
    timestamp: str | None,
    nonce: str | None,
    signature: str | None,
    body: bytes,
    *,
    now: float,
) -> str | None:
    """Why a request signed with these headers is refused, or None when the
    signature is ``key``'s over ``<timestamp>.<nonce>.<body>`` and the timestamp
    within :data:`SIGNATURE_WINDOW` seconds of ``now``. (Whether the nonce was
    seen before is the journal's to say.)"""
    if not timestamp or not nonce or not signature:
        return "the request is not signed (X-Signature, X-Signature-Timestamp, X-Signature-Nonce)"
    if not timestamp.isascii() or not timestamp.isdigit() or len(timestamp) > 12:
        return "X-Signature-Timestamp is not a number of seconds"
    if abs(now - int(timestamp)) > SIGNATURE_WINDOW:
        return f"X-Signature-Timestamp is more than {SIGNATURE_WINDOW} s from the bot's clock"
    if len(nonce) > _MAX_NONCE_CHARS or not nonce.isascii() or not nonce.isprintable():
        return "X-Signature-Nonce is not a short printable text"
    if len(signature) > _MAX_SIGNATURE_CHARS:
        return "X-Signature is too long"
    try:
        raw = base64.b64decode(signature, validate=True)
    except (binascii.Error, ValueError):
        return "X-Signature is not base64"
    signed = f"{timestamp}.{nonce}.".encode("ascii") + body
    try:
        key.verify(raw, signed)
    except InvalidSignature:
        return "the signature does not match the request"
    return None


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def challenge_refusal(payload: Mapping[str, object]) -> str | None:
    """Why a challenge is declined, or None to accept it: the game must be
    Stawvs, the variants ones the engine knows and can combine, the clock
    sane (hours: a positive start, an increment and a maximum of at least the
    start, none over a year) and the challengers one to three players.

    >>> challenge_refusal({"verb": "challenge", "metaGame": "stawvs", "variants": ["hole"],
    ...     "clockStart": 72, "clockInc": 24, "clockMax": 168, "challengers": ["p1"]}) is None
    True
    >>> challenge_refusal({"metaGame": "abande"})
    "this bot plays stawvs, not 'abande'"
    """
    meta = payload.get("metaGame")
    if meta != GAME:
        return f"this bot plays {GAME}, not {excerpt(meta)}"
    try:
        variant_ids(payload.get("variants", []))
    except StawvsError as exc:
        return exc.message
    start, inc, most = (payload.get(k) for k in ("clockStart", "clockInc", "clockMax"))
    if not (_number(start) and _number(inc) and _number(most)):
        return "clockStart, clockInc and clockMax must be numbers of hours"
    assert isinstance(start, int | float) and isinstance(inc, int | float)
    assert isinstance(most, int | float)
    if not 0 < start <= most <= MAX_CLOCK_HOURS or not 0 <= inc <= most:
        return (
            "the clock is not sane: 0 < clockStart <= clockMax <= a year, 0 <= clockInc <= clockMax"
        )
    challengers = payload.get("challengers")
    if (
        not isinstance(challengers, list)
        or not 1 <= len(challengers) <= 3
        or not all(isinstance(c, str) for c in challengers)
    ):
        return "challengers must list 1 to 3 player ids (Stawvs is for 2 to 4 players)"
    return None


def move_fields(payload: Mapping[str, object]) -> tuple[str, float]:
    """The ``gameid`` and ``clockCurr`` (hours) of a move webhook, checked with
    its ``metaGame`` (``BAD_ARGUMENT`` naming the field); the game's own fields
    are read by :meth:`~stawvs_ap.host.game.StawvsGame.from_bot_payload`."""
    meta = payload.get("metaGame")
    if meta != GAME:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"this bot plays {GAME}, not {excerpt(meta)}")
    gameid = payload.get("gameid")
    if not isinstance(gameid, str) or not 0 < len(gameid) <= _MAX_GAMEID_CHARS:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"gameid is not a game id: {excerpt(gameid)}")
    clock = payload.get("clockCurr")
    if not _number(clock) or clock < 0:  # type: ignore[operator]
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"clockCurr is not hours left: {excerpt(clock)}")
    return gameid, float(clock)  # type: ignore[arg-type]


def think_seconds(clock_hours: float, cap: float) -> float:
    """The think time of a move with ``clock_hours`` left: a 40th of the clock,
    at least :data:`MIN_THINK_SECONDS`, at most ``cap``.

    >>> think_seconds(48, 10.0), think_seconds(0, 10.0), think_seconds(1, 60.0)
    (10.0, 0.1, 60.0)
    """
    return max(MIN_THINK_SECONDS, min(cap, clock_hours * 3600.0 * CLOCK_SHARE))
