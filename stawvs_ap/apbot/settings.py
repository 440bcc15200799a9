"""The bot's settings, read from the environment (docs/abstract-play-bot.md).

Abstract Play's key that signs webhooks, ``AP_BOT_PUBLIC_KEY``, is given in
any form Abstract Play's own verifier (node-backend ``lib/botVerify.ts``)
reads, or as the path of a file holding one (:func:`load_public_key`). The
bot's own credentials and Abstract Play's addresses are ``BOT_CLIENT_ID``,
``BOT_CLIENT_SECRET`` (or ``BOT_CLIENT_SECRET_FILE``, a file holding it),
``BOT_OAUTH_SCOPE``, ``BOT_TOKEN_URL``, ``BOT_QUERY_URL`` and ``AP_QUERY_URL``
(the public query address: for payloads without a context, and for polling).
A stage (:data:`STAGES`) fills in the token address and the scope. Every
missing or bad setting is named in one message (``BAD_ARGUMENT``), before
anything is served.
"""

from __future__ import annotations

import base64
import binascii
import os
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from ..errors import ErrorCode, StawvsError

__all__ = [
    "REQUIRED",
    "STAGES",
    "BotSettings",
    "Secret",
    "load_public_key",
    "read_env_file",
    "shown_url",
]

#: The settings the bot cannot run without (a stage gives the token's two).
REQUIRED: Final = (
    "AP_BOT_PUBLIC_KEY",
    "BOT_CLIENT_ID",
    "BOT_CLIENT_SECRET",
    "BOT_OAUTH_SCOPE",
    "BOT_TOKEN_URL",
    "BOT_QUERY_URL",
    "AP_QUERY_URL",
)
#: Each stage's token address and OAuth scope, as Abstract Play publishes them
#: in its own configuration (node-backend ``serverless.yml``, ``custom.stageConfig``:
#: ``botTokenUrl`` and ``botOAuthScope``).
STAGES: Final[Mapping[str, Mapping[str, str]]] = {
    "dev": {
        "BOT_TOKEN_URL": "https://abstract-play-bots-dev.auth.us-east-1.amazoncognito.com/oauth2/token",
        "BOT_OAUTH_SCOPE": "default-m2m-resource-server-dev/communicate",
    },
    "prod": {
        "BOT_TOKEN_URL": "https://botauth.abstractplay.com/oauth2/token",
        "BOT_OAUTH_SCOPE": "default-m2m-resource-server-zssvzy/communicate",
    },
}
#: The longest key, secret or settings file read.
_MAX_FILE_BYTES: Final = 65_536
_SSH2_BEGIN: Final = "---- BEGIN SSH2 PUBLIC KEY ----"
_KEY_FORMS: Final = (
    "an ssh-ed25519 line, an RFC 4716 SSH2 public key, either one in base64, "
    "the key's base64 alone, or a PEM public key"
)


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


def _read_small(path: Path, what: str) -> str:
    """The text of the file ``path`` (at most :data:`_MAX_FILE_BYTES`)."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(_MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise _bad(f"{what} cannot be read: {exc.strerror or exc}") from None
    if len(raw) > _MAX_FILE_BYTES:
        raise _bad(f"{what} is longer than {_MAX_FILE_BYTES} bytes")
    return raw.decode("utf-8", "replace")


def _unquoted(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1].strip()
    return text


def _from_wire(blob: bytes) -> Ed25519PublicKey:
    """The key of an SSH wire-format ``ssh-ed25519`` blob (RFC 4253, section 6.6)."""
    try:
        (size,) = struct.unpack_from(">I", blob, 0)
        kind = blob[4 : 4 + size]
        (length,) = struct.unpack_from(">I", blob, 4 + size)
        raw = blob[8 + size : 8 + size + length]
    except struct.error:
        raise _bad(f"AP_BOT_PUBLIC_KEY is not a key: expected {_KEY_FORMS}") from None
    if kind != b"ssh-ed25519":
        raise _bad("AP_BOT_PUBLIC_KEY must be an Ed25519 key (ssh-ed25519)")
    if length != 32 or len(raw) != 32:
        raise _bad("AP_BOT_PUBLIC_KEY is not a key: an Ed25519 key has 32 bytes")
    return Ed25519PublicKey.from_public_bytes(raw)


def _b64(text: str) -> bytes | None:
    try:
        return base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        return None


def _ssh2_body(text: str) -> str:
    """The base64 body of an RFC 4716 block: its header lines (``Tag: value``,
    continued by a final backslash) and the BEGIN and END lines left out."""
    body, continued = [], False
    for line in text.splitlines():
        line = line.strip()
        header = continued or ":" in line
        continued = header and line.endswith("\\")
        if line and not header and not line.startswith(("----", "#")):
            body.append(line)
    return "".join(body)


def parse_public_key(material: str) -> Ed25519PublicKey:
    """The Ed25519 key of ``material`` in a form Abstract Play's verifier reads
    (see :data:`_KEY_FORMS`); anything else is ``BAD_ARGUMENT`` in one line."""
    text = _unquoted(material).replace("\r\n", "\n").replace("\r", "\n")
    marked = ("ssh-" in text) or ("BEGIN" in text)
    if not marked:
        decoded = _b64(text)
        if decoded is None:
            raise _bad(f"AP_BOT_PUBLIC_KEY is not a key: expected {_KEY_FORMS}")
        shown = decoded.decode("utf-8", "replace")
        if shown.lstrip().startswith("ssh-") or _SSH2_BEGIN in shown:
            return parse_public_key(shown)
        return _from_wire(decoded)
    if _SSH2_BEGIN in text:
        text = _ssh2_body(text)
        if not text.startswith("ssh-"):
            blob = _b64(text)
            if blob is None:
                raise _bad("AP_BOT_PUBLIC_KEY's SSH2 block does not hold base64")
            return _from_wire(blob)
    if "-----BEGIN PUBLIC KEY-----" in text:
        try:
            key = load_pem_public_key(text.encode("ascii", "replace"))
        except (ValueError, TypeError):
            raise _bad("AP_BOT_PUBLIC_KEY is not a readable PEM public key") from None
        if not isinstance(key, Ed25519PublicKey):
            raise _bad("AP_BOT_PUBLIC_KEY must be an Ed25519 key")
        return key
    parts = text.split()
    if len(parts) >= 2 and parts[0] == "ssh-ed25519":
        blob = _b64(parts[1])
        if blob is None:
            raise _bad("AP_BOT_PUBLIC_KEY's ssh-ed25519 line does not hold base64")
        return _from_wire(blob)
    if parts and parts[0].startswith("ssh-"):
        raise _bad("AP_BOT_PUBLIC_KEY must be an Ed25519 key (ssh-ed25519)")
    raise _bad(f"AP_BOT_PUBLIC_KEY is not a key: expected {_KEY_FORMS}")


def load_public_key(value: str) -> Ed25519PublicKey:
    """The key of ``value``: key material itself (:func:`parse_public_key`) or
    the path of a file holding it."""
    text = value.strip()
    try:
        named = "\n" not in text and "\0" not in text and Path(text).is_file()
    except OSError:  # too long a name: key material
        named = False
    if named:
        text = _read_small(Path(text), "the AP_BOT_PUBLIC_KEY file")
    return parse_public_key(text)


def shown_url(url: str) -> str:
    """``url`` as a log line may show it: scheme, host, port and path, never a
    user name, password or query.

    >>> shown_url("https://user:pw@example.org:8443/oauth2/token?x=1")
    'https://example.org:8443/oauth2/token'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def _url_problem(name: str, value: str) -> str | None:
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        return f"{name} must be an http(s) URL"
    if parts.username is not None or parts.password is not None:
        return f"{name} must not hold a user name or password"
    try:
        parts.port  # noqa: B018 - the check: a port that is no number raises
    except ValueError:
        return f"{name} has a port that is not a number"
    return None


