"""``analyse`` over the service: several lines and the claim map of a position
(:func:`stawvs_ap.bots.analysis.analyse`), bounded as ``hint`` is.

Its budget is ``seconds`` and/or ``iterations`` as ``hint``'s (checked the same
way, within the same caps), it holds one of the search slots while it runs,
and it loses its slot past its budget and grace as every search does. With
``"progress": true`` on the standard-input transport, the lines found so far
are sent as notifications ``analyse.progress`` (``{"lines": [...]}``, no id)
at most every half second while it searches, each before the answer and none
after it; over HTTP, which answers a request once, none is sent.
"""

from __future__ import annotations

import threading
from typing import Final

from ..bots.analysis import MAX_LINES, Analysis, Line
from ..bots.analysis import analyse as analyse_position
from ..bots.retry import RetryVerdict
from ..bots.retry import retry as retry_move
from ..bots.spec import BotSpec
from ..core.moves import Move, MoveSyntaxError
from ..core.squares import SQUARE_NAMES
from ..errors import ErrorCode, IllegalMoveError, StawvsError
from ..host.messages import GAME_OVER
from ..i18n import catalogue
from ..records.plies import at_ply
from .bots import ITERATIONS, SEARCHES, SECONDS, search_budget, within_budget
from .jsonrpc import NOTIFY
from .protocol import (
    BOOL,
    INT,
    LOCALE,
    SEED,
    STATE,
    TEXT,
    Kind,
    Method,
    Params,
    Result,
    method,
    obj,
)
from .recent import game_of

__all__ = ["CLAIMS", "METHODS", "PROGRESS"]

#: The method of the progress notifications.
PROGRESS: Final = "analyse.progress"

LINES: Final = Kind(
    INT.test, INT.what, {"type": "integer", "minimum": 1, "maximum": MAX_LINES}, "int"
)


def _is_claims(value: object) -> bool:
    return (
        isinstance(value, dict)
        and len(value) <= 64
        and all(
            square in SQUARE_NAMES
            and isinstance(chances, list)
            and 1 <= len(chances) <= 4
            and all(
                isinstance(p, int | float) and not isinstance(p, bool) and 0 <= p <= 1
                for p in chances
            )
            for square, chances in value.items()
        )
    )


#: A claim map as ``analyse`` answers it, for ``svg`` to draw.
CLAIMS: Final = Kind(
    _is_claims,
    "an object of squares (such as 'e3'), each a list of 1 to 4 chances from 0 to 1",
    {
        "type": "object",
        "maxProperties": 64,
        "propertyNames": {"pattern": "^[a-h][1-8]$"},
        "additionalProperties": {
            "type": "array",
            "minItems": 1,
            "maxItems": 4,
            "items": {"type": "number", "minimum": 0, "maximum": 1},
        },
    },
    "Mapping[str, Sequence[float]]",
)
_MOVES: Final = {"type": "array", "items": {"type": "string"}}
_LINE: Final = obj(
    {
        "move": {"type": "string"},
        "share": {"type": "number", "minimum": 0, "maximum": 1},
        "margin": {"type": ["integer", "null"]},
        "exact": {"type": "boolean"},
        "visits": {"type": "integer"},
        "pv": _MOVES,
    }
)


@method(
    "analyse",
    "The best 'lines' moves (1 to 20, default 3) of the player to move, each with its "
    "share of the win (as hint's), margin and exact where proven, visits and principal "
    "variation 'pv'; and 'claims', for each square holding a pyramid, the probability "
    "each player collects it. The budget as hint's; 'ply' as hint's; 'progress': true "
    "sends the lines so far as analyse.progress notifications before the answer "
    "(standard input only).",
    required={"state": STATE},
    optional={
        "lines": LINES,
        "progress": BOOL,
        "seconds": SECONDS,
        "iterations": ITERATIONS,
        "seed": SEED,
        "locale": LOCALE,
        "ply": INT,
    },
    result=obj(
        {
            "player": {"type": "integer"},
            "lines": {"type": "array", "minItems": 1, "items": _LINE},
            "claims": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "number"}},
            },
            "playouts": {"type": "integer"},
            "proven": {"type": "boolean"},
        }
    ),
)
def analyse(params: Params) -> Result:
    lines = params.get("lines", 3)
    if not 1 <= lines <= MAX_LINES:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"lines must be 1 to {MAX_LINES}")
    seconds, iterations = search_budget(
        BotSpec.parse("mcts"), params.get("seconds"), params.get("iterations")
    )
    game = at_ply(game_of(params), params.get("ply"))
    if game.gameover:
        raise IllegalMoveError(ErrorCode.GAMEOVER, catalogue(game.locale).say(GAME_OVER))
    notify = NOTIFY.get() if params.get("progress") else None
    # Notifications stop when the answer is given, even if the search runs on.
    answering = threading.Lock()
    open_ = [notify is not None]

    def report(found: tuple[Line, ...]) -> None:
        with answering:
            if not open_[0] or notify is None:
                return
            try:
                notify(PROGRESS, {"lines": [line.to_dict() for line in found]})
            except (OSError, ValueError):  # the client has gone: the answer will say so
                open_[0] = False

    def search() -> Analysis:
        return analyse_position(
            game,
            seconds=seconds,
            iterations=iterations,
            lines=lines,
            seed=params.get("seed"),
            progress=report if notify is not None else None,
        )

    try:
        with SEARCHES.held():
            found = within_budget("analyse", seconds, search)
    finally:
        with answering:
            open_[0] = False
    return found.to_dict()


@method(
    "retry",
    "Judge 'move' tried again for the player to move (at 'ply' as hint's: the position "
    "before a judged move of a review): its 'loss' of the mover's share of the win against "
    "the best move's, as a review measures it, 'found' when under 0.10, the 'best' move and "
    "its 'best_share'. The budget as hint's, shared by the searches it needs.",
    required={"state": STATE, "move": TEXT},
    optional={
        "seconds": SECONDS,
        "iterations": ITERATIONS,
        "seed": SEED,
        "locale": LOCALE,
        "ply": INT,
    },
    result=obj(
        {
            "tried": {"type": "string"},
            "share": {"type": "number", "minimum": 0, "maximum": 1},
            "best": {"type": "string"},
            "best_share": {"type": "number", "minimum": 0, "maximum": 1},
            "loss": {"type": "number", "minimum": 0, "maximum": 1},
            "found": {"type": "boolean"},
        }
    ),
)
def retry(params: Params) -> Result:
    seconds, iterations = search_budget(
        BotSpec.parse("mcts"), params.get("seconds"), params.get("iterations")
    )
    game = at_ply(game_of(params), params.get("ply"))
    if game.gameover:
        raise IllegalMoveError(ErrorCode.GAMEOVER, catalogue(game.locale).say(GAME_OVER))
    try:
        move = Move.parse(params["move"])
    except MoveSyntaxError as exc:
        raise StawvsError(ErrorCode.MALFORMED, exc.message) from None
    # Two searches at most (the position, and the reply to a move it did not weigh).
    each = seconds / 2

    def judged() -> RetryVerdict:
        return retry_move(
            game, move, seconds=each, iterations=iterations, seed=params.get("seed", 0)
        )

    with SEARCHES.held():
        verdict = within_budget("retry", seconds, judged)
    return verdict.to_dict()


#: The analysis methods, in the order the protocol lists them.
METHODS: Final[tuple[Method, ...]] = (analyse, retry)
