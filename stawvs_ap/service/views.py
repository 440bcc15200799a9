"""What a page needs over the service: the picture (``svg``), the game panel
(``summary``) and taking moves back (``undo``).

``svg`` and ``undo`` take ``locale``, the language of the picture's labels and
of their refusals; ``summary`` has no words (numbers, codes and moves: the page
words them).

``svg`` draws with :func:`stawvs_ap.pictures.svg.board_svg`, the one drawing of
the command line and of Python, with what a page adds: a ``data-square``
element over each square for clicks, colour letters on the pyramids, the
move being built (its cap moved, the squares it can go to or claim next) and
candidate moves as labelled arrows.
"""

from __future__ import annotations

from typing import Any, Final

from ..core.moves import Move, MoveSyntaxError
from ..core.position import Position
from ..core.pyramids import PYRAMIDS
from ..core.scoring import group_collection, score
from ..core.squares import SQUARES
from ..errors import ErrorCode, StawvsError, excerpt
from ..host.game import StawvsGame
from ..host.preview import Preview, preview
from ..host.verdicts import COMPLETE
from ..i18n import Phrase, catalogue
from ..pictures.svg import board_svg
from .analysis import CLAIMS
from .messages import UNDO_TOO_FAR
from .protocol import (
    BOOL,
    INT,
    LOCALE,
    NAMES,
    PLAYED_PROPERTIES,
    STATE,
    TEXT,
    Kind,
    Method,
    Params,
    Result,
    method,
    obj,
)
from .recent import game_of, played

__all__ = ["MAX_HINTS", "METHODS", "next_squares"]

#: The most labelled arrows one picture takes.
MAX_HINTS: Final = 20
_MAX_LABEL: Final = 12


def _is_hints(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) <= MAX_HINTS
        and all(
            isinstance(h, dict)
            and isinstance(h.get("move"), str)
            and set(h) <= {"move", "label"}
            and isinstance(h.get("label", ""), str)
            for h in value
        )
    )


HINTS: Final = Kind(
    _is_hints,
    f"a list of at most {MAX_HINTS} objects {{move, label?}}",
    {
        "type": "array",
        "maxItems": MAX_HINTS,
        "items": obj({"move": {"type": "string"}, "label": {"type": "string"}}, ["move"]),
    },
    "Sequence[Mapping[str, str]]",
)
SQUARE: Final = Kind(
    lambda v: isinstance(v, dict) and set(v) == {"row", "col"} and all(map(INT.test, v.values())),
    "an object {row, col} of whole numbers",
    obj({"row": {"type": "integer"}, "col": {"type": "integer"}}),
    "Mapping[str, int]",
)
#: The picture's width: the engine refuses the sizes the schema leaves out.
SIZE: Final = Kind(INT.test, INT.what, {"type": "integer", "minimum": 240, "maximum": 4000}, "int")
#: How many plies to take back: the engine refuses the numbers the schema leaves out.
PLIES: Final = Kind(INT.test, INT.what, {"type": "integer", "minimum": 1}, "int")


def _shown(params: Params) -> StawvsGame:
    game = game_of(params)
    if "ply" in params:
        game.load(params["ply"])
    return game


def next_squares(shown: Preview) -> dict[str, list[str]]:
    """The squares of a previewed partial move (``FROM`` or ``FROM-TO``) and of
    its continuations, as :func:`~stawvs_ap.pictures.svg.board_svg` highlights
    them: ``selected`` (the cap's square), ``destinations`` (after ``FROM``),
    ``targets`` (after ``FROM-TO``). Empty for the preview of a complete move.

    >>> game = StawvsGame(2, seed=1)
    >>> next_squares(preview(game.position, Move.parse("b7"), complete=True))
    {}
    """
    partial = shown.partial
    if partial is None or partial.source is None:
        return {}
    if partial.dest is None:
        return {
            "selected": [str(partial.source)],
            "destinations": sorted(str(m.dest) for m in shown.continuations),
        }
    return {
        "selected": [str(partial.dest)],
        "targets": sorted(str(m.target) for m in shown.continuations),
    }


@method(
    "svg",
    "The picture of the position (at stack entry 'ply' if given) for a page: a data-square "
    "element over each square; 'move' a partial move being built, shown with where it can go "
    "next; 'hints' candidate moves drawn as arrows with a label; 'marks' (default true) the "
    "colour's letter on each pyramid; 'click' a click on render square (row, col) that "
    "extends 'move' first, as the click method does (the answer adds what click answers, and "
    "the picture shows the move it made); with 'play' true, a click that completes a move "
    "also makes it: the answer adds what move answers, and the picture shows the position "
    "after it (a page's last click of a move in one request); 'claims' an analysis's claim "
    "map, each pyramid tinted by its likeliest collector.",
    required={"state": STATE},
    optional={
        "ply": INT,
        "move": TEXT,
        "hints": HINTS,
        "size": SIZE,
        "names": NAMES,
        "marks": BOOL,
        "click": SQUARE,
        "play": BOOL,
        "locale": LOCALE,
        "claims": CLAIMS,
    },
    result=obj(
        {"svg": {"type": "string"}, "click": {"$ref": "#/$defs/clickVerdict"}, **PLAYED_PROPERTIES},
        ["svg"],
    ),
)
def svg(params: Params) -> Result:
    play = params.get("play", False)
    if play and ("click" not in params or "ply" in params):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, "'play' goes with a 'click' on the latest position (no 'ply')"
        )
    game = _shown(params)
    shown: StawvsGame | Position = game
    highlights: dict[str, list[str]] = {}
    answer: Result = {}
    built = params.get("move", "")
    if "click" in params:
        # A page's click and its picture in one round trip (a browser spends
        # more on a request than the engine on both).
        clicked = game.handle_click(built, params["click"]["row"], params["click"]["col"])
        answer["click"] = clicked._asdict()
        if clicked.valid:
            built = clicked.move
        if clicked.valid and clicked.complete == 1 and play:
            game.move(built)
            answer.update(played(game))
            built = ""
    if built:
        verdict = game.validate_move(built)
        if not verdict.valid:
            assert verdict.code is not None
            raise StawvsError(verdict.code, verdict.message)
        # A partial move: the cap chosen (FROM), perhaps landed (FROM-TO).
        complete = verdict.complete == COMPLETE
        partial = None if complete else preview(game.position, Move.parse(built), complete)
        if partial is not None:
            highlights = next_squares(partial)
            if partial.position is not game.position:
                shown = partial.position
    hints = []
    for hint in params.get("hints", ()):
        try:
            hints.append((Move.parse(hint["move"]), hint.get("label", "")[:_MAX_LABEL]))
        except MoveSyntaxError:
            raise StawvsError(
                ErrorCode.MALFORMED, f"hint {excerpt(hint['move'], 20)} is not a move"
            ) from None
    picture = board_svg(
        shown,
        params.get("size", 560),
        lastmove=game.lastmove if shown is not game else None,
        names=params.get("names"),
        hints=hints,
        highlights=highlights,
        marks=params.get("marks", True),
        squares=True,
        locale=game.locale,
        claims=params.get("claims"),
    )
    return {"svg": picture, **answer}


