"""A Stawvs bot for Abstract Play's bot framework (docs/abstract-play-bot.md).

Abstract Play calls a bot's HTTPS endpoint with signed webhooks (a ping, a
challenge, a move to make) and the bot sends its moves back to the
platform's bot-query URL with an OAuth token. This package is that bot, a
floor above the service, which it uses: :func:`~stawvs_ap.apbot.app.create_app` is the ASGI
application, :class:`~stawvs_ap.apbot.player.ApBot` the work behind it, and
``stawvs-ap ap-bot --http HOST:PORT --bot SPEC`` runs both. It needs the
``web`` and ``ap-bot`` extras (Starlette, uvicorn, PyCA cryptography).
"""

from __future__ import annotations

from .app import BotEndpoint, create_app
from .journal import Journal, default_journal_path
from .outbound import Outbound
from .player import ApBot
from .settings import BotSettings, Secret

__all__ = [
    "ApBot",
    "BotEndpoint",
    "BotSettings",
    "Journal",
    "Outbound",
    "Secret",
    "create_app",
    "default_journal_path",
]
