"""Write the JSON Schemas (draft 2020-12) of what the package reads and writes.

A developer tool of the checkout (it is not in the wheel)::

    python devtools/schemagen.py            # rewrite schemas/*.schema.json
    python devtools/schemagen.py --check    # exit 1 naming every stale file

It regenerates the schema files of the checkout it belongs to (its top-level
``schemas/``, which :mod:`stawvs_ap.schemas` reads and the wheel ships) from
that checkout's package, whatever the current directory; ``--out DIR`` names
another folder. ``protocol.schema.json`` is made from the service's method
declarations (:func:`stawvs_ap.service.protocol.protocol_schema` of
:data:`stawvs_ap.service.methods.METHODS`). ``review.schema.json`` is written by
hand and left alone. The state and metadata schemas
start from the pydantic models (:class:`stawvs_ap.state.format.StateModel`,
:class:`stawvs_ap.host.metadata.GameInfo`) and are then tightened to Stawvs:
squares ``a1``–``h8``, pyramid codes, sizes 1–3, players 1–4, this engine
version. The render, result and record schemas are written out here, since no
model stands behind them.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

#: The checkout this tool belongs to: its package is the one imported below.
CHECKOUT: Final = Path(__file__).resolve().parent.parent
if str(CHECKOUT) not in sys.path:
    sys.path.insert(0, str(CHECKOUT))  # run as a script: python devtools/schemagen.py

from stawvs_ap.core.variants import VARIANTS  # noqa: E402
from stawvs_ap.host.metadata import DEFAULT_SETUP_NAME, GAMEINFO, GameInfo  # noqa: E402
from stawvs_ap.schemas import FILES  # noqa: E402
from stawvs_ap.service.methods import METHODS  # noqa: E402
from stawvs_ap.service.protocol import protocol_schema  # noqa: E402
from stawvs_ap.state.entry import ENDINGS, ENGINE_VERSION  # noqa: E402
from stawvs_ap.state.format import StateModel  # noqa: E402

__all__ = ["SCHEMA_DIR", "build_schemas", "main", "schema_text"]

Schema = dict[str, Any]

DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
#: The checkout's schema files: the default of ``--out``.
SCHEMA_DIR: Final = CHECKOUT / "schemas"

SQUARE: Final[Schema] = {"type": "string", "pattern": "^[a-h][1-8]$"}
PLAYER: Final[Schema] = {"type": "integer", "minimum": 1, "maximum": 4}
SIZE: Final[Schema] = {"type": "integer", "minimum": 1, "maximum": 3}
COLOUR: Final[Schema] = {"enum": ["PI", "BL", "GR", "OR"]}
PYRAMID_NAME: Final = "^a (small|medium|large) (pink|blue|green|orange) pyramid$"
ROW_COL: Final[Schema] = {
    "type": "object",
    "properties": {
        "row": {"type": "integer", "minimum": 0, "maximum": 7},
        "col": {"type": "integer", "minimum": 0, "maximum": 7},
    },
    "required": ["row", "col"],
    "additionalProperties": False,
}
_SQ: Final = "[a-h][1-8]"
MOVE_PATTERN: Final = f"^({_SQ}(-{_SQ}(,{_SQ})?)?|pass|{'|'.join(ENDINGS)})$"
STARTING_POSITION_PATTERN: Final = r"^([.]|(PI|BL|GR|OR)[123]){8}(/([.]|(PI|BL|GR|OR)[123]){8}){7}$"


def _pair(first: Schema, second: Schema) -> Schema:
    return {"type": "array", "prefixItems": [first, second], "minItems": 2, "maxItems": 2}


def _obj(properties: Schema, required: Sequence[str], **extra: Any) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
        **extra,
    }


def _const(value: Any) -> Schema:
    return {"const": value}


def _document(uid: str, title: str, body: Schema) -> Schema:
    return {"$schema": DIALECT, "$id": f"urn:stawvs-ap:schema:{uid}", "title": title, **body}


# --------------------------------------------------------------------------
# Results


def result_defs() -> Schema:
    """The result objects Stawvs writes (CONTRACT §5), one ``$defs`` entry per type."""
    const = _const
    return {
        "place": _obj(
            {"type": const("place"), "where": SQUARE, "who": PLAYER}, ["type", "where", "who"]
        ),
        "move": _obj(
            {
                "type": const("move"),
                "from": SQUARE,
                # "" while a partial move is previewed and TO is not chosen yet
                "to": {"anyOf": [SQUARE, {"const": ""}]},
                "how": SQUARE,
                "what": {"type": "string", "pattern": PYRAMID_NAME},
            },
            ["type", "from", "to"],
            dependentRequired={"how": ["what"], "what": ["how"]},
        ),
        "announce": _obj(
            {
                "type": const("announce"),
                "payload": {
                    "type": "array",
                    "maxItems": 3,
                    "items": {"type": "string", "pattern": PYRAMID_NAME},
                },
            },
            ["type", "payload"],
        ),
        "pass": _obj({"type": const("pass")}, ["type"]),
        "eog": _obj({"type": const("eog")}, ["type"]),
        "winners": _obj(
            {
                "type": const("winners"),
                "players": {"type": "array", "items": PLAYER, "uniqueItems": True, "maxItems": 4},
            },
            ["type", "players"],
        ),
        "resigned": _obj({"type": const("resigned"), "player": PLAYER}, ["type", "player"]),
        "timeout": _obj({"type": const("timeout"), "player": PLAYER}, ["type", "player"]),
        "drawagreed": _obj({"type": const("drawagreed")}, ["type"]),
        "gameabandoned": _obj({"type": const("gameabandoned")}, ["type"]),
    }


def result_schema() -> Schema:
    defs = result_defs()
    return _document(
        "result",
        "Stawvs move result",
        {
            "$defs": defs,
            "oneOf": [{"$ref": f"#/$defs/{name}"} for name in defs],
        },
    )


# --------------------------------------------------------------------------
# Serialized state


def state_schema() -> Schema:
    """The serialized state (CONTRACT §4), from :class:`StateModel`, tightened."""
    schema = StateModel.model_json_schema(by_alias=True, mode="validation")
    defs = schema["$defs"]
    pyramid = _pair(COLOUR, SIZE)
    board_pyramid = _pair({"enum": ["PI", "BL", "GR", "OR", "GH"]}, SIZE)
    defs["square"] = SQUARE
    defs["player"] = PLAYER
    defs["pyramid"] = pyramid
    # A grey ghost only ever stands under a cap (after final captures).
    # (anyOf, not oneOf: the branches differ in length, and anyOf stops at the first match)
    defs["cell"] = {
        "anyOf": [
            {
                "type": "array",
                "prefixItems": [{"$ref": "#/$defs/pyramid"}],
                "minItems": 1,
                "maxItems": 1,
            },
            _pair(board_pyramid, {"$ref": "#/$defs/player"}),
        ]
    }
    for name, result in result_defs().items():
        defs[f"result_{name}"] = result
    defs.pop("ResultModel", None)

    board = defs["BoardModel"]["properties"]["value"]
    board["items"] = _pair({"$ref": "#/$defs/square"}, {"$ref": "#/$defs/cell"})

    entry = defs["EntryModel"]["properties"]
    entry["_version"] = {"const": ENGINE_VERSION}
    entry["_results"]["items"] = {
        "anyOf": [{"$ref": f"#/$defs/result_{name}"} for name in result_defs()]
    }
    entry["_timestamp"] = {
        "type": "string",
        "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$",
    }
    entry["currplayer"] = {"$ref": "#/$defs/player"}
    entry["lastmove"] = {"type": "string", "pattern": MOVE_PATTERN}
    entry["eliminated"] = {
        "type": "array",
        "items": {"$ref": "#/$defs/player"},
        "uniqueItems": True,
        "maxItems": 4,
    }
    entry["captured"] = {
        "type": "array",
        "minItems": 2,
        "maxItems": 4,
        "items": {"type": "array", "items": {"$ref": "#/$defs/pyramid"}, "maxItems": 60},
    }

    top = schema["properties"]
    top["game"] = {"const": "stawvs"}
    top["numplayers"] = {"type": "integer", "minimum": 2, "maximum": 4}
    top["variants"] = {"type": "array", "items": {"enum": list(VARIANTS)}, "uniqueItems": True}
    top["winner"] = {
        "type": "array",
        "items": {"$ref": "#/$defs/player"},
        "uniqueItems": True,
        "maxItems": 4,
    }
    schema.pop("title", None)
    return _document("state", "Stawvs serialized state", schema)


# --------------------------------------------------------------------------
# Render


def render_schema() -> Schema:
    """A render (CONTRACT §6): an 8×8 board of Stawvs keys, stashes, annotations."""
    pyramid_key = "(PI|BL|GR|OR)[123]"
    targets = {"type": "array", "items": ROW_COL, "minItems": 1, "maxItems": 2}
    glyph = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "text": {"type": "string"},
            "colour": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}]},
            "opacity": {"type": "number", "minimum": 0, "maximum": 1},
            "scale": {"type": "number", "exclusiveMinimum": 0},
        },
        "additionalProperties": False,
    }
    cell = {
        "anyOf": [
            {"type": "array", "maxItems": 0},
            {
                "type": "array",
                "prefixItems": [{"pattern": f"^{pyramid_key}$"}],
                "minItems": 1,
                "maxItems": 1,
            },
            {
                "type": "array",
                "minItems": 2,
                "maxItems": 2,
                "prefixItems": [{"pattern": f"^({pyramid_key}|GH[123])$"}, {"pattern": "^P[1-4]$"}],
            },
        ],
        "items": {"type": "string"},
    }
    row = {"type": "array", "items": {"$ref": "#/$defs/cell"}, "minItems": 8, "maxItems": 8}
    stash_area = _obj(
        {
            "type": {"const": "localStash"},
            "label": {"type": "string"},
            "stash": {
                "type": "array",
                "minItems": 1,
                "maxItems": 60,
                "items": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 3,
                    "items": {"type": "string", "pattern": f"^{pyramid_key}c$"},
                },
            },
        },
        ["type", "label", "stash"],
    )
    annotation = {
        "oneOf": [
            _obj(
                {"type": {"enum": ["enter", "exit"]}, "targets": {**targets, "maxItems": 1}},
                ["type", "targets"],
            ),
            _obj(
                {
                    "type": {"const": "move"},
                    "style": {"const": "dashed"},
                    "targets": {**targets, "minItems": 2},
                },
                ["type", "targets"],
            ),
            _obj(
                {
                    "type": {"const": "glyph"},
                    "glyph": {"const": "note"},
                    "targets": {**targets, "maxItems": 1},
                },
                ["type", "glyph", "targets"],
            ),
        ]
    }
    return _document(
        "render",
        "Stawvs render",
        {
            "$defs": {"cell": cell, "rowCol": ROW_COL},
            **_obj(
                {
                    "renderer": {"const": "stacking-expanding"},
                    "board": {"const": {"style": "squares", "width": 8, "height": 8}},
                    "legend": {
                        "type": "object",
                        "propertyNames": {"pattern": f"^({pyramid_key}c?|GH[123]|P[1-4]|note)$"},
                        "additionalProperties": glyph,
                    },
                    "pieces": {"type": "array", "items": row, "minItems": 8, "maxItems": 8},
                    "areas": {"type": "array", "items": stash_area, "minItems": 1, "maxItems": 4},
                    "annotations": {"type": "array", "items": annotation, "minItems": 1},
                },
                ["renderer", "board", "legend", "pieces"],
            ),
        },
    )


# --------------------------------------------------------------------------
# Metadata and records


def gameinfo_schema() -> Schema:
    """The metadata (CONTRACT §7), from :class:`GameInfo`, as it is dumped (no nulls)."""
    schema = GameInfo.model_json_schema(by_alias=True, mode="serialization")
    person = schema["$defs"]["Person"]["properties"]
    person["urls"] = {"type": "array", "items": {"type": "string", "format": "uri"}}
    variant = schema["$defs"]["Variant"]["properties"]
    variant["group"] = {"type": "string"}
    variant["uid"] = {"enum": [v.uid for v in GAMEINFO.variants]}
    props = schema["properties"]
    props["urls"]["items"] = {"type": "string", "format": "uri"}
    props["uid"] = {"const": GAMEINFO.uid}
    props["version"] = {"const": ENGINE_VERSION}
    props["bggid"] = {"type": "string", "pattern": "^[0-9]+$"}
    props["playercounts"]["items"] = {"type": "integer", "minimum": 2, "maximum": 4}
    schema.pop("title", None)
    return _document("gameinfo", "Stawvs game metadata", schema)


def gamerecord_schema() -> Schema:
    """A game record: Abstract Play's record shape with a required ``startingPosition``."""
    names = [v.name for v in GAMEINFO.variants if v.uid in VARIANTS] + [DEFAULT_SETUP_NAME]
    date = {"type": "string", "format": "date-time"}
    player = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "userid": {"type": "string"},
            "score": {"type": "number"},
            "is_ai": {"type": "boolean"},
            "result": {"type": "integer"},
        },
        "required": ["name", "result"],
    }
    move = {
        "oneOf": [
            {"type": "null"},
            {"type": "string", "pattern": MOVE_PATTERN},
            _obj(
                {
                    "move": {"type": "string", "pattern": MOVE_PATTERN},
                    "sequence": {"type": "integer"},
                    "result": {
                        "anyOf": [
                            {"type": "string"},
                            {"type": "array", "items": {"type": "object"}},
                        ]
                    },
                },
                ["move"],
            ),
        ]
    }
    header = {
        "type": "object",
        "properties": {
            "game": _obj(
                {
                    "name": {"const": "Stawvs"},
                    "variants": {"type": "array", "items": {"enum": names}, "uniqueItems": True},
                },
                ["name"],
            ),
            "event": {"type": "string"},
            "round": {"type": "string"},
            "site": _obj(
                {"name": {"type": "string"}, "gameid": {"type": ["string", "number"]}}, ["name"]
            ),
            "date-start": date,
            "date-end": date,
            "date-generated": date,
            "unrated": {"type": "boolean"},
            "pied": {"type": "boolean"},
            "players": {"type": "array", "items": player, "minItems": 2, "maxItems": 4},
            "startingPosition": {"type": "string", "pattern": STARTING_POSITION_PATTERN},
        },
        "required": [
            "game",
            "site",
            "date-start",
            "date-end",
            "date-generated",
            "players",
            "startingPosition",
        ],
    }
    rounds = {
        "type": "array",
        "items": {"type": "array", "items": move, "minItems": 1, "maxItems": 4},
    }
    return _document(
        "gamerecord",
        "Stawvs game record",
        _obj({"header": header, "moves": rounds}, ["header", "moves"]),
    )