_INTEGER: Final = {"type": "integer"}
_COUNT: Final = {"type": "integer", "minimum": 0}
_TEXTS: Final = {"type": "array", "items": {"type": "string"}}
_STACK: Final = obj({"pyramids": _TEXTS, "points": _INTEGER})
_PLAYER: Final = obj(
    {
        "player": _INTEGER,
        "score": _INTEGER,
        "passed": {"type": "boolean"},
        "stacks": {"type": "array", "items": _STACK},
    }
)


@method(
    "summary",
    "The game panel of the position shown (at stack entry 'ply' if given), and the whole "
    "game's moves, each with what it did in words ('names' the players' names in seating "
    "order, 'locale' the language).",
    required={"state": STATE},
    optional={"ply": INT, "names": NAMES, "locale": LOCALE},
    result=obj(
        {
            "numplayers": _INTEGER,
            "variants": _TEXTS,
            "mode": {"enum": ["place", "collect"]},
            "currplayer": _INTEGER,
            "gameover": {"type": "boolean"},
            "winner": {"type": "array", "items": _INTEGER},
            "lastmove": {"type": ["string", "null"]},
            "ply": _COUNT,
            "plies": _COUNT,
            "must_pass": {"type": "boolean"},
            "players": {"type": "array", "items": _PLAYER},
            "history": {
                "type": "array",
                "items": obj(
                    {"player": _INTEGER, "move": {"type": "string"}, "words": {"type": "string"}}
                ),
            },
            "squares": {
                "type": "object",
                "additionalProperties": obj(
                    {"pyramid": {"type": ["string", "null"]}, "cap": {"type": ["integer", "null"]}}
                ),
            },
        }
    ),
)
def summary(params: Params) -> Result:
    game = _shown(params)
    position = game.position
    players: list[dict[str, Any]] = []
    for player, collection in enumerate(position.captured, start=1):
        stacks = group_collection(collection)
        players.append(
            {
                "player": player,
                "score": score(collection),
                "passed": player in position.eliminated,
                "stacks": [
                    # A stack's score is its points: a tree's 7 or 5, or 1 a pyramid.
                    {"pyramids": [PYRAMIDS[p].code for p in s], "points": score(s)}
                    for s in stacks
                ],
            }
        )
    # The whole game, whatever is shown: a page lists every move and says the last.
    moves = [pair for round_ in game.move_history_with_sequence() for pair in round_]
    said = game.moves_in_words(params.get("names"))
    history = [
        {"player": player, "move": move, "words": words}
        for (player, move), words in zip(moves, said, strict=True)
    ]
    shown = params["ply"] % (len(history) + 1) if "ply" in params else len(history)
    return {
        "numplayers": game.numplayers,
        "variants": list(game.variants),
        "mode": position.mode,
        "currplayer": position.currplayer,
        "gameover": game.gameover,
        "winner": game.winner,
        "lastmove": game.lastmove,
        "ply": shown,
        "plies": len(history),
        "must_pass": game.moves() == ["pass"],
        "players": players,
        "history": history,
        # What stands on each square, for a page to name its cells to a screen reader.
        "squares": {
            square.name: {
                "pyramid": None if (p := position.pyramid_at(square)) is None else p.code,
                "cap": position.cap_at(square),
            }
            for square in SQUARES
        },
    }


@method(
    "undo",
    "Take back the last 'plies' moves (default 1).",
    required={"state": STATE},
    optional={"plies": PLIES, "locale": LOCALE},
    result={"$ref": "#/$defs/played"},
)
def undo(params: Params) -> Result:
    game = game_of(params)
    plies, made = params.get("plies", 1), sum(map(len, game.move_history()))
    if not 1 <= plies <= made:
        refusal = Phrase(UNDO_TOO_FAR, {"made": made, "plies": plies})
        raise StawvsError(ErrorCode.NO_UNDO, catalogue(game.locale).say(refusal))
    for _ in range(plies):
        game.undo()
    return played(game)


#: The page's methods, in the order the protocol lists them.
METHODS: Final[tuple[Method, ...]] = (svg, summary, undo)
