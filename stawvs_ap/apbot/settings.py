"""The bot's settings, read from the environment (docs/abstract-play-bot.md).

Abstract Play's key that signs webhooks, ``AP_BOT_PUBLIC_KEY``, is an OpenSSH
``ssh-ed25519 …`` line, or the path of a file holding one. The bot's own
credentials and Abstract Play's addresses are ``BOT_CLIENT_ID``,
``BOT_CLIENT_SECRET``, ``BOT_OAUTH_SCOPE``, ``BOT_TOKEN_URL``, ``BOT_QUERY_URL``
and (optional: for payloads without a context) ``AP_QUERY_URL``. A missing or
bad one is refused, naming it (``BAD_ARGUMENT``), before anything is served.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_ssh_public_key

from ..errors import ErrorCode, StawvsError

__all__ = ["REQUIRED", "BotSettings", "Secret", "load_public_key"]

#: The settings the bot cannot run without.
REQUIRED: Final = (
    "AP_BOT_PUBLIC_KEY",
    "BOT_CLIENT_ID",
    "BOT_CLIENT_SECRET",
    "BOT_OAUTH_SCOPE",
    "BOT_TOKEN_URL",
    "BOT_QUERY_URL",
)
#: The longest key file read.
_MAX_KEY_FILE_BYTES: Final = 16_384


class Secret:
    """A text kept out of every representation: ``str``, ``repr`` and f-strings
    show ``***``; :meth:`reveal` gives it, for the one request that sends it.

    >>> secret = Secret("hunter2")
    >>> f"{secret}", repr(secret), secret.reveal()
    ('***', "Secret('***')", 'hunter2')
    """

    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        self._text = text

    def reveal(self) -> str:
        """The secret itself."""
        return self._text

    def __str__(self) -> str:
        return "***"

    def __repr__(self) -> str:
        return "Secret('***')"


def _bad(message: str) -> StawvsError:
    return StawvsError(ErrorCode.BAD_ARGUMENT, message)


def load_public_key(value: str) -> Ed25519PublicKey:
    """The Ed25519 key of an OpenSSH public key line (``ssh-ed25519 BASE64
    [comment]``), given as the line itself or as the path of a file holding it.
    Anything else is ``BAD_ARGUMENT``."""
    text = value.strip()
    if not text.startswith("ssh-"):
        path = Path(text)
        try:
            with path.open("rb") as fh:
                raw = fh.read(_MAX_KEY_FILE_BYTES + 1)
        except OSError as exc:
            raise _bad(
                f"AP_BOT_PUBLIC_KEY is neither an ssh-ed25519 line nor a readable file: "
                f"{exc.strerror or exc}"
            ) from None
        if len(raw) > _MAX_KEY_FILE_BYTES:
            raise _bad("AP_BOT_PUBLIC_KEY names a file too long to be a public key")
        text = raw.decode("utf-8", "replace").strip()
    try:
        key = load_ssh_public_key(text.encode("ascii", "replace"))
    except (ValueError, TypeError) as exc:
        raise _bad(f"AP_BOT_PUBLIC_KEY is not an OpenSSH public key: {exc}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise _bad("AP_BOT_PUBLIC_KEY must be an ssh-ed25519 key")
    return key


def _url(name: str, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise _bad(f"{name} must be an http(s) URL")
    return value


@dataclass(frozen=True)
class BotSettings:
    """Everything the bot needs from its host, checked."""

    public_key: Ed25519PublicKey
    client_id: str
    client_secret: Secret
    scope: str
    token_url: str
    bot_query_url: str
    ap_query_url: str | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> BotSettings:
        """The settings of ``environ`` (default ``os.environ``); ``BAD_ARGUMENT``
        naming the first missing or bad one."""
        env = os.environ if environ is None else environ
        missing = [name for name in REQUIRED if not env.get(name, "").strip()]
        if missing:
            raise _bad(f"the bot needs the setting {missing[0]} (see docs/abstract-play-bot.md)")
        query = env.get("AP_QUERY_URL", "").strip()
        return cls(
            public_key=load_public_key(env["AP_BOT_PUBLIC_KEY"]),
            client_id=env["BOT_CLIENT_ID"].strip(),
            client_secret=Secret(env["BOT_CLIENT_SECRET"].strip()),
            scope=env["BOT_OAUTH_SCOPE"].strip(),
            token_url=_url("BOT_TOKEN_URL", env["BOT_TOKEN_URL"].strip()),
            bot_query_url=_url("BOT_QUERY_URL", env["BOT_QUERY_URL"].strip()),
            ap_query_url=_url("AP_QUERY_URL", query) if query else None,
        )
