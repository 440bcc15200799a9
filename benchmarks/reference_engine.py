#!/usr/bin/env python
"""Time validated replay beside the Abstract Play engine, built from a gameslib checkout.

Usage::

    python benchmarks/reference_engine.py --gameslib PATH                 # about 2 minutes
    python benchmarks/reference_engine.py --gameslib PATH --quick         # about 15 s
    python benchmarks/reference_engine.py --gameslib PATH --build-dir DIR --no-moves

PATH is a checkout of github.com/AbstractPlay/gameslib that you cloned
yourself: this project never downloads it and keeps none of its code. The
script builds that checkout's Stawvs (``src/games/stawvs.ts``) into one
CommonJS bundle in the build directory (by default ``stawvs-ap-reference``
under the system's temporary directory): it npm-installs the checkout's
runtime dependencies at the versions its lock file names, leaving out the two
``@abstractplay`` packages (published on GitHub, not npm; Stawvs imports only
their types, which the bundler drops), and esbuild, then bundles. The install
runs again only when that list changes. Node 20 and npm must be on the path.

Then both engines replay the 27 reference games of
``fixtures/reference/games.jsonl.gz`` once, untimed, and must end every game
in the same final state (the serialized state, every stack entry, apart from
timestamps) with the same scores; they must also give the same set of moves()
on the 216 positions of ``benchmarks/bench_positions.jsonl.gz`` (the order of
moves other than placements is not part of the contract: the script counts
the positions where it differs). A difference is printed after the figures
and makes the exit status 1.

The reference engine runs twice, in two Node processes that stay warm for
every round: with i18next holding the checkout's English messages, as the
Abstract Play host sets it up, and with i18next left alone, so that each
message it words is only its key (a harness that loads the engine and
nothing else measures that one). The difference is the price of wording a
message in every ``validateMove``.

Timing alternates between the engines, round after round, the order reversed
every other round (this machine is shared and noisy), after one warm-up round
each that is not counted. One round of validated replay takes, for each game,
the best of 5 replays (2 with ``--quick``): load the game's initial state,
then ``move()`` each ply, which validates the move before playing it (``new
StawvsGame(state)`` and ``game.move(m)`` in theirs; :func:`run._replay` in
ours, in this process, with the garbage collector off as :mod:`timeit` has
it; Node's cannot be turned off). A round's figure is the mean µs per game;
the table gives the best and the median round of each engine, and two ratios
of its time over ours: of the best rounds, and the median of the ratios of
each round to ours of the same turn (which cancels the machine's slow and
fast minutes). The moves() row times ``moves()`` on each benchmark position
the same way (best of 3 runs of 20 calls), against the first reference
process only: moves() words no message.
Only the standard library is used on this side.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import timeit
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from run import BENCH_POSITIONS, REFERENCE_GAMES, _load_jsonl, _replay  # noqa: E402

from stawvs_ap import StawvsGame  # noqa: E402

NODE_SIDE = ROOT / "benchmarks" / "reference_engine.mjs"
#: Published on GitHub Packages, not npm; Stawvs needs only their types.
UNREACHABLE_SCOPE = "@abstractplay/"
OURS = "stawvs_ap"
#: What the build and the Node side read from the checkout.
CHECKOUT_FILES = ("src/games/stawvs.ts", "package.json", "locales/en/apgames.json")
#: The bundler, when the checkout's lock file does not name a version of it.
ESBUILD_VERSION = "0.25.4"


class BenchError(Exception):
    """A step that cannot go on, with what to do about it."""


def _run(command: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip()[-2000:]
        raise BenchError(f"{' '.join(command[:2])} failed in {cwd}:\n{tail}")


def dependencies(gameslib: Path) -> dict[str, str]:
    """The checkout's runtime dependencies that npm can install, pinned to its lock file."""
    manifest = json.loads((gameslib / "package.json").read_text(encoding="utf-8"))
    lock_path = gameslib / "package-lock.json"
    locked: dict[str, Any] = {}
    if lock_path.is_file():
        locked = json.loads(lock_path.read_text(encoding="utf-8")).get("packages", {})

    def version(name: str, wanted: str) -> str:
        return str(locked.get(f"node_modules/{name}", {}).get("version", wanted))

    wanted = {
        name: version(name, str(spec))
        for name, spec in manifest.get("dependencies", {}).items()
        if not name.startswith(UNREACHABLE_SCOPE)
    }
    wanted["esbuild"] = version("esbuild", ESBUILD_VERSION)
    return wanted


