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

A bot's own options are the fields of its settings, a frozen dataclass
derived from :class:`Settings` whose every field is a :func:`setting` (or a
:func:`shared_setting`, for an option several bots take): the field's name
and type, and the setting's default, help and range, are the option's one
declaration. :func:`options_of` reads them, and a settings value
is checked when it is made:

>>> @dataclass(frozen=True)
... class Oven(Settings):
...     heat: float = setting(180.0, "degrees", low=50, high=300)
>>> [(o.name, o.kind.__name__, o.default, o.describe()) for o in options_of(Oven)]
[('heat', 'float', 180.0, 'a number from 50 to 300')]
>>> Oven(heat=200)
Oven(heat=200.0)
>>> Oven(heat=900)
Traceback (most recent call last):
...
stawvs_ap.errors.StawvsError: option heat must be a number from 50 to 300, not 900
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import Field, dataclass, field, fields, replace
from typing import Any, ClassVar, Final, Generic, TypeVar, get_type_hints

from ..errors import ErrorCode, StawvsError, excerpt

__all__ = [
    "DEFAULT_MEMORY",
    "ITERATIONS",
    "MAX_ITERATIONS",
    "MAX_SECONDS",
    "MEMORY",
    "SEARCH_SECONDS",
    "SECONDS",
    "Option",
    "Settings",
    "options_of",
    "setting",
    "shared_setting",
    "unknown_option",
    "with_changes",
]

T = TypeVar("T", int, float, bool, str)

#: The longest think any bot is given, in seconds; an iteration budget also
#: stops after this much wall time.
MAX_SECONDS: Final = 600.0
#: The most iterations any bot is given (about eight minutes of MCTSBot early
#: in the collection phase, where an iteration is slowest).
MAX_ITERATIONS: Final = 1_000_000

_TYPE_WORDS: Final = {int: "a whole number", float: "a number", bool: "true or false", str: "text"}


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
            shown = excerpt(value)
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
        if isinstance(value, bool) or not isinstance(value, int if kind is int else int | float):
            raise self._refuse(shown)
        try:
            number: int | float = value if kind is int else float(value)
        except OverflowError:  # a whole number beyond every float
            raise self._refuse(shown) from None
        low, high = self.low, self.high
        if (
            (isinstance(number, float) and not math.isfinite(number))
            or (low is not None and (number < low or (self.above and number == low)))
            or (high is not None and number > high)
        ):
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


SECONDS: Final = Option(
    "seconds", float, None, "thinking time a move", low=0.0, high=MAX_SECONDS, above=True
)
#: The seconds of a search bot, whose default budget is one second.
SEARCH_SECONDS: Final = replace(
    SECONDS, help="thinking time a move (1 when neither seconds nor iterations is given)"
)
#: The megabytes a search may fill unless told otherwise: the bots' trees, the
#: service's solver.
DEFAULT_MEMORY: Final = 200
#: The cap on a search tree, in megabytes (the count is :mod:`stawvs_ap.bots.tree`'s).
MEMORY: Final = Option(
    "memory",
    int,
    DEFAULT_MEMORY,
    "megabytes the search may fill (its tree, and mcts's solver table); then it stops growing",
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


_DECLARED: Final = "stawvs_ap.option"
S = TypeVar("S", bound="Settings")


def setting(
    default: Any,
    help: str = "",
    *,
    low: float | None = None,
    high: float | None = None,
    above: bool = False,
) -> Any:
    """A field of a bot's :class:`Settings`: its default, a line of help and its
    range (as :class:`Option` takes them)."""
    return field(default=default, metadata={_DECLARED: (help, low, high, above)})


def shared_setting(option: Option[Any]) -> Any:
    """A field of a bot's :class:`Settings` for an ``option`` several bots share
    (such as :data:`MEMORY`): the option's own declaration is the field's."""
    return field(default=option.default, metadata={_DECLARED: option})


def options_of(settings: type[Settings]) -> tuple[Option[Any], ...]:
    """The options a settings class declares, one per field, in field order."""
    kinds = get_type_hints(settings)
    return tuple(_option(f, kinds[f.name]) for f in fields(settings))


def _option(declared: Field[Any], kind: type[Any]) -> Option[Any]:
    found = declared.metadata[_DECLARED]
    if isinstance(found, Option):
        if found.name != declared.name:  # a spec would set an option the bot lacks
            raise TypeError(f"the field {declared.name!r} shares the option {found.name!r}")
        return found
    help, low, high, above = found
    return Option(declared.name, kind, declared.default, help, low=low, high=high, above=above)


class Settings:
    """The base of a bot's settings: a frozen dataclass of :func:`setting` (and
    :func:`shared_setting`) fields, each checked by its option when a value is
    made (``BAD_ARGUMENT`` naming the option and its range); a whole number
    given for a ``float`` becomes a float."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def __post_init__(self) -> None:
        for option in options_of(type(self)):
            object.__setattr__(self, option.name, option.check(getattr(self, option.name)))


def unknown_option(bot: str, options: Iterable[Option[Any]], given: object) -> StawvsError:
    """The error (``BAD_ARGUMENT``) for an option ``given`` that ``bot`` does not
    take, naming the ``options`` it does."""
    names = ", ".join(option.name for option in options)
    return StawvsError(
        ErrorCode.BAD_ARGUMENT, f"bot {bot} takes the options {names}, not {excerpt(given)}"
    )


def with_changes(settings: S, changes: dict[str, Any], bot: str) -> S:
    """``settings`` with ``changes`` (option names and values) made, each checked;
    ``BAD_ARGUMENT`` for a name that is not one of ``bot``'s options."""
    options = options_of(type(settings))
    for name in changes:
        if all(option.name != name for option in options):
            raise unknown_option(bot, options, name)
    return replace(settings, **changes) if changes else settings
