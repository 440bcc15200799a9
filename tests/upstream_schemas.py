"""Validators for the upstream Abstract Play schemas copied into ``fixtures/upstream-schemas``,
and for our own, shipped in the package (:mod:`stawvs_ap.schemas`).

The upstream ones use the draft-07-era dialect, so they are checked with
``Draft7Validator``; ours are draft 2020-12. Formats are checked too, so dates
and URIs must be well formed.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema

from stawvs_ap import schemas

UPSTREAM = Path(__file__).resolve().parent.parent / "fixtures" / "upstream-schemas"


@cache
def validator(name: str) -> jsonschema.protocols.Validator:
    """The validator (with format checking) of ``fixtures/upstream-schemas/<name>.schema.json``."""
    schema = json.loads((UPSTREAM / f"{name}.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft7Validator(
        schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER
    )


@cache
def our_validator(name: str) -> jsonschema.protocols.Validator:
    """The validator (with format checking) of our schema ``name``, as the package ships it
    (``stawvs_ap.schemas.load(name)``, written by ``python devtools/schemagen.py``)."""
    dialect = jsonschema.Draft202012Validator
    return dialect(schemas.load(name), format_checker=dialect.FORMAT_CHECKER)


def errors(name: str, document: object) -> list[str]:
    """Readable validation errors of ``document`` against upstream schema ``name``."""
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message[:200]}"
        for e in validator(name).iter_errors(document)
    ]


def our_errors(name: str, document: object) -> list[str]:
    """Readable validation errors of ``document`` against our schema ``name``."""
    found = our_validator(name).iter_errors(document)
    return [f"{e.json_path}: {e.message[:200]}" for e in found]
