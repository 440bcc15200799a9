"""The playground's web application: the page, its assets and the service.

``GET /`` is the page, ``GET /assets/NAME`` one of the files listed in
:data:`ASSETS` (nothing else: names are looked up, never joined to a path),
``GET /messages/LANG`` the page's words in a language (its message table),
``POST /rpc`` the service (:mod:`stawvs_ap.service.http`). The page keeps
the game itself and sends it with every request, so the server holds no
session: two tabs never meet, and any number of players share one server.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..service.http import MAX_BODY_BYTES
from ..service.http import create_app as service_app

__all__ = ["ASSETS", "LANGUAGES", "create_app", "messages"]

#: Every file the page is made of, by its name under ``/assets/``, with its type.
ASSETS: Final[dict[str, str]] = {
    "playground.js": "text/javascript; charset=utf-8",
    "controls.js": "text/javascript; charset=utf-8",
    "panel.js": "text/javascript; charset=utf-8",
    "service.js": "text/javascript; charset=utf-8",
    "words.js": "text/javascript; charset=utf-8",
    "playground.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
#: The languages the page has words for (the first is the fallback).
LANGUAGES: Final = ("en",)
_PAGE: Final = "index.html"
#: Only our own files and the service: no other site, no inline script.
_POLICY: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)


@cache
def _asset(name: str) -> bytes:
    return resources.files(__package__).joinpath("assets", name).read_bytes()


@cache
def messages(lang: str) -> dict[str, str]:
    """The page's message table for ``lang`` (a language tag); English for any
    language it has no table for, never an error.

    >>> messages("de-AT")["button.pass"]
    'Pass'
    """
    base = lang.replace("_", "-").split("-")[0].lower()
    chosen = base if base in LANGUAGES else LANGUAGES[0]
    table: dict[str, str] = json.loads(_asset(f"messages/{chosen}.json"))
    return table


def _headers(kind: str) -> dict[str, str]:
    return {
        "content-type": kind,
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
        "content-security-policy": _POLICY,
        "referrer-policy": "no-referrer",
    }


async def _page(request: Request) -> Response:
    return Response(_asset(_PAGE), headers=_headers("text/html; charset=utf-8"))


async def _assets(request: Request) -> Response:
    name = request.path_params["name"]
    kind = ASSETS.get(name)
    if kind is None:
        return Response("no such file", 404, headers=_headers("text/plain; charset=utf-8"))
    return Response(_asset(name), headers=_headers(kind))


async def _messages(request: Request) -> Response:
    table = messages(request.path_params["lang"][:35])
    body = json.dumps(table, ensure_ascii=False).encode("utf-8")
    return Response(body, headers=_headers("application/json; charset=utf-8"))


def create_app(
    *, hosts: Iterable[str] | None = None, max_body_bytes: int = MAX_BODY_BYTES
) -> Starlette:
    """The playground as a Starlette application (the page, its assets, ``/rpc``);
    ``hosts`` as for :func:`stawvs_ap.service.http.create_app`."""
    routes = [
        Route("/", _page, methods=["GET"]),
        Route("/assets/{name}", _assets, methods=["GET"]),
        Route("/messages/{lang}", _messages, methods=["GET"]),
    ]
    return service_app(hosts=hosts, max_body_bytes=max_body_bytes, routes=routes)
