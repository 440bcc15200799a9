"""Validators for the upstream Abstract Play schemas copied into ``fixtures/upstream-schemas``.

They use the draft-07-era dialect, so they are checked with ``Draft7Validator``
(with format checking, so dates and URIs must be well formed).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema

UPSTREAM = Path(__file__).resolve().parent.parent / "fixtures" / "upstream-schemas"


@cache
def validator(name: str) -> jsonschema.Draft7Validator:
    """The validator of ``fixtures/upstream-schemas/<name>.schema.json``."""
    schema = json.loads((UPSTREAM / f"{name}.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft7Validator(
        schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER
    )


def errors(name: str, document: object) -> list[str]:
    """Readable validation errors of ``document`` against upstream schema ``name``."""
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message[:200]}"
        for e in validator(name).iter_errors(document)
    ]
