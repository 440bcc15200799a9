"""Where a bot is found by its name: the built-in bots, then plug-ins.

Another package adds a bot by naming its class in the entry-point group
``stawvs_ap.bots`` (in its ``pyproject.toml``)::

    [project.entry-points."stawvs_ap.bots"]
    minimax = "stawvs_minimax:MinimaxBot"

and, once installed, ``--bot minimax:depth=3`` works in ``arena``, ``play``
and ``hint``, and everywhere else a bot spec is read: :func:`bot_class` is
the one lookup they all use. The class must be a subclass of
:class:`~stawvs_ap.bots.base.Bot` (docs/bots.md says what it promises). A
plug-in cannot replace a built-in bot: the built-in name wins. The installed
entry points are read once per process (the first time a name is not a
built-in one); :func:`refresh_plugins` reads them again.

>>> bot_class("greedy").__name__
'GreedyBot'
>>> "mcts" in bot_names()
True
"""

from __future__ import annotations

import functools
import re
from importlib.metadata import EntryPoint, entry_points
from typing import Final

from ..errors import ErrorCode, StawvsError, excerpt
from .base import Bot
from .engine import ExecBot
from .mcts import MCTSBot
from .simple import GreedyBot, RandomBot
from .uct import UCTBot

__all__ = [
    "BOTS",
    "ENTRY_POINT_GROUP",
    "bot_class",
    "bot_classes",
    "bot_names",
    "refresh_plugins",
]

#: The entry-point group other packages register bot classes in.
ENTRY_POINT_GROUP: Final = "stawvs_ap.bots"

#: The built-in bots by name: the players of their own. ``exec`` (:class:`ExecBot`,
#: a bridge to an external program) is known beside them.
BOTS: Final[dict[str, type[Bot]]] = {
    bot.name: bot for bot in (RandomBot, GreedyBot, MCTSBot, UCTBot)
}
_BUILT_IN: Final[dict[str, type[Bot]]] = {**BOTS, ExecBot.name: ExecBot}

#: What a plug-in may be called: a name a spec can hold (no ``:``, ``,`` or ``=``).
_NAME: Final = re.compile(r"[a-z][a-z0-9_.-]{0,39}")


@functools.cache
def _plugins() -> dict[str, tuple[EntryPoint, ...]]:
    """The plug-ins installed, by name (a name may be claimed more than once).

    Read once per process: scanning every installed package's metadata takes
    milliseconds, and a service asked for a thousand unknown names in one
    request would scan a thousand times (issue 33)."""
    found: dict[str, tuple[EntryPoint, ...]] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name not in _BUILT_IN and _NAME.fullmatch(point.name):
            found[point.name] = (*found.get(point.name, ()), point)
    return found


def refresh_plugins() -> None:
    """Read the installed plug-ins again (after installing one in a running process)."""
    _plugins.cache_clear()


def bot_names() -> list[str]:
    """Every name a bot spec may start with: the built-in bots, ``exec``, then the
    plug-ins."""
    return [*_BUILT_IN, *sorted(_plugins())]


def bot_classes() -> dict[str, type[Bot]]:
    """The built-in bots and ``exec`` by name (what ``--help`` describes; plug-ins
    are loaded only when asked for)."""
    return dict(_BUILT_IN)


def bot_class(name: str) -> type[Bot]:
    """The bot class called ``name`` (any case); ``BAD_ARGUMENT`` when there is
    none, when two installed packages claim the name, or when the plug-in cannot
    be loaded."""
    name = name.strip().lower()
    if name in _BUILT_IN:
        return _BUILT_IN[name]
    points = _plugins().get(name)
    if not points:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"unknown bot {excerpt(name)} (known: {', '.join(sorted(bot_names()))})",
        )
    if len(points) > 1:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"the bot name {name!r} is claimed by more than one package: "
            + ", ".join(point.value for point in points),
        )
    point = points[0]
    try:
        found = point.load()
    except Exception as exc:  # a broken plug-in is the plug-in's fault, told in one line
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"the bot plug-in {name!r} ({point.value}) cannot be loaded: "
            f"{type(exc).__name__}: {exc}",
        ) from None
    if not (isinstance(found, type) and issubclass(found, Bot)):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"the bot plug-in {name!r} ({point.value}) is not a subclass of stawvs_ap.bots.Bot",
        )
    return found
