"""Naming a bot: the bots by name (:data:`BOTS`) and bot specs (:class:`BotSpec`).

A spec is ``NAME[:KEY=VALUE,...]`` (``mcts:seconds=0.25,temperature=3``): a
bot :func:`~stawvs_ap.bots.registry.bot_class` knows (built in, or a plug-in)
and values for the options its class declares
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

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..errors import ErrorCode, StawvsError, excerpt
from .base import Bot, Budget
from .engine import ExecBot, split_command
from .options import Option, unknown_option
from .registry import BOTS, bot_class, bot_classes

__all__ = ["BOTS", "MAX_SPEC_LENGTH", "BotSpec", "make_bot", "options_help", "options_table"]

#: The longest spec read, in characters (every option of ``mcts`` set takes about 150).
MAX_SPEC_LENGTH: Final = 500
#: How many spec texts keep their parsed spec (the most recently read).
SPEC_CACHE_SIZE: Final = 256

OptionValue = int | float | bool | str


def _exec_parts(rest: str) -> tuple[str, str]:
    """An ``exec`` spec's options and command: ``KEY=VALUE,...:COMMAND``, or the
    whole of ``rest`` as the command when what comes before its first ``:`` is
    not a list of options (a command may hold ``:`` and ``=`` too)."""
    head, colon, tail = rest.partition(":")
    items = [item.strip() for item in head.split(",")]
    if colon and all(
        "=" in item and item.partition("=")[0].strip().isidentifier() for item in items
    ):
        return head, tail
    return "", rest


def _declared(bot: type[Bot], key: str) -> Option[Any]:
    name = key.strip().lower().replace("-", "_")
    for option in bot.options:
        if option.name == name:
            return option
    raise unknown_option(bot.name, bot.options, key.strip())


@dataclass(frozen=True)
class BotSpec:
    """A bot and values for its options, each checked against its declaration."""

    name: str
    options: tuple[tuple[str, OptionValue], ...] = ()

    @classmethod
    def parse(cls, text: str, *, allow_exec: bool = False) -> BotSpec:
        """The spec ``text`` denotes, ``NAME[:KEY=VALUE,...]`` (names and keys in any
        case, ``-`` or ``_`` in keys); ``BAD_ARGUMENT`` naming the problem otherwise.

        An external engine is ``exec:COMMAND`` or ``exec:KEY=VALUE,...:COMMAND``
        (``exec:seconds=0.5:node engine.mjs``), read only with ``allow_exec``: it
        runs a program, so a spec that comes from someone else (a request to a
        service) must never be one.

        A spec text read once is not read again: the :data:`SPEC_CACHE_SIZE`
        texts read last keep their spec (a spec is an immutable value)."""
        if not isinstance(text, str):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "a bot spec is text such as 'mcts'")
        if len(text) > MAX_SPEC_LENGTH:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, f"a bot spec is at most {MAX_SPEC_LENGTH} characters"
            )
        return _parse(text, allow_exec)

    @classmethod
    def _read(cls, text: str, allow_exec: bool) -> BotSpec:
        """:meth:`parse` itself, uncached."""
        name, _, rest = text.partition(":")
        bot = bot_class(name)
        pairs: list[tuple[str, str]] = []
        if bot is ExecBot:
            rest, command = _exec_parts(rest)
            pairs.append(("command", command.strip()))
        for item in filter(None, (part.strip() for part in rest.split(","))):
            key, equals, value = item.partition("=")
            if not equals:
                raise StawvsError(
                    ErrorCode.BAD_ARGUMENT,
                    f"bot {bot.name} takes options as KEY=VALUE, not {excerpt(item)}",
                )
            pairs.append((key, value))
        return cls._checked(bot, pairs, text=True, allow_exec=allow_exec)

    @classmethod
    def of(
        cls,
        name: str,
        options: Mapping[str, object] | None = None,
        *,
        allow_exec: bool = False,
    ) -> BotSpec:
        """The spec of bot ``name`` with ``options`` given as Python values (as a
        JSON request carries them: numbers and booleans), checked as :meth:`parse`
        checks text (``exec`` only with ``allow_exec``)."""
        if not isinstance(name, str):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "a bot is named by text such as 'mcts'")
        if options is not None and not isinstance(options, Mapping):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "bot options map names to values")
        bot = bot_class(name)
        for key in options or {}:
            if not isinstance(key, str):
                raise StawvsError(ErrorCode.BAD_ARGUMENT, f"bot {bot.name}: option names are text")
        return cls._checked(bot, list((options or {}).items()), text=False, allow_exec=allow_exec)

    @classmethod
    def _checked(
        cls,
        bot: type[Bot],
        pairs: Sequence[tuple[str, object]],
        *,
        text: bool,
        allow_exec: bool,
    ) -> BotSpec:
        """The spec of ``bot`` with ``pairs`` of option names and values (texts to
        parse, or Python values), each checked against its declaration, none twice."""
        if bot is ExecBot and not allow_exec:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, "exec bots run programs: they are not allowed here"
            )
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
        if bot is ExecBot:
            split_command(str(checked.get("command", "")))  # the program must be there
        return cls(bot.name, tuple(checked.items()))

    @property
    def bot(self) -> type[Bot]:
        """The bot class of this spec."""
        return bot_class(self.name)

    def make(self, seed: int | None) -> Bot:
        """A new bot of this spec, seeded."""
        return self.bot(seed=seed, **dict(self.options))  # type: ignore[arg-type]

    def __str__(self) -> str:
        options = [(k, v) for k, v in self.options if k != "command"]
        shown = (f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options)
        text = self.name + (":" + ",".join(shown) if options else "")
        command = dict(self.options).get("command")
        return text if command is None else f"{text}:{command}"


@functools.lru_cache(maxsize=SPEC_CACHE_SIZE)
def _parse(text: str, allow_exec: bool) -> BotSpec:
    # Specs that fail are not kept: their refusal is cheap (no entry point is
    # read twice, see registry._plugins) and their text is the caller's.
    return BotSpec._read(text, allow_exec)


def make_bot(
    spec: str | BotSpec,
    *,
    seed: int | None = None,
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
    for name, bot in bot_classes().items():
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
    for name, bot in bot_classes().items():
        for option in bot.options:
            rows.append(
                f"| `{name}` | `{option.name}` | {option.describe()} | {_default(option)} "
                f"| {option.help} |"
            )
    return rows
