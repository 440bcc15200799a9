"""Access to the reference data recorded from the Abstract Play engine.

The data lives in ``fixtures/reference/`` (see the README there) and is read
relative to this file, so the tests run from any checkout of the project.

The loaders are cached: every caller gets the same parsed objects, so tests must
treat them as read-only (copy before changing anything).
"""

from __future__ import annotations

import copy
import gzip
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "reference"

# Probe kinds whose inputs only differ from a legal move by case or whitespace.
CASE_OR_SPACE_KINDS = frozenset({"legal_uppercase", "legal_padded", "legal_spaced"})
# Probe kinds (and one garbage input) the reference engine accepts although they
# carry trailing text or wrong separators; we call them malformed.
MALFORMED_KINDS = frozenset(
    {
        "legal_extra_claim",
        "legal_trailing_comma",
        "legal_dash_instead_of_comma",
        "legal_double_comma",
    }
)
MALFORMED_GARBAGE = frozenset({"a1-b2,"})

SQUARE_RE = re.compile(r"^[a-h][1-8]$")
COMPLETE_PIECE_MOVE_RE = re.compile(r"^[a-h][1-8]-[a-h][1-8],[a-h][1-8]$")


@cache
def _load(name: str) -> tuple[dict[str, Any], ...]:
    with gzip.open(FIXTURES / name, "rt", encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


def games() -> tuple[dict[str, Any], ...]:
    """The 27 complete reference games (``games.jsonl.gz``)."""
    return _load("games.jsonl.gz")


def probes() -> tuple[dict[str, Any], ...]:
    """The 191 probe positions (``probes.jsonl.gz``)."""
    return _load("probes.jsonl.gz")


def extras(kind: str | None = None) -> tuple[dict[str, Any], ...]:
    """Lines of ``extras.jsonl.gz``, optionally only those of one ``kind``
    (``preview``, ``ending``, ``history``, ``samemove``)."""
    lines = _load("extras.jsonl.gz")
    if kind is None:
        return lines
    return tuple(x for x in lines if x["kind"] == kind)


# --------------------------------------------------------------------------
# States


def _as_dict(state: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(state, str):
        return json.loads(state)
    return copy.deepcopy(state)


def strip_timestamps(state: str | dict[str, Any]) -> dict[str, Any]:
    """A copy of the state with the ``_timestamp`` of every stack entry removed."""
    out = _as_dict(state)
    for entry in out.get("stack", []):
        entry.pop("_timestamp", None)
    return out


def canonical_state(state: str | dict[str, Any]) -> dict[str, Any]:
    """A comparable form of a serialized state: timestamps removed and the board
    entries sorted by square (their order carries no meaning). Key order of JSON
    objects does not matter for dict comparison anyway."""
    out = strip_timestamps(state)
    for entry in out.get("stack", []):
        board = entry.get("board")
        if isinstance(board, dict) and isinstance(board.get("value"), list):
            board["value"] = sorted(board["value"], key=lambda pair: pair[0])
    return out


def last_entry(state: str | dict[str, Any]) -> dict[str, Any]:
    return _as_dict(state)["stack"][-1]


def board_pieces(entry: dict[str, Any]) -> list[list[list[str]]]:
    """The ``pieces`` of a render for a stack entry's board (CONTRACT §6)."""
    board = {sq: val for sq, val in entry["board"]["value"]}
    rows = []
    for r in range(8):
        row = []
        for c in range(8):
            val = board.get("abcdefgh"[c] + str(8 - r))
            if val is None:
                row.append([])
            else:
                (colour, size), *cap = val
                row.append([f"{colour}{size}"] + [f"P{p}" for p in cap])
        rows.append(row)
    return rows


# --------------------------------------------------------------------------
# Moves, renders


def normalise(move: str) -> str:
    """Lower case, all whitespace removed (how we read every move string)."""
    return re.sub(r"\s+", "", move).lower()


def as_json(obj: Any) -> Any:
    """The object as a host would see it after JSON encoding (tuples -> lists)."""
    return json.loads(json.dumps(obj))


def drop_labels(render: dict[str, Any]) -> dict[str, Any]:
    """A JSON copy of a render whose stash areas have no ``label`` (display text,
    which is ours to word)."""
    out = as_json(render)
    for area in out.get("areas", []) or []:
        area.pop("label", None)
    return out


def square_to_rc(square: str) -> dict[str, int]:
    return {"row": 8 - int(square[1]), "col": "abcdefgh".index(square[0])}


def expected_annotations(results: list[dict[str, Any]], live: bool = False):
    """The annotations CONTRACT §6 derives from a list of results, or ``None``
    when there are none. ``live`` adds the ``exit`` mark of an object that has
    just applied the move in memory. (Checked against every render in the
    reference data.)"""
    out = []
    for res in results:
        if res["type"] == "place":
            out.append({"type": "enter", "targets": [square_to_rc(res["where"])]})
        elif res["type"] == "move" and res.get("from"):
            if live:
                out.append({"type": "exit", "targets": [square_to_rc(res["from"])]})
            if res.get("to"):
                out.append(
                    {
                        "type": "move",
                        "targets": [square_to_rc(res["from"]), square_to_rc(res["to"])],
                    }
                )
            if res.get("how"):
                out.append(
                    {"type": "glyph", "glyph": "note", "targets": [square_to_rc(res["how"])]}
                )
                out.append(
                    {
                        "type": "move",
                        "style": "dashed",
                        "targets": [square_to_rc(res["to"]), square_to_rc(res["how"])],
                    }
                )
    return out or None


# --------------------------------------------------------------------------
# Readable pytest ids


def variants_label(variants: list[str]) -> str:
    return "+".join(variants) if variants else "default"


def game_id(game: dict[str, Any]) -> str:
    return f"game-{game['id']}-{game['numplayers']}p-{variants_label(game['variants'])}"


def probe_id(pos: dict[str, Any]) -> str:
    return (
        f"pos-{pos['pos']}-game-{pos['game_id']}-ply-{pos['ply']}-"
        f"{pos['numplayers']}p-{variants_label(pos['variants'])}"
    )


def extra_id(line: dict[str, Any]) -> str:
    label = f"{line['kind']}-game-{line['game_id']}-ply-{line['ply']}"
    if line["kind"] == "ending":
        label += f"-{line['which']}" + (f"-p{line['player']}" if line.get("player") else "")
        if line.get("selected") == "finished":
            label += "-finished"
    return f"{label}-{line['numplayers']}p-{variants_label(line['variants'])}"