def read_env_file(path: Path) -> dict[str, str]:
    """The ``KEY=VALUE`` lines of ``path`` (blank lines and ``#`` comments
    skipped, ``export`` before a key allowed, quotes around a value removed);
    ``BAD_ARGUMENT`` naming the first line that is none of these."""
    settings: dict[str, str] = {}
    text = _read_small(path, f"the settings file {str(path)!r}")
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.removeprefix("export ").partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise _bad(f"the settings file {str(path)!r}, line {number}: not KEY=VALUE")
        settings[key] = _unquoted(value)
    return settings


@dataclass(frozen=True)
class BotSettings:
    """Everything the bot needs from its host, checked."""

    public_key: Ed25519PublicKey
    client_id: str
    client_secret: Secret
    scope: str
    token_url: str
    bot_query_url: str
    ap_query_url: str

    @classmethod
    def from_environment(
        cls, environ: Mapping[str, str] | None = None, *, stage: str | None = None
    ) -> BotSettings:
        """The settings of ``environ`` (default ``os.environ``), ``stage``
        filling in the token address and the scope where they are not set;
        ``BAD_ARGUMENT`` naming every missing or bad one in one message."""
        env = dict(STAGES[stage]) if stage else {}
        env.update({k: v for k, v in (os.environ if environ is None else environ).items() if v})
        problems: list[str] = []
        secret_file = env.get("BOT_CLIENT_SECRET_FILE", "").strip()
        if secret_file and env.get("BOT_CLIENT_SECRET", "").strip():
            problems.append("give BOT_CLIENT_SECRET or BOT_CLIENT_SECRET_FILE, not both")
        elif secret_file:
            try:
                env["BOT_CLIENT_SECRET"] = _read_small(
                    Path(secret_file), "BOT_CLIENT_SECRET_FILE"
                ).strip()
            except StawvsError as exc:
                problems.append(exc.message)
        missing = [name for name in REQUIRED if not env.get(name, "").strip()]
        if missing:
            problems.append(f"missing: {', '.join(missing)}")
        key: Ed25519PublicKey | None = None
        if "AP_BOT_PUBLIC_KEY" not in missing:
            try:
                key = load_public_key(env["AP_BOT_PUBLIC_KEY"])
            except StawvsError as exc:
                problems.append(exc.message)
        for name in ("BOT_TOKEN_URL", "BOT_QUERY_URL", "AP_QUERY_URL"):
            if name not in missing:
                problem = _url_problem(name, env[name].strip())
                if problem:
                    problems.append(problem)
        if problems:
            raise _bad(
                "the bot's settings are not usable: "
                + "; ".join(problems)
                + " (see docs/abstract-play-bot.md)"
            )
        assert key is not None
        return cls(
            public_key=key,
            client_id=env["BOT_CLIENT_ID"].strip(),
            client_secret=Secret(env["BOT_CLIENT_SECRET"].strip()),
            scope=env["BOT_OAUTH_SCOPE"].strip(),
            token_url=env["BOT_TOKEN_URL"].strip(),
            bot_query_url=env["BOT_QUERY_URL"].strip(),
            ap_query_url=env["AP_QUERY_URL"].strip(),
        )
