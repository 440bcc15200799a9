"""The serialized state (CONTRACT §4): writing it, and reading it with every check.

A state is refused with :class:`~stawvs_ap.errors.InvalidStateError` (code
``BAD_STATE``) whose message names the first problem found: its shape (checked
by the pydantic models of :mod:`stawvs_ap.state_format`), then the rules it
breaks. States that a game wrote take a faster way in
(:mod:`stawvs_ap.fast_load`), which refuses the same states.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from .entry import ENGINE_VERSION, GAME_UID, Entry, dump_state, entry_dict
from .errors import InvalidStateError
from .fast_load import load_by_replay, load_from_text
from .state_checks import (
    ENDINGS,
    check_header,
    check_history,
    check_stack,
    entry_from_model,
    short,
)
from .state_format import (
    MAX_STATE_BYTES,
    GameState,
    StateModel,
    check_depth,
    check_depth_of_results,
    parse_json,
    to_json,
)

__all__ = [
    "ENDINGS",
    "ENGINE_VERSION",
    "MAX_STATE_BYTES",
    "Entry",
    "GameState",
    "StateModel",
    "dump_state",
    "entry_dict",
    "load_state",
    "to_json",
]


def _format_validation_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "the document"
    return f"{where}: {first['msg']}"


def load_state(data: str | bytes | dict[str, Any]) -> GameState:
    """Read and check a serialized state (JSON text or parsed dict)."""
    strictly_typed = False
    if isinstance(data, str | bytes | bytearray):
        if len(data) > MAX_STATE_BYTES:
            raise InvalidStateError(
                f"the state is {len(data)} bytes long; states over {MAX_STATE_BYTES} are refused"
            )
        fastest = load_from_text(data)
        if fastest is not None:
            return fastest
        text = data
        data, has_float = parse_json(text)
        strictly_typed = not has_float and _only_gameover_is_boolean(text)
    elif isinstance(data, dict):
        fastest = _load_dict_as_text(data)
        if fastest is not None:
            return fastest
    if not isinstance(data, dict):
        raise InvalidStateError(f"a state must be a JSON object, not {type(data).__name__}")
    if strictly_typed:
        replayed = load_by_replay(data)
        if replayed is not None:
            return replayed
    shape_error: ValidationError | None = None
    try:
        model: StateModel | None = StateModel.model_validate(data)
    except ValidationError as exc:
        model, shape_error = None, exc
    except RecursionError:
        model = None
    if model is not None:
        check_depth_of_results(model)
    else:
        check_depth(data)
    if "game" not in data:
        raise InvalidStateError("the state does not say which game it is (no 'game' key)")
    if data["game"] != GAME_UID:
        raise InvalidStateError(f"this is a state of game {short(data['game'])}, not of Stawvs")
    _check_versions(data)
    if model is None:
        # The game and versions are reported first; then the shape error found above.
        if shape_error is None:  # pydantic ran out of stack
            raise InvalidStateError("the state is nested too deeply to be a Stawvs state")
        raise InvalidStateError(f"malformed state: {_format_validation_error(shape_error)}")
    variants, rules = check_header(model)
    stack = [entry_from_model(rules, i, e) for i, e in enumerate(model.stack)]
    check_stack(stack, model.gameover, model.winner)
    check_history(stack)
    return GameState(model.numplayers, variants, stack)


def _load_dict_as_text(data: dict[str, Any]) -> GameState | None:
    """The fast way in for a parsed state: written as compact JSON (in C), it
    takes the text path, which accepts it only when it is exactly the text this
    engine writes. Whatever that refuses gets the full checks, on ``data`` itself.

    ``json.dumps`` writes only JSON's own types, and writes a boolean or a float
    standing for an integer differently from it, so nothing passes here that
    the full checks would refuse.
    """
    try:
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return load_from_text(text) if len(text) <= MAX_STATE_BYTES else None


def _only_gameover_is_boolean(text: str | bytes | bytearray) -> bool:
    """Whether the only JSON boolean is the one of ``gameover`` (counted in C).

    ``true == 1`` in Python, so the replay path, which compares with ``==``,
    must only see documents where no boolean stands for a number.
    """
    if isinstance(text, str):
        return text.count("true") + text.count("false") == 1
    return text.count(b"true") + text.count(b"false") == 1


def _check_versions(data: dict[str, Any]) -> None:
    stack = data.get("stack")
    if not isinstance(stack, list):
        return  # the model reports it
    for i, entry in enumerate(stack):
        if not isinstance(entry, dict) or "_version" not in entry:
            continue  # the model reports it
        version = entry["_version"]
        if not isinstance(version, str):
            raise InvalidStateError(
                f"stack entry {i}: '_version' must be text such as \"{ENGINE_VERSION}\", "
                f"not {short(version)}"
            )
        if version != ENGINE_VERSION:
            raise InvalidStateError(
                f"stack entry {i} was written by engine version {short(version)}; "
                f"this engine reads version {ENGINE_VERSION} only"
            )


