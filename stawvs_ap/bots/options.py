"""What a bot class declares about each option it takes: :class:`Option`.

A bot class lists its options in its ``options`` class attribute, so that a
spec (``mcts:seconds=0.5,temperature=3``), the constructor and the
documentation all check one declaration: a name, a type, a range, a default
and a line of help. A value of the wrong type or outside the range is a
:class:`~stawvs_ap.errors.StawvsError` with code ``BAD_ARGUMENT`` naming the
option and its range, before any search could trip over it.

>>> TEMPERATURE = Option("temperature", float, 4.0, "how wide", low=0.0, high=100.0, above=True)
>>> TEMPERATURE.parse("2.5")
2.5
>>> TEMPERATURE.check(0)
Traceback (most recent call last):
...
stawvs_ap.errors.StawvsError: option temperature must be a number above 0 and at most 100, not 0

The budgets every bot takes, :data:`SECONDS` and :data:`ITERATIONS`, have the
maxima :data:`MAX_SECONDS` and :data:`MAX_ITERATIONS`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Final, Generic, TypeVar

from ..errors import ErrorCode, StawvsError

__all__ = [
    "ITERATIONS",
    "MAX_ITERATIONS",
    "MAX_SECONDS",
    "MEMORY",
    "SEARCH_SECONDS",
    "SECONDS",
    "Option",
    "excerpt",
]

T = TypeVar("T", int, float, bool, str)

#: The longest think any bot is given, in seconds; an iteration budget also
#: stops after this much wall time.
MAX_SECONDS: Final = 600.0
#: The most iterations any bot is given (about eight minutes of MCTSBot early
#: in the collection phase, where an iteration is slowest).
MAX_ITERATIONS: Final = 1_000_000

_TYPE_WORDS: Final = {int: "a whole number", float: "a number", bool: "true or false", str: "text"}


def excerpt(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to about ``limit`` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _number(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


@dataclass(frozen=True, slots=True)
class Option(Generic[T]):
    """One option of a bot class: ``name``, ``kind`` (``int``, ``float``, ``bool``
    or ``str``), ``default`` (None: not set), a line of ``help``, and the range
    ``low``–``high`` (inclusive; ``above`` excludes ``low``). For text the range
    bounds the length."""

    name: str
    kind: type[T]
    default: T | None
    help: str
    low: float | None = None
    high: float | None = None
    above: bool = False

    def describe(self) -> str:
        """The type and range in words: ``a whole number from 1 to 64``."""
        words = _TYPE_WORDS[self.kind]
        low, high = self.low, self.high
        if self.kind is bool:
            return words
        if self.kind is str:
            return f"text of at most {_number(high)} characters" if high is not None else words
        if low is not None and high is not None:
            if self.above:
                return f"{words} above {_number(low)} and at most {_number(high)}"
            return f"{words} from {_number(low)} to {_number(high)}"
        if low is not None:
            return f"{words} {'above' if self.above else 'of at least'} {_number(low)}"
        if high is not None:
            return f"{words} of at most {_number(high)}"
        return words

    def _refuse(self, shown: str) -> StawvsError:
        return StawvsError(
            ErrorCode.BAD_ARGUMENT, f"option {self.name} must be {self.describe()}, not {shown}"
        )

    def check(self, value: object, shown: str | None = None) -> T:
        """``value`` (a Python value) if it is of this option's type and range, as that
        type (a whole number for a ``float`` option becomes a float); ``BAD_ARGUMENT``
        otherwise, showing ``shown`` (default: the value) as what was given."""
        if shown is None:
            shown = _shown(value)
        kind = self.kind
        if kind is bool:
            if not isinstance(value, bool):
                raise self._refuse(shown)
            return value
        if kind is str:
            if not isinstance(value, str) or not value:
                raise self._refuse(shown)
            if self.high is not None and len(value) > self.high:
                raise self._refuse(f"{len(value):,} characters")
            return value  # type: ignore[return-value]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._refuse(shown)
        if kind is int and not isinstance(value, int):
            raise self._refuse(shown)
        number: int | float = value if kind is int else float(value)
        if isinstance(number, float) and not math.isfinite(number):
            raise self._refuse(shown)
        low, high = self.low, self.high
        if low is not None and (number < low or (self.above and number == low)):
            raise self._refuse(shown)
        if high is not None and number > high:
            raise self._refuse(shown)
        return number  # type: ignore[return-value]

    def parse(self, text: str) -> T:
        """The value ``text`` denotes (as written in a spec), checked as :meth:`check` does."""
        text = text.strip()
        kind = self.kind
        value: object
        if kind is bool:
            lowered = text.lower()
            if lowered not in ("true", "false"):
                raise self._refuse(excerpt(text))
            value = lowered == "true"
        elif kind is str:
            value = text
        else:
            try:
                value = int(text) if kind is int else float(text)
            except ValueError:
                raise self._refuse(excerpt(text)) from None
        return self.check(value, excerpt(text))


def _shown(value: object) -> str:
    """A value as a message shows it: text quoted and cut short, anything else by its repr."""
    if isinstance(value, str):
        return excerpt(value)
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:40] + "…"


SECONDS: Final = Option(
    "seconds", float, None, "thinking time a move", low=0.0, high=MAX_SECONDS, above=True
)
#: The seconds of a search bot, whose default budget is one second.
SEARCH_SECONDS: Final = replace(
    SECONDS, help="thinking time a move (1 when neither seconds nor iterations is given)"
)
#: The cap on a search tree, in megabytes (the count is :mod:`stawvs_ap.bots.tree`'s).
MEMORY: Final = Option(
    "memory",
    int,
    200,
    "megabytes the search tree may fill; then it stops growing",
    low=1,
    high=4096,
)
ITERATIONS: Final = Option(
    "iterations",
    int,
    None,
    "search iterations a move; the same seed and count give the same answers",
    low=1,
    high=MAX_ITERATIONS,
)
