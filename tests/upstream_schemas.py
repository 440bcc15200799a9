"""Validators for the upstream Abstract Play schemas copied into ``fixtures/upstream-schemas``,
and for our own in ``schemas/``.

The upstream ones use the draft-07-era dialect, so they are checked with
``Draft7Validator``; ours are draft 2020-12. Formats are checked too, so dates
and URIs must be well formed.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema

UPSTREAM = Path(__file__).resolve().parent.parent / "fixtures" / "upstream-schemas"
#: Our own schemas (draft 2020-12), written by ``python -m stawvs_ap.tools.schemagen``.
OURS = Path(__file__).resolve().parent.parent / "schemas"

Validator = type[jsonschema.Draft7Validator] | type[jsonschema.Draft202012Validator]


@cache
def schema_validator(
    folder: Path, name: str, dialect: Validator = jsonschema.Draft7Validator
) -> jsonschema.protocols.Validator:
    """The validator (with format checking) of ``<folder>/<name>.schema.json``."""
    schema = json.loads((folder / f"{name}.schema.json").read_text(encoding="utf-8"))
    return dialect(schema, format_checker=dialect.FORMAT_CHECKER)


def validator(name: str) -> jsonschema.protocols.Validator:
    """The validator of ``fixtures/upstream-schemas/<name>.schema.json``."""
    return schema_validator(UPSTREAM, name)


def errors(name: str, document: object) -> list[str]:
    """Readable validation errors of ``document`` against upstream schema ``name``."""
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message[:200]}"
        for e in validator(name).iter_errors(document)
    ]


def our_errors(name: str, document: object) -> list[str]:
    """Readable validation errors of ``document`` against our schema ``schemas/<name>``."""
    found = schema_validator(OURS, name, jsonschema.Draft202012Validator).iter_errors(document)
    return [f"{e.json_path}: {e.message[:200]}" for e in found]
