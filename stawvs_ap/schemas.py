"""The JSON Schemas (draft 2020-12) of what this package reads and writes, shipped inside it.

The schema files live at the top of the repository, in ``schemas/``, where
hosts in any language find them; the wheel carries that folder as the data
package ``stawvs_ap.schema_files`` (``pyproject.toml`` maps it), which this
module reads with :mod:`importlib.resources`. Run from a checkout (an editable
install, or the package on the path), it reads the checkout's ``schemas/``::

    >>> from stawvs_ap import schemas
    >>> schemas.names()
    ('state', 'record', 'render', 'result', 'gameinfo', 'protocol', 'review')
    >>> schemas.load("record")["title"]
    'Stawvs game record'
    >>> schemas.file_name("record"), schemas.load("state")["$id"]
    ('gamerecord.schema.json', 'urn:stawvs-ap:schema:state')

======== ==========================  =============================================
name     file                        describes
======== ==========================  =============================================
state    ``state.schema.json``       a serialized state (``serialize()``)
record   ``gamerecord.schema.json``  a game record (``gen_record()``)
render   ``render.schema.json``      the renderer JSON (``render()``)
result   ``result.schema.json``      one move result (``results``)
gameinfo ``gameinfo.schema.json``    the game's metadata (``info()``)
protocol ``protocol.schema.json``    the JSON-RPC protocol of ``stawvs-ap serve``
review   ``review.schema.json``      a game review (``stawvs-ap review --json``)
======== ==========================  =============================================

Each schema's ``$id`` is ``urn:stawvs-ap:schema:<stem>`` (``gamerecord`` for
the record, which :func:`load` also accepts as a name); the protocol schema
refers to the others by those ids. The package validates nothing against
them at run time (its readers check every document field by field, with
messages that name the problem); a host validates with the library of its
choice, for example with ``jsonschema`` and ``referencing``::

    import jsonschema, referencing
    from stawvs_ap import schemas

    registry = referencing.Registry().with_resources(
        (doc["$id"], referencing.Resource.from_contents(doc))
        for doc in map(schemas.load, schemas.names())
    )
    jsonschema.Draft202012Validator(schemas.load("protocol"), registry=registry).validate(line)

The files are written by a checkout's ``python devtools/schemagen.py``; the
protocol schema is made from the service's method declarations
(:mod:`stawvs_ap.service.protocol`); ``review.schema.json`` is written by hand.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final

from .errors import ErrorCode, StawvsError, excerpt

__all__ = ["FILES", "file_name", "load", "names", "text"]

#: Each schema's name and its file in this package, in the order :func:`names` gives.
FILES: Final[dict[str, str]] = {
    "state": "state.schema.json",
    "record": "gamerecord.schema.json",
    "render": "render.schema.json",
    "result": "result.schema.json",
    "gameinfo": "gameinfo.schema.json",
    "protocol": "protocol.schema.json",
    "review": "review.schema.json",
}
#: Other names accepted: the stem of a schema's ``$id`` where it differs from its name.
_ALIASES: Final[dict[str, str]] = {"gamerecord": "record"}


def names() -> tuple[str, ...]:
    """The names of the schemas shipped, each one that :func:`load` accepts."""
    return tuple(FILES)


def file_name(name: str) -> str:
    """The file of schema ``name`` (``"record"`` → ``"gamerecord.schema.json"``).

    Raises :class:`~stawvs_ap.errors.StawvsError` with code ``BAD_ARGUMENT``
    for a name that is not one of :func:`names` (or ``"gamerecord"``).
    """
    if not isinstance(name, str):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"a schema name is text, not {type(name).__name__}"
        )
    canonical = _ALIASES.get(name, name)
    if canonical not in FILES:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"there is no schema {excerpt(name, 60)}: choose one of {', '.join(FILES)}",
        )
    return FILES[canonical]


def text(name: str) -> str:
    """The text of schema ``name``, exactly as the file holds it (UTF-8 JSON)."""
    return _read(file_name(name))


def load(name: str) -> dict[str, Any]:
    """Schema ``name`` parsed: a new dict on every call, free to change."""
    loaded: dict[str, Any] = json.loads(text(name))
    return loaded


@cache
def _read(file: str) -> str:
    return _folder().joinpath(file).read_text(encoding="utf-8")


#: The data package the wheel maps ``schemas/`` to (pyproject.toml's package-dir).
_INSTALLED: Final = "stawvs_ap.schema_files"


def _folder() -> Traversable:
    """The checkout's ``schemas/`` when the package runs from a checkout (the
    folder beside the package, with the project's ``pyproject.toml``), else the
    installed copy the wheel put in ``stawvs_ap/schema_files/``."""
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "schemas").is_dir():
        return root / "schemas"
    return resources.files(_INSTALLED)
