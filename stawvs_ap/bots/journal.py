"""An arena run kept on disk as it goes, so that a run that stops keeps what it
played and can be continued (``stawvs-ap arena --records DIR --resume``).

A run directory holds:

- ``arena.jsonl``: its first line names the match (lineup, variants, seed,
  boards); each later line is the result of one finished game, appended as
  the game finishes;
- ``game-000042.json``: the record of game 42, written (whole, then renamed
  into place) before its line, replayable with :func:`stawvs_ap.from_record`
  or ``stawvs-ap replay``.

A run killed in the middle of a line leaves a partial last line: continuing
the run plays that game again and marks the cut line, by appending a newline
and ``{"arena_cut":N}`` (N: the cut line's number), so that nothing written
is ever rewritten or truncated. A header cut short is completed, by
appending, when what was written is the start of this match's own header. A
journal that is a symbolic link, not a regular file, or not recognisably an
arena journal is refused in one line and left as it is. Each game is kept
once. Continuing a run also removes the temporary files (``.stawvs-ap-*.tmp``)
a killed run left in the directory.

>>> import tempfile
>>> from stawvs_ap.bots.arena import BotSpec, Match, play_match
>>> match = Match((BotSpec.parse("greedy"), BotSpec.parse("random")), seed=5)
>>> with tempfile.TemporaryDirectory() as run:
...     with Journal(run, match) as journal:
...         first = play_match(match.lineup, 2, seed=5, keeper=journal)
...     with Journal(run, match, resume=True) as journal:  # plays games 2 and 3 only
...         games = play_match(match.lineup, 4, seed=5, keeper=journal)
...     sorted(journal.played()), [g.scores for g in games[:2]] == [g.scores for g in first]
([0, 1, 2, 3], True)
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, Final

from ..errors import ErrorCode, StawvsError
from .arena import GameResult, Match

__all__ = ["JOURNAL", "MAX_LINE", "Journal", "record_name"]

#: The name of the results file in a run directory.
JOURNAL: Final = "arena.jsonl"
#: The longest line a journal may have (a result line is a few hundred bytes).
MAX_LINE: Final = 1 << 16
_FORMAT = 1
_TEMPORARY_PREFIX: Final = ".stawvs-ap-"
_TEMPORARY_SUFFIX: Final = ".tmp"


def _dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def _cut_mark(number: int) -> bytes:
    """The line that marks line ``number`` as cut short (its game is played again)."""
    return _dumps({"arena_cut": number}).encode("utf-8")


def record_name(index: int) -> str:
    """The file name of game ``index``'s record in a run directory."""
    return f"game-{index:06d}.json"


def _header(match: Match) -> dict[str, Any]:
    return {
        "arena": _FORMAT,
        "lineup": [str(spec) for spec in match.lineup],
        "variants": list(match.variants),
        "seed": match.seed,
        "fresh_boards": match.fresh_boards,
    }


def _line(result: GameResult, record: str | None) -> dict[str, Any]:
    return {
        "game": result.index,
        "seats": list(result.seats),
        "scores": list(result.scores),
        "winners": list(result.winners),
        "plies": result.plies,
        "thinking": [round(t, 6) for t in result.thinking],
        "moves": list(result.moves),
        "seat_scores": list(result.seat_scores),
        "ending": result.ending,
        "reason": result.reason,
        "attempts": result.attempts,
        "record": record,
    }


