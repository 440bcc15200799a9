"""The engine as a service: one table of JSON-RPC 2.0 methods, two transports,
one client.

The methods (:data:`METHODS`) take the game as ``state`` and keep nothing
between requests: the game's own (:mod:`.methods`), the bots (:mod:`.bots`:
``bot_move``, ``hint``; :mod:`.reviews`: ``review``) and what a page needs (:mod:`.views`: ``svg``,
``summary``, ``undo``). :mod:`.jsonrpc` reads requests and writes answers for
any table. They are served over standard input and output by :func:`serve`
(``stawvs-ap serve``), and over HTTP by the ASGI application of
:mod:`stawvs_ap.service.http` (``stawvs-ap serve --http``; it needs the
``web`` extra: ``pip install "stawvs-ap[web]"``). :mod:`.client` is the
Python client of the first.

>>> from stawvs_ap.service import call
>>> state = call("new", {"players": 2, "seed": 1})["state"]
>>> call("bot_move", {"state": state, "bot": "greedy", "seed": 1})["currplayer"]
2
"""

from __future__ import annotations

from . import bots, reviews, views
from .bots import SEARCHES, SERVER_BUSY
from .methods import APP_ERROR, METHODS, Method, answer_line, call, serve

__all__ = [
    "APP_ERROR",
    "METHODS",
    "SEARCHES",
    "SERVER_BUSY",
    "Method",
    "answer_line",
    "bots",
    "call",
    "reviews",
    "serve",
    "views",
]
