"""The playground's web application: the page, its assets and the service.

``GET /`` is the page, ``GET /assets/NAME`` one of the files listed in
:data:`ASSETS` (nothing else: names are looked up, never joined to a path),
``GET /messages/LANG`` the page's words in a language (:func:`messages`),
``POST /rpc`` the service (:mod:`stawvs_ap.service.http`). The page keeps
the game itself and sends it with every request, so the server holds no
session: two tabs never meet, and any number of players share one server.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..i18n import catalogue, languages, negotiate
from ..service.http import MAX_BODY_BYTES
from ..service.http import create_app as service_app
from .messages import LANGUAGE_NAME, PAGE_IDS, PAGE_MESSAGES

__all__ = ["ASSETS", "create_app", "messages"]

#: Every file the page is made of, by its name under ``/assets/``, with its type.
ASSETS: Final[dict[str, str]] = {
    "playground.js": "text/javascript; charset=utf-8",
    "controls.js": "text/javascript; charset=utf-8",
    "panel.js": "text/javascript; charset=utf-8",
    "review.js": "text/javascript; charset=utf-8",
    "service.js": "text/javascript; charset=utf-8",
    "words.js": "text/javascript; charset=utf-8",
    "grid.js": "text/javascript; charset=utf-8",
    "plural.js": "text/javascript; charset=utf-8",
    "playground.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
#: The longest language preference ``GET /messages/LANG`` reads, in characters
#: (``de-AT,de,en-GB,en``: a browser's list, as the page sends it).
MAX_PREFERENCE: Final = 200
_PAGE: Final = "index.html"
#: Only our own files and the service: no other site, no inline script.
_POLICY: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)


def _asset(name: str) -> bytes:
    return resources.files(__package__).joinpath("assets", name).read_bytes()


def messages(preferences: str) -> dict[str, object]:
    """The page's words in the language ``preferences`` asks for (a tag, or a
    browser's list of tags, best first), negotiated as everywhere
    (:func:`stawvs_ap.i18n.negotiate`: ``de-AT`` is German, anything unknown
    English, never an error): the templates of the page's messages
    (:data:`~stawvs_ap.playground.messages.PAGE_IDS`) as
    :meth:`~stawvs_ap.i18n.Catalogue.table` gives them, with ``languages``, the
    installed languages each by its own name, for the page's menu.

    >>> table = messages("de-AT")
    >>> table["language"], table["messages"]["page.button.pass"]
    ('de', 'Passen')
    >>> {"tag": "ru", "name": "Русский"} in table["languages"]
    True
    >>> messages("tlh")["messages"]["page.panel.points"]
    ['{points} point', '{points} points']
    """
    table: dict[str, object] = json.loads(_table(negotiate(preferences[:MAX_PREFERENCE])))
    return table


@cache
def _table(language: str) -> bytes:
    """The answer of ``GET /messages/LANG`` for a language :func:`negotiate` gave
    (so at most one a language is kept)."""
    table = catalogue(language).table(PAGE_IDS)
    table["languages"] = [
        {"tag": tag, "name": catalogue(tag).say(LANGUAGE_NAME)} for tag in languages()
    ]
    return json.dumps(table, ensure_ascii=False).encode("utf-8")


def _headers(kind: str) -> dict[str, str]:
    return {
        "content-type": kind,
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
        "content-security-policy": _POLICY,
        "referrer-policy": "no-referrer",
    }


def _preferences(request: Request) -> str:
    """The languages a request asks for, best first: ``?lang=``, else its
    ``Accept-Language`` without the weights (browsers list them best first)."""
    asked = request.query_params.get("lang") or request.headers.get("accept-language", "")
    return ",".join(part.split(";")[0].strip() for part in asked[:MAX_PREFERENCE].split(","))


_WORDED: Final = re.compile(r'(<(\w+)[^>]*\sdata-msg="([\w.-]+)"[^>]*>)(</\2>)')
_ATTRIBUTES: Final = {
    "data-msg-label": "aria-label",
    "data-msg-placeholder": "placeholder",
    "data-msg-role": "aria-roledescription",
}


def worded_page(language: str) -> bytes:
    """The page with its words in ``language`` already in place (the text of every
    ``data-msg`` element, the attributes named by ``data-msg-*``, ``<html
    lang>``), so that it paints its frame and words before any script runs; the
    script words it again when the language is changed.

    >>> page = worded_page("de").decode()
    >>> '<html lang="de">' in page and '>Passen</button>' in page
    True
    """
    words = catalogue(language)
    said = {m.id: words.say(m) for m in PAGE_MESSAGES if m.plural_text is None}
    text = _asset(_PAGE).decode("utf-8").replace('<html lang="en">', f'<html lang="{language}">')

    def fill(found: re.Match[str]) -> str:
        return found.group(1) + html.escape(said.get(found.group(3), "")) + found.group(4)

    text = _WORDED.sub(fill, text)
    for source, attribute in _ATTRIBUTES.items():

        def add(found: re.Match[str], source: str = source, attribute: str = attribute) -> str:
            words = html.escape(said.get(found.group(1), ""))
            return f'{source}="{found.group(1)}" {attribute}="{words}"'

        text = re.sub(rf'{source}="([\w.-]+)"', add, text)
    return text.encode("utf-8")


async def _page(request: Request) -> Response:
    body = worded_page(negotiate(_preferences(request)))
    return Response(body, headers=_headers("text/html; charset=utf-8"))


async def _assets(request: Request) -> Response:
    name = request.path_params["name"]
    kind = ASSETS.get(name)
    if kind is None:
        return Response("no such file", 404, headers=_headers("text/plain; charset=utf-8"))
    return Response(_asset(name), headers=_headers(kind))


async def _messages(request: Request) -> Response:
    body = _table(negotiate(request.path_params["lang"][:MAX_PREFERENCE]))
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
