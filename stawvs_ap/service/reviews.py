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
from ..bots.spec import BotSpec
from ..errors import ErrorCode, StawvsError
from .bots import MAX_SEARCH_ITERATIONS, MAX_SEARCH_SECONDS, SEARCHES, SECONDS
from .methods import INT, OBJECT, SEED, STATE, TEXT, Kind, Params, Result, _game, _method

__all__ = ["DEFAULT_REVIEW_SECONDS", "MAX_REVIEW_SECONDS", "review_budget"]

#: The most seconds of search one ``review`` request runs.
MAX_REVIEW_SECONDS: Final = 10.0
#: The seconds a position gets when neither the call nor the spec gives a budget.
DEFAULT_REVIEW_SECONDS: Final = 0.25

APPRAISALS: Final = Kind(
    lambda v: isinstance(v, list) and len(v) <= MAX_REVIEW_PLIES + 1,
    f"a list of at most {MAX_REVIEW_PLIES + 1} appraisals, as an earlier review answered",
)


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
    if seconds is None and iterations is None:
        options = dict(spec.options)
        seconds, iterations = options.get("seconds"), options.get("iterations")  # type: ignore[assignment]
        if seconds is None and iterations is None:
            seconds = DEFAULT_REVIEW_SECONDS
    if seconds is not None and not 0 < seconds <= MAX_SEARCH_SECONDS:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"a review's search takes at most {MAX_SEARCH_SECONDS:g} seconds a position",
        )
    if iterations is not None and not 1 <= iterations <= MAX_SEARCH_ITERATIONS:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"a review's search takes 1 to {MAX_SEARCH_ITERATIONS} iterations a position",
        )
    if count < 1:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, "count is at least 1 position")
    if seconds is not None:
        count = min(count, max(1, math.floor(MAX_REVIEW_SECONDS / seconds)))
        return count, float(seconds), iterations
    return count, MAX_REVIEW_SECONDS / count, iterations


@_method(
    "review",
    {},
    {
        "state": STATE,
        "record": OBJECT,
        "bot": TEXT,
        "seconds": SECONDS,
        "iterations": INT,
        "seed": SEED,
        "count": INT,
        "appraised": APPRAISALS,
    },
)
def _review(params: Params) -> Result:
    if ("state" in params) == ("record" in params):
        raise StawvsError(ErrorCode.BAD_ARGUMENT, "review takes a state or a record, not both")
    spec = BotSpec.parse(params.get("bot", "mcts"))
    count, seconds, iterations = review_budget(
        spec,
        params.get("seconds"),
        params.get("iterations"),
        params.get("count", MAX_REVIEW_PLIES + 1),
    )
    appraised = [Appraised.from_dict(a) for a in params.get("appraised", [])]
    game = _game(params) if "state" in params else params["record"]
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
        "appraised": [a.to_dict() for a in answers],
        "done": len(answers),
        "total": total,
    }