def _ints(value: Any, length: int, low: int, high: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > length:
        raise ValueError(f"expected a list of at most {length} whole numbers")
    if not all(type(v) is int and low <= v <= high for v in value):
        raise ValueError(f"expected whole numbers from {low} to {high}")
    return tuple(value)


def _result(doc: Any, players: int) -> GameResult:
    """The result a journal line holds; ValueError naming what is wrong otherwise."""
    if not isinstance(doc, dict) or set(doc) != set(_line_keys):
        raise ValueError(f"a result has the keys {', '.join(_line_keys)}")
    thinking = doc["thinking"]
    if not (
        isinstance(thinking, list)
        and len(thinking) == players
        and all(type(t) in (int, float) and 0 <= t < 1e9 for t in thinking)
    ):
        raise ValueError("thinking must be a list of seconds, one per bot")
    if not isinstance(doc["ending"], str) or not isinstance(doc["reason"], str):
        raise ValueError("ending and reason must be text")
    (index,) = _ints([doc["game"]], 1, 0, 10**9)
    if doc["record"] is not None and doc["record"] != record_name(index):
        raise ValueError("record must name the game's record file")
    seats = _ints(doc["seats"], players, 1, players)
    if sorted(seats) != list(range(1, players + 1)):
        raise ValueError("seats must give each bot its own seat")
    (plies,) = _ints([doc["plies"]], 1, 0, 10**4)
    (attempts,) = _ints([doc["attempts"]], 1, 1, 10**4)
    return GameResult(
        index=index,
        seats=seats,
        scores=_ints(doc["scores"], players, 0, 10**4),
        winners=_ints(doc["winners"], players, 0, players - 1),
        plies=plies,
        thinking=tuple(float(t) for t in thinking),
        moves=_ints(doc["moves"], players, 0, 10**4),
        seat_scores=_ints(doc["seat_scores"], players, 0, 10**4),
        ending=doc["ending"],
        reason=doc["reason"],
        attempts=attempts,
    )


_line_keys = list(_line(GameResult(0, (), (), (), 0, (), ()), None))


class Journal:
    """The run directory ``directory`` of ``match`` (see the module's text).

    A directory that already holds a run is refused unless ``resume`` is true;
    then the run must be of the same match (lineup, variants, seed, boards),
    and its games are kept. ``records=False`` keeps the results alone. Bad
    directories and journals raise :class:`StawvsError` (``BAD_ARGUMENT``)
    naming the problem. Use it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        match: Match,
        *,
        resume: bool = False,
        records: bool = True,
    ) -> None:
        self.directory = Path(directory)
        self.records = records
        self._players = len(match.lineup)
        self._played: dict[int, GameResult] = {}
        path = self.directory / JOURNAL
        header = _dumps(_header(match)).encode("utf-8")
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            if path.is_symlink():
                raise self._error(f"holds {JOURNAL} as a symbolic link: it is not opened")
            if path.exists():
                if not resume:
                    raise self._error(
                        "holds a run already: add --resume to continue it, "
                        "or choose another directory"
                    )
                repair = self._read(path, header)
                self._file = self._open_append(path)
                self._file.write(repair.decode("utf-8"))
                self._file.flush()
                self._remove_temporaries()
            else:
                self._file = path.open("x", encoding="utf-8")
                self._append(_header(match))
        except OSError as exc:
            raise self._error(f"cannot be used: {exc.strerror or exc}") from None

    def _error(self, problem: str) -> StawvsError:
        return StawvsError(
            ErrorCode.BAD_ARGUMENT, f"the run directory {str(self.directory)!r} {problem}"
        )

    def _open_append(self, path: Path) -> Any:
        """The journal opened to append, never through a symbolic link."""
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
        return os.fdopen(fd, "a", encoding="utf-8")

    def _lines(self, path: Path) -> list[bytes]:
        """The journal's lines, the last one perhaps without its newline."""
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise self._error(f"holds {JOURNAL} that is not a regular file")
            lines: list[bytes] = []
            while line := file.readline(MAX_LINE + 1):
                if len(line) > MAX_LINE:
                    raise self._error(
                        f"has a line over {MAX_LINE} bytes ({JOURNAL}:{len(lines) + 1})"
                    )
                lines.append(line)
            return lines

    def _read(self, path: Path, header: bytes) -> bytes:
        """Read the run's games; the bytes to append to repair its end (often none)."""
        lines = self._lines(path)
        if not lines:  # created, and stopped before a byte of its header
            return header + b"\n"
        first = lines[0]
        if not first.endswith(b"\n"):
            if header.startswith(first):
                return header[len(first) :] + b"\n"  # the header's write was cut short
            raise self._error(f"holds a {JOURNAL} that is not an arena journal: left as it is")
        self._parsed(first, 1, header)
        number = 1
        while number < len(lines):
            line = lines[number]
            number += 1
            if not line.endswith(b"\n"):  # the last line, cut short: its game is played again
                return b"\n" + _cut_mark(number) + b"\n"
            mark = _cut_mark(number)
            if number < len(lines) and lines[number] == mark + b"\n":
                number += 1  # a line cut short, marked when the run went on
                continue
            if number == len(lines) - 1 and mark.startswith(lines[number]):
                return mark[len(lines[number]) :] + b"\n"  # its mark was cut short
            try:
                doc = json.loads(line)
            except ValueError as exc:
                raise self._error(f"has a damaged line {number} in {JOURNAL}: {exc}") from None
            self._parsed(doc, number, None)
        return b""

    def _parsed(self, doc: Any, number: int, header: bytes | None) -> None:
        """Keep the result of line ``number`` (check the header when it is line 1)."""
        try:
            if header is not None:
                self._check_header(json.loads(doc), json.loads(header))
                return
            result = _result(doc, self._players)
        except StawvsError:
            raise  # another match's run: said as it is (a StawvsError is a ValueError)
        except (ValueError, RecursionError) as exc:
            raise self._error(f"has a damaged line {number} in {JOURNAL}: {exc}") from None
        self._played.setdefault(result.index, result)

    def _remove_temporaries(self) -> None:
        """Remove the temporary files a killed run of this journal left behind."""
        for stale in self.directory.glob(f"{_TEMPORARY_PREFIX}*{_TEMPORARY_SUFFIX}"):
            if stale.is_file() and not stale.is_symlink():
                stale.unlink(missing_ok=True)

    def _check_header(self, doc: Any, header: dict[str, Any]) -> None:
        if not isinstance(doc, dict) or doc.get("arena") != _FORMAT:
            raise ValueError("it is not an arena journal")
        for key, value in header.items():
            if doc.get(key) != value or type(doc.get(key)) is not type(value):
                raise StawvsError(
                    ErrorCode.BAD_ARGUMENT,
                    f"the run in {str(self.directory)!r} is another match: its {key} is "
                    f"{json.dumps(doc.get(key))}, not {json.dumps(value)}",
                )

    def _append(self, doc: dict[str, Any]) -> None:
        self._file.write(_dumps(doc) + "\n")
        self._file.flush()

    def played(self) -> dict[int, GameResult]:
        """The games kept so far, by number."""
        return dict(self._played)

    def keep(self, result: GameResult) -> None:
        """Write ``result`` (and its record, when it has one and records are kept)."""
        if result.index in self._played:
            return
        name = None
        if self.records and result.record is not None:
            name = record_name(result.index)
            self._write_whole(name, json.dumps(result.record, indent=1, ensure_ascii=False) + "\n")
        self._append(_line(result, name))
        self._played[result.index] = result

    def record_path(self, index: int) -> str:
        """The path of game ``index``'s record."""
        return str(self.directory / record_name(index))

    def _write_whole(self, name: str, text: str) -> None:
        fd, temporary = tempfile.mkstemp(
            prefix=_TEMPORARY_PREFIX, suffix=_TEMPORARY_SUFFIX, dir=self.directory
        )
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(temporary, self.directory / name)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