def build(gameslib: Path, build_dir: Path) -> Path:
    """Install what the bundle needs and bundle the checkout's Stawvs; the bundle's path."""
    build_dir.mkdir(parents=True, exist_ok=True)
    manifest = json.dumps(
        {"name": "stawvs-ap-reference", "private": True, "dependencies": dependencies(gameslib)},
        indent=2,
    )
    manifest_path = build_dir / "package.json"
    installed = build_dir / "node_modules" / ".package-lock.json"
    if not installed.is_file() or manifest_path.read_text(encoding="utf-8") != manifest:
        manifest_path.write_text(manifest, encoding="utf-8")
        print(f"npm install in {build_dir} ...", flush=True)
        _run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], build_dir)
    source = gameslib.resolve() / "src"
    exports = [f"export {{ StawvsGame }} from {json.dumps(str(source / 'games' / 'stawvs'))};"]
    if (source / "i18n-node.ts").is_file():
        exports.append(f"export {{ addResource }} from {json.dumps(str(source / 'i18n-node'))};")
    (build_dir / "entry.ts").write_text("\n".join(exports) + "\n", encoding="utf-8")
    bundle = build_dir / "stawvs.cjs"
    esbuild = build_dir / "node_modules" / ".bin" / "esbuild"
    # NODE_PATH: the checkout's imports resolve in the build directory's node_modules.
    env = {**os.environ, "NODE_PATH": str(build_dir / "node_modules")}
    _run(
        [
            *(str(esbuild), "entry.ts", "--bundle", "--platform=node", "--format=cjs"),
            *("--target=node20", f"--external:{UNREACHABLE_SCOPE}*", f"--outfile={bundle}"),
            "--log-level=error",
        ],
        build_dir,
        env,
    )
    return bundle


class ReferenceEngine:
    """The Node process that answers for the Abstract Play engine, one JSON line each way."""

    def __init__(self, bundle: Path, gameslib: Path, log: Path, *, english: bool) -> None:
        self._log = log.open("w", encoding="utf-8")
        self._process = subprocess.Popen(
            [
                *("node", str(NODE_SIDE), str(bundle), str(gameslib / "locales" / "en")),
                *(str(REFERENCE_GAMES), str(BENCH_POSITIONS), "english" if english else "keys"),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
        )
        ready = self._read()
        self.version = str(ready["version"])
        #: Whether i18next holds the English messages, as on the Abstract Play host
        #: (a checkout without src/i18n-node.ts leaves them as keys).
        self.english = bool(ready["english"])
        self.label = "Abstract Play, " + (
            "English messages" if self.english else "messages as keys"
        )

    def _read(self) -> dict[str, Any]:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            self._log.flush()
            tail = Path(self._log.name).read_text(encoding="utf-8")[-2000:]
            raise BenchError(f"the Node side stopped:\n{tail}")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise BenchError(f"the reference engine failed:\n{answer['error']}")
        return answer

    def ask(self, op: str, **fields: int) -> dict[str, Any]:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps({"op": op, **fields}) + "\n")
        self._process.stdin.flush()
        return self._read()

    def timings(self, op: str, **fields: int) -> list[float]:
        """µs per input of one timed request ("replay" or "moves")."""
        return [float(us) for us in self.ask(op, **fields)["us"]]

    def close(self) -> None:
        """End of input ends the Node side; one that does not end in 30 s is killed."""
        try:
            if self._process.stdin is not None:
                self._process.stdin.close()
            self._process.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            self._process.kill()
            self._process.wait()
        self._log.close()


