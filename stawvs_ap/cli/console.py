"""Lines in and out of an interactive command (``stawvs-ap play``), bounded and checked.

:class:`Console` reads lines of at most :data:`MAX_LINE` characters from
standard input, however long the input's lines are (a longer line is
refused and the rest of it skipped, a bounded amount at a time), reads
bytes that are not UTF-8 as replacement characters, and writes through
:func:`~stawvs_ap.cli.safe_io.write_stdout`, so that a closed or full
standard output is a :class:`~stawvs_ap.cli.safe_io.FileError` (one line,
exit status 2) like every other command's. An echo shows at most
:data:`EXCERPT` characters of what was typed (through
:func:`stawvs_ap.i18n.printable`).
"""

from __future__ import annotations

import sys
from typing import BinaryIO, Final, NamedTuple

from .safe_io import FileError, write_stdout

__all__ = ["EXCERPT", "MAX_LINE", "MAX_SKIP", "Console", "Line"]

#: The longest line read, in bytes; a move or a command is a few characters.
MAX_LINE: Final = 1000
#: The most bytes of one over-long line skipped before the input is given up.
MAX_SKIP: Final = 1 << 20
_CHUNK: Final = 1 << 16
#: How much of a typed line an echo or a message shows.
EXCERPT: Final = 60


class Line(NamedTuple):
    """A line read, without its end; ``too_long`` when it was longer than
    :data:`MAX_LINE` bytes and ``text`` is only its start."""

    text: str
    too_long: bool = False


class Console:
    """Standard input and output of an interactive command (or the streams given)."""

    def __init__(self, source: BinaryIO | None = None) -> None:
        if source is None:
            source = getattr(sys.stdin, "buffer", None)
        self._source = source

    def interactive(self) -> bool:
        """Whether a person types the input (a terminal), so that it is not echoed."""
        try:
            return self._source is not None and self._source.isatty()
        except (OSError, ValueError):
            return False

    def read_line(self) -> Line | None:
        """The next line without its end, None at the end of input (or with no
        input at all). A line over :data:`MAX_LINE` bytes comes back cut, marked
        :attr:`Line.too_long`, its rest skipped; over :data:`MAX_SKIP` bytes the
        input is given up with a :class:`FileError`."""
        source = self._source
        if source is None:
            return None
        try:
            data = source.readline(MAX_LINE + 1)
            if not data:
                return None
            too_long = len(data) > MAX_LINE and not data.endswith(b"\n")
            if too_long:
                self._skip_rest(source)
        except FileError:
            raise  # a line too long (a FileError is a ValueError too)
        except ValueError:  # a closed standard input
            return None
        except OSError as exc:
            raise FileError(f"cannot read standard input: {exc.strerror or exc}") from None
        return Line(data[:MAX_LINE].decode("utf-8", errors="replace").rstrip("\r\n"), too_long)

    @staticmethod
    def _skip_rest(source: BinaryIO) -> None:
        skipped = 0
        while skipped <= MAX_SKIP:
            chunk = source.readline(_CHUNK)
            if not chunk or chunk.endswith(b"\n"):
                return
            skipped += len(chunk)
        raise FileError(f"cannot read standard input: a line is longer than {MAX_SKIP:,} bytes")

    def write(self, text: str) -> None:
        """Write ``text`` to standard output at once; a failure is a :class:`FileError`."""
        write_stdout(text)

    def say(self, text: str) -> None:
        """Write ``text`` and a newline."""
        write_stdout(text + "\n")
