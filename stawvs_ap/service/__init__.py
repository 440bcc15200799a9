"""The engine as a service: one table of JSON-RPC 2.0 methods, two transports,
one client.

The methods (:data:`METHODS`) take the game as ``state`` and keep nothing
between requests: the game's own (:mod:`.game`), the bots (:mod:`.bots`:
``bot_move``, ``hint``, ``solve``), the game review (:mod:`.reviews`:
``review``) and what a page needs (:mod:`.views`: ``svg``, ``summary``,
``undo``). Each is declared once, with typed parameters and the
schema of its result (:mod:`.protocol`); :mod:`.methods` makes the table from
each module's list and dispatches to it. :mod:`.jsonrpc` reads requests and writes answers for
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

from .bots import SEARCHES, SERVER_BUSY
from .methods import APP_ERROR, METHODS, answer_line, call, serve
from .protocol import Method

__all__ = [
    "APP_ERROR",
    "METHODS",
    "SEARCHES",
    "SERVER_BUSY",
    "Method",
    "answer_line",
    "call",
    "serve",
]
