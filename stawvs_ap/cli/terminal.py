"""What the terminal game needs of a terminal: lines read with editing, history and
completion, colours when the terminal has them, and the width to wrap to.

At a terminal (standard input and output both one), lines are read with the
standard library's :mod:`readline`: the arrows edit and recall lines, Tab
completes what :meth:`Console.ask` is given to complete. Otherwise lines are
read as every interactive command reads them (:mod:`~stawvs_ap.cli.console`:
bounded, a longer line skipped) and echoed, cut short, so that a transcript
reads as if typed. Colours are ANSI escapes, used when standard output is a
terminal, ``TERM`` is not ``dumb`` and ``NO_COLOR`` is not set
(https://no-color.org), unless asked for or refused outright.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Final, TextIO

from ..i18n import printable
from .console import EXCERPT
from .console import Console as LineConsole

__all__ = ["THINKING_AFTER", "TOO_LONG", "Console", "Palette", "thinking", "wants_colour"]

#: What :meth:`Console.ask` returns for a line too long to read.
TOO_LONG: Final = "\0too long"

#: How long a bot thinks, in seconds, before a terminal is told so: a shorter
#: wait is not noticed, a longer silence reads as a hang.
THINKING_AFTER: Final = 0.3

_RESET: Final = "\x1b[0m"
#: SGR codes: the pyramid colours PI, BL, GR, OR, GH.
_PYRAMID: Final = ("95", "94", "32", "33", "90")
#: SGR codes of each player's cap: bold, reversed, in the player's colour.
_CAP: Final = ("1;7;31", "1;7;36", "1;7;35", "1;7;33")


def wants_colour(stream: TextIO, choice: str, env: Mapping[str, str] | None = None) -> bool:
    """Whether to colour what goes to ``stream``: ``choice`` is ``always``, ``never``
    or ``auto`` (a terminal, ``TERM`` not ``dumb``, ``NO_COLOR`` unset or empty)."""
    env = os.environ if env is None else env
    if choice != "auto":
        return choice == "always"
    return _isatty(stream) and not env.get("NO_COLOR") and env.get("TERM", "") != "dumb"


class Palette:
    """How the board's tokens are dressed: ``on`` False leaves every text plain."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def _sgr(self, codes: str, text: str) -> str:
        return f"\x1b[{codes}m{text}{_RESET}" if self.on else text

    def token(self, token: str, *, marked: bool = False, reachable: bool = False) -> str:
        """A square's token (``BL3@1``): the pyramid in its colour, the cap in its
        owner's; underlined when ``marked`` (the last move), on green when
        ``reachable``."""
        if not self.on:
            return token
        style = ("4;" if marked else "") + ("30;42;" if reachable else "")
        if token == ".":
            return self._sgr(style + "1", token) if style else token
        code, _, player = token.partition("@")
        text = self._sgr(style + _PYRAMID[("PI", "BL", "GR", "OR", "GH").index(code[:2])], code)
        if player:
            text += self._sgr(_CAP[int(player) - 1], "@" + player)
        return text


class Console:
    """The player's side of the game: what is said, and the lines typed.

    Lines come from ``lines`` (standard input, bounded:
    :class:`~stawvs_ap.cli.console.Console`); what is said goes to standard
    output through :func:`~stawvs_ap.cli.safe_io.write_stdout`, so that a
    closed or full output is one error line like every command's."""

    def __init__(self, *, colour: bool, lines: LineConsole | None = None) -> None:
        self.lines = lines or LineConsole()
        self.palette = Palette(colour)
        self.interactive = self.lines.interactive() and _isatty(sys.stdout)
        self._complete: Callable[[str, str], Sequence[str]] = lambda line, word: ()
        if self.interactive:
            self._readline_setup()

    @property
    def width(self) -> int:
        """The terminal's width (80 when not a terminal), to wrap long lines to."""
        return shutil.get_terminal_size((80, 24)).columns if self.interactive else 80

    def say(self, text: str) -> None:
        self.lines.say(text)

    def thinking(self, text: str) -> contextlib.AbstractContextManager[None]:
        """:func:`thinking` on standard output when a person is at the terminal."""
        return thinking(sys.stdout, text) if self.interactive else contextlib.nullcontext()

    def ask(
        self, prompt: str, complete: Callable[[str, str], Sequence[str]] | None = None
    ) -> str | None:
        """The next line typed, stripped; None at the end of input; :data:`TOO_LONG`
        for a line over :data:`~stawvs_ap.cli.console.MAX_LINE` bytes.
        ``complete(line, word)`` lists the completions of ``word``, the last word
        of ``line`` so far."""
        self._complete = complete or (lambda line, word: ())
        if self.interactive:
            try:
                return input(prompt).strip()
            except EOFError:
                self.say("")
                return None
        self.lines.write(prompt)
        line = self.lines.read_line()
        if line is None:
            self.say("")
            return None
        text = line.text.strip()
        self.say(printable(text, EXCERPT))  # typed ahead or piped: shown as if typed (cut short)
        return TOO_LONG if line.too_long else text

    def _readline_setup(self) -> None:
        import readline  # the standard library's; present wherever a terminal is

        readline.set_completer_delims(" \t")
        readline.set_completer(self._readline_complete)
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

    def _readline_complete(self, word: str, state: int) -> str | None:
        import readline

        found = self._complete(readline.get_line_buffer(), word)
        return found[state] if state < len(found) else None


def _isatty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # closed
        return False


@contextlib.contextmanager
def thinking(stream: TextIO, text: str, *, after: float = THINKING_AFTER) -> Iterator[None]:
    """Show ``text`` (such as "mcts is thinking…") on ``stream`` while the block runs,
    if ``stream`` is a terminal and the block lasts more than ``after`` seconds; the
    line is erased when the block ends, so that what follows takes its place. Off a
    terminal (a pipe, a log file) nothing is written."""
    if not _isatty(stream):
        yield
        return
    shown = threading.Event()
    lock = threading.Lock()

    def show() -> None:
        with lock:
            if not stopped:
                stream.write(text)
                stream.flush()
                shown.set()

    stopped = False
    timer = threading.Timer(after, show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            stopped = True
        timer.cancel()
        if shown.is_set():
            stream.write("\r\x1b[K")  # back to the line's start, the line cleared
            stream.flush()