def _comparable(state_text: str) -> dict[str, Any]:
    """A serialized state without its timestamps (each engine stamps its own time)."""
    state: dict[str, Any] = json.loads(state_text)
    for entry in state["stack"]:
        entry.pop("_timestamp", None)
    return state


def disagreements(
    reference: list[dict[str, Any]], games: list[StawvsGame], theirs: ReferenceEngine
) -> tuple[list[str], int]:
    """Where the engines part (final states and scores of the games, the moves() of the
    positions as sets), and at how many positions moves() lists them in another order
    (the contract fixes the order of placements only)."""
    found = []
    for game, final in zip(reference, theirs.ask("finals")["finals"], strict=True):
        ours = _replay(game)
        scores = [ours.get_player_score(p) for p in range(1, ours.numplayers + 1)]
        if _comparable(ours.serialize()) != _comparable(final["state"]):
            found.append(f"game {game['id']}: the final states differ")
        if scores != final["scores"]:
            found.append(f"game {game['id']}: scores {scores} here, {final['scores']} there")
    reordered = 0
    for n, (g, moves) in enumerate(zip(games, theirs.ask("moves_lists")["moves"], strict=True)):
        if sorted(g.moves()) != sorted(moves):
            found.append(f"position {n}: moves() differ")
        elif g.moves() != moves:
            reordered += 1
    return found, reordered


@dataclass(frozen=True)
class Row:
    """One operation's rounds: the mean µs per input of each round, for each engine."""

    operation: str
    rounds: dict[str, list[float]]


def our_replays(reference: list[dict[str, Any]], repeat: int) -> list[float]:
    """µs per game: the best of ``repeat`` validated replays of each game."""
    return [
        min(timeit.repeat(partial(_replay, g), number=1, repeat=repeat)) * 1e6 for g in reference
    ]


def our_moves(games: list[StawvsGame], number: int, repeat: int) -> list[float]:
    """µs per call of each position's moves(): the best of ``repeat`` runs of ``number``."""
    return [min(timeit.repeat(g.moves, number=number, repeat=repeat)) / number * 1e6 for g in games]


def alternate(operation: str, rounds: int, sides: Mapping[str, Callable[[], list[float]]]) -> Row:
    """Run each engine's round in turn, the order reversed every other round, after a
    warm-up round each that is not kept."""
    figures: dict[str, list[float]] = {label: [] for label in sides}
    for n in range(rounds + 1):
        for label in list(sides) if n % 2 else list(sides)[::-1]:
            mean = statistics.fmean(sides[label]())
            if n:
                figures[label].append(mean)
    return Row(operation, figures)