def build_schemas() -> dict[str, Schema]:
    """Every schema by file name (``state.schema.json`` …): each of
    :data:`stawvs_ap.schemas.FILES` but the hand-written review schema."""
    return {
        FILES["state"]: state_schema(),
        FILES["render"]: render_schema(),
        FILES["result"]: result_schema(),
        FILES["gameinfo"]: gameinfo_schema(),
        FILES["record"]: gamerecord_schema(),
        FILES["protocol"]: protocol_schema(METHODS),
    }


def schema_text(schema: Schema) -> str:
    """How a schema is written to its file (stable, so diffs stay small)."""
    return json.dumps(copy.deepcopy(schema), indent=2, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the schema files; 1 when any is stale with
    ``--check``."""
    parser = argparse.ArgumentParser(
        prog="python devtools/schemagen.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="directory (default: the checkout's schemas/)",
    )
    parser.add_argument("--check", action="store_true", help="only report files that are stale")
    args = parser.parse_args(argv)
    out: Path = SCHEMA_DIR if args.out is None else args.out
    stale = []
    for name, schema in build_schemas().items():
        path = out / name
        text = schema_text(schema)
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(name)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for name in stale:
        print(f"{'stale' if args.check else 'wrote'}: {out / name}", file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    raise SystemExit(main())
