"""Naming a bot: the bots by name (:data:`BOTS`) and bot specs (:class:`BotSpec`).

A spec is ``NAME[:KEY=VALUE,...]`` (``mcts:seconds=0.25,temperature=3``): a
bot of :data:`BOTS` and values for the options its class declares
(:attr:`Bot.options <stawvs_ap.bots.base.Bot.options>`). Everything is checked
when the spec is read, so a bad spec is refused with ``BAD_ARGUMENT`` naming
the option and its range before any game starts:

>>> str(BotSpec.parse("MCTS:Seconds=0.5, reuse=false"))
'mcts:seconds=0.5,reuse=false'
>>> BotSpec.parse("mcts:samples=0")
Traceback (most recent call last):
...
stawvs_ap.errors.StawvsError: bot mcts: option samples must be a whole number from 1 to 100, not '0'

:func:`make_bot` turns a spec and a call's budget into a bot and the budget
it will think with, for a service or a command that fills a seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..errors import ErrorCode, StawvsError
from .base import Bot, Budget
from .mcts import MCTSBot
from .options import Option, excerpt
from .simple import GreedyBot, RandomBot
from .uct import UCTBot

__all__ = ["BOTS", "MAX_SPEC_LENGTH", "BotSpec", "make_bot", "options_help", "options_table"]

#: Every bot by the name specs, the arena and the command line use.
BOTS: Final[dict[str, type[Bot]]] = {
    bot.name: bot for bot in (RandomBot, GreedyBot, MCTSBot, UCTBot)
}
#: The longest spec read, in characters (every option of ``mcts`` set takes about 150).
MAX_SPEC_LENGTH: Final = 500

OptionValue = int | float | bool | str


def bot_class(name: str) -> type[Bot]:
    """The bot class called ``name`` (any case); ``BAD_ARGUMENT`` listing the known ones."""
    found = BOTS.get(name.strip().lower())
    if found is None:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"unknown bot {excerpt(name.strip())} (known: {', '.join(sorted(BOTS))})",
        )
    return found


def _declared(bot: type[Bot], key: str) -> Option[Any]:
    name = key.strip().lower().replace("-", "_")
    for option in bot.options:
        if option.name == name:
            return option
    raise StawvsError(
        ErrorCode.BAD_ARGUMENT,
        f"bot {bot.name} takes the options {', '.join(o.name for o in bot.options)}, "
        f"not {excerpt(key.strip())}",
    )


@dataclass(frozen=True)
class BotSpec:
    """A bot and values for its options, each checked against its declaration."""

    name: str
    options: tuple[tuple[str, OptionValue], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """The spec ``text`` denotes, ``NAME[:KEY=VALUE,...]`` (names and keys in any
        case, ``-`` or ``_`` in keys); ``BAD_ARGUMENT`` naming the problem otherwise."""
        if not isinstance(text, str):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "a bot spec is text such as 'mcts'")
        if len(text) > MAX_SPEC_LENGTH:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, f"a bot spec is at most {MAX_SPEC_LENGTH} characters"
            )
        name, _, rest = text.partition(":")
        bot = bot_class(name)
        pairs: list[tuple[str, str]] = []
        for item in filter(None, (part.strip() for part in rest.split(","))):
            key, equals, value = item.partition("=")
            if not equals:
                raise StawvsError(
                    ErrorCode.BAD_ARGUMENT,
                    f"bot {bot.name} takes options as KEY=VALUE, not {excerpt(item)}",
                )
            pairs.append((key, value))
        return cls._checked(bot, pairs, text=True)

    @classmethod
    def of(cls, name: str, options: Mapping[str, object] | None = None) -> BotSpec:
        """The spec of bot ``name`` with ``options`` given as Python values (as a
        JSON request carries them: numbers and booleans), checked as :meth:`parse`
        checks text."""
        if not isinstance(name, str):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "a bot is named by text such as 'mcts'")
        if options is not None and not isinstance(options, Mapping):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "bot options map names to values")
        bot = bot_class(name)
        for key in options or {}:
            if not isinstance(key, str):
                raise StawvsError(ErrorCode.BAD_ARGUMENT, f"bot {bot.name}: option names are text")
        return cls._checked(bot, list((options or {}).items()), text=False)

    @classmethod
    def _checked(
        cls, bot: type[Bot], pairs: Sequence[tuple[str, object]], *, text: bool
    ) -> BotSpec:
        """The spec of ``bot`` with ``pairs`` of option names and values (texts to
        parse, or Python values), each checked against its declaration, none twice."""
        checked: dict[str, OptionValue] = {}
        for key, value in pairs:
            option = _declared(bot, key)
            if option.name in checked:
                raise StawvsError(
                    ErrorCode.BAD_ARGUMENT, f"bot {bot.name}: option {option.name} is given twice"
                )
            try:
                checked[option.name] = option.parse(value) if text else option.check(value)  # type: ignore[arg-type]
            except StawvsError as exc:
                raise StawvsError(exc.code, f"bot {bot.name}: {exc.message}") from None
        return cls(bot.name, tuple(checked.items()))

    @property
    def bot(self) -> type[Bot]:
        """The bot class of this spec."""
        return bot_class(self.name)

    def make(self, seed: int | str | None) -> Bot:
        """A new bot of this spec, seeded."""
        return self.bot(seed=seed, **dict(self.options))  # type: ignore[arg-type]

    def __str__(self) -> str:
        if not self.options:
            return self.name
        shown = (f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in self.options)
        return self.name + ":" + ",".join(shown)


def make_bot(
    spec: str | BotSpec,
    *,
    seed: int | str | None = None,
    seconds: float | None = None,
    iterations: int | None = None,
) -> tuple[Bot, Budget]:
    """A bot of ``spec`` (text or parsed) and the budget it thinks with: ``seconds``
    and ``iterations`` when either is given, else the spec's own, else the bot's
    default. Everything is checked first: ``BAD_ARGUMENT`` naming the problem.

    >>> bot, budget = make_bot("mcts:iterations=300", seed=1)
    >>> budget
    Budget(seconds=None, iterations=300)
    >>> make_bot("greedy", seconds=0.5)[1]
    Budget(seconds=0.5, iterations=None)
    """
    parsed = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)
    bot = parsed.make(seed)
    return bot, bot.budget(seconds, iterations)


def _default(option: Option[Any]) -> str:
    if option.default is None:
        return "none"
    if isinstance(option.default, bool):
        return str(option.default).lower()
    return f"{option.default:g}" if isinstance(option.default, float) else str(option.default)


def options_help() -> str:
    """Every bot's options with their types, ranges and defaults, for ``--help``."""
    lines = ["bot specs: NAME[:KEY=VALUE,...], the options of each bot:"]
    for name, bot in BOTS.items():
        lines.append(f"  {name}:")
        for option in bot.options:
            lines.append(
                f"    {option.name}: {option.describe()}, default {_default(option)}; {option.help}"
            )
    return "\n".join(lines)


def options_table() -> list[str]:
    """Every bot's options as the rows of a Markdown table (the README's)."""
    rows = [
        "| bot | option | type and range | default | what it does |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, bot in BOTS.items():
        for option in bot.options:
            rows.append(
                f"| `{name}` | `{option.name}` | {option.describe()} | {_default(option)} "
                f"| {option.help} |"
            )
    return rows
