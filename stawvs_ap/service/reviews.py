"""A game review over the service: ``review`` (see :mod:`stawvs_ap.bots.review`).

A review of a whole game takes a bot search per position, longer than a
request should: one request appraises at most as many positions as
:data:`MAX_REVIEW_SECONDS` of search allow, holding one of the service's
search slots (:data:`~stawvs_ap.service.bots.SEARCHES`) meanwhile, so that
the other requests go on. The answer carries the appraisals so far; a client
sends them back with its next request to go on where it stopped (the
playground does so, showing the progress, and stops when its player asks), and
the review of the plies appraised so far. The service keeps nothing between
requests. The same seed and iteration budget give the review that
:func:`stawvs_ap.bots.review.review` gives.
"""

from __future__ import annotations

import math
from typing import Final

from ..bots.appraise import Appraised
from ..bots.review import MAX_REVIEW_PLIES, continue_review
from ..bots.review import game_of as replayed
from ..bots.spec import BotSpec
from ..errors import ErrorCode, StawvsError
from ..pictures.evalgraph import evaluation_svg
from .bots import (
    ITERATIONS,
    SEARCHES,
    SECONDS,
    checked_budget,
)
from .protocol import (
    INT,
    LOCALE,
    NAMES,
    OBJECT,
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

__all__ = ["DEFAULT_REVIEW_SECONDS", "MAX_REVIEW_SECONDS", "METHODS", "review_budget"]

#: The most seconds of search one ``review`` request runs.
MAX_REVIEW_SECONDS: Final = 10.0
#: The seconds a position gets when neither the call nor the spec gives a budget.
DEFAULT_REVIEW_SECONDS: Final = 0.25

APPRAISALS: Final = Kind(
    lambda v: isinstance(v, list) and len(v) <= MAX_REVIEW_PLIES + 1,
    f"a list of at most {MAX_REVIEW_PLIES + 1} appraisals, as an earlier review answered",
    {"type": "array", "maxItems": MAX_REVIEW_PLIES + 1, "items": {"type": "object"}},
    "Sequence[Mapping[str, Any]]",
)
COUNT: Final = Kind(INT.test, INT.what, {"type": "integer", "minimum": 1}, "int")


def review_budget(
    spec: BotSpec, seconds: float | None, iterations: int | None, count: int
) -> tuple[int, float, int | None]:
    """How many of ``count`` positions one request appraises, and the ``(seconds,
    iterations)`` of each search: the call's budget, else the spec's, else
    :data:`DEFAULT_REVIEW_SECONDS`, the positions and the seconds cut so that
    the request searches at most :data:`MAX_REVIEW_SECONDS`.

    >>> review_budget(BotSpec.parse("mcts"), 0.5, None, 60)
    (20, 0.5, None)
    >>> review_budget(BotSpec.parse("mcts:iterations=500"), None, None, 4)
    (4, 2.5, 500)
    """
    seconds, iterations = checked_budget(
        spec, seconds, iterations, DEFAULT_REVIEW_SECONDS, "a review's search takes", " a position"
    )
    if count < 1:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, "count is at least 1 position")
    if seconds is not None:
        count = min(count, max(1, math.floor(MAX_REVIEW_SECONDS / seconds)))
        return count, float(seconds), iterations
    return count, MAX_REVIEW_SECONDS / count, iterations


@method(
    "review",
    "A game review (docs/CONTRACT.md, 'Game reviews') of the game 'state' or 'record' "
    "(one of them) by bot 'bot' (default 'mcts'), a few positions a request: the next "
    "'count' positions (default: all) after those 'appraised' (the list an earlier answer "
    "gave, sent back as it was), cut to at most 10 seconds of search a request. A "
    "position's search gets 'seconds' (at most 5) and/or 'iterations' (1 to 20,000), else "
    "the spec's own, else 0.25 seconds; 'seed' (default 1) makes it repeatable. 'graph' is "
    "the evaluation graph of the plies so far (SVG), its words in 'locale', players named "
    "'names'. A record of a game in progress is reviewed up to its last move; one without "
    "a starting board (Abstract Play's) takes it from the state 'initial'.",
    optional={
        "state": STATE,
        "record": OBJECT,
        "bot": TEXT,
        "seconds": SECONDS,
        "iterations": ITERATIONS,
        "seed": SEED,
        "count": COUNT,
        "appraised": APPRAISALS,
        "names": NAMES,
        "locale": LOCALE,
        "initial": STATE,
    },
    one_of=("state", "record"),
    result=obj(
        {
            "review": {"$ref": "urn:stawvs-ap:schema:review"},
            "graph": {"type": "string"},
            "appraised": {"type": "array", "items": {"type": "object"}},
            "done": {"type": "integer", "minimum": 0},
            "total": {"type": "integer", "minimum": 1},
        }
    ),
)
def review(params: Params) -> Result:
    spec = BotSpec.parse(params.get("bot", "mcts"))
    count, seconds, iterations = review_budget(
        spec,
        params.get("seconds"),
        params.get("iterations"),
        params.get("count", MAX_REVIEW_PLIES + 1),
    )
    appraised = [Appraised.from_dict(a) for a in params.get("appraised", [])]
    if "state" in params:
        if "initial" in params:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "'initial' goes with a record, not a state")
        game = game_of(params)
    else:
        game = replayed(params["record"], params.get("initial"))
    with SEARCHES.held():
        found, answers, total = continue_review(
            game,
            appraised,
            count=count,
            bot=spec,
            seconds_per_move=seconds,
            iterations_per_move=iterations,
            seed=params.get("seed", 1),
        )
    return {
        "review": found.to_dict(),
        "graph": evaluation_svg(
            found.start, found.plies, names=params.get("names"), locale=params.get("locale")
        ),
        "appraised": [a.to_dict() for a in answers],
        "done": len(answers),
        "total": total,
    }


#: The review's methods, in the order the protocol lists them.
METHODS: Final[tuple[Method, ...]] = (review,)