def print_table(rows: list[Row]) -> None:
    """One line per operation and engine, with two ratios of its time over ours: of the
    best rounds, and the median of the rounds' ratios (each round beside ours of the
    same turn, which cancels the machine's slower and faster minutes)."""
    header = ("operation", "engine", "best µs", "median µs", "ratio of bests", "median ratio")
    lines = [header]
    for row in rows:
        ours = row.rounds[OURS]
        for label, figures in row.rounds.items():
            ratios = ("", "")
            if label != OURS:
                by_round = [t / o for t, o in zip(figures, ours, strict=True)]
                ratios = (f"{min(figures) / min(ours):.2f}×", f"{statistics.median(by_round):.2f}×")
            best, median = f"{min(figures):,.1f}", f"{statistics.median(figures):,.1f}"
            lines.append((row.operation, label, best, median, *ratios))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for n, line in enumerate(lines):
        print("| " + " | ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) + " |")
        if n == 0:
            print("| " + " | ".join("-" * w for w in widths) + " |")


def _describe(gameslib: Path, version: str) -> str:
    commit = subprocess.run(
        ["git", "-C", str(gameslib), "log", "-1", "--format=%h of %cs"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=False)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (
        f"{platform.python_implementation()} {platform.python_version()}, Node "
        f"{node.stdout.strip()}, on {platform.system()} {platform.machine()} with "
        f"{os.cpu_count()} cores (load average {load}); gameslib {commit or 'checkout'}, "
        f"Stawvs version {version}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--gameslib",
        type=Path,
        required=True,
        metavar="PATH",
        help="a checkout of AbstractPlay/gameslib",
    )
    parser.add_argument(
        "--build-dir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "stawvs-ap-reference",
        metavar="DIR",
        help="where the bundle and its node_modules go (default: %(default)s)",
    )
    parser.add_argument("--quick", action="store_true", help="3 rounds, fewer repeats")
    parser.add_argument("--rounds", type=int, help="counted rounds per engine (default 9)")
    parser.add_argument("--no-moves", action="store_true", help="time the replay only")
    args = parser.parse_args(argv)
    gameslib: Path = args.gameslib
    for needed in CHECKOUT_FILES:
        if not (gameslib / needed).is_file():
            parser.error(f"{gameslib} is not a gameslib checkout (no {needed})")
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            parser.error(f"{tool} is not on the path (Node 20 and npm are needed)")
    args.rounds = args.rounds or (3 if args.quick else 9)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")

    reference = _load_jsonl(REFERENCE_GAMES)
    games = [StawvsGame(p["state"]) for p in _load_jsonl(BENCH_POSITIONS)]
    engines: list[ReferenceEngine] = []
    try:
        bundle = build(gameslib, args.build_dir)
        for english in (True, False):
            log = args.build_dir / f"node-{'english' if english else 'keys'}.log"
            engines.append(ReferenceEngine(bundle, gameslib, log, english=english))
            if not engines[0].english:
                break  # the checkout words no messages: one engine is enough
        print(_describe(gameslib, engines[0].version))
        return measure(reference, games, engines, args.quick, args.rounds, args.no_moves)
    except BenchError as error:
        print(error, file=sys.stderr)
        return 1
    finally:
        for engine in engines:
            engine.close()


def measure(
    reference: list[dict[str, Any]],
    games: list[StawvsGame],
    engines: list[ReferenceEngine],
    quick: bool,
    rounds: int,
    no_moves: bool,
) -> int:
    """Check that the engines agree, time them, print the table; 1 if they part."""
    replay_repeat, moves_number, moves_repeat = (2, 5, 2) if quick else (5, 20, 3)
    parted: list[str] = []
    for engine in engines:
        found, reordered = disagreements(reference, games, engine)
        parted.extend(f"{engine.label}: {line}" for line in found)
    verdict = (
        f"the engines part in {len(parted)} places (listed after the table)"
        if parted
        else "the engines agree on every final state, score and set of moves()"
    )
    print(f"{len(reference)} reference games, {len(games)} benchmark positions: {verdict}")
    print(f"moves() lists the same moves in another order at {reordered} positions")
    replays: dict[str, Callable[[], list[float]]] = {
        OURS: partial(our_replays, reference, replay_repeat)
    }
    for engine in engines:
        replays[engine.label] = partial(engine.timings, "replay", repeat=replay_repeat)
    rows = [alternate("validated replay, µs per game", rounds, replays)]
    if not no_moves:
        # moves() words no message: the first engine stands for both.
        moves = {
            OURS: partial(our_moves, games, moves_number, moves_repeat),
            engines[0].label: partial(
                engines[0].timings, "moves", number=moves_number, repeat=moves_repeat
            ),
        }
        rows.append(alternate("moves(), µs per position", rounds, moves))
    print(f"{rounds} rounds each, alternating; ratios: that engine's time over ours")
    print_table(rows)
    for line in parted:
        print(f"DIFFERENT: {line}")
    return 1 if parted else 0


if __name__ == "__main__":
    sys.exit(main())
