#!/usr/bin/env python
"""Plant realistic bugs one at a time and check that the default test run catches each.

Usage (from the top of a checkout, with the dev extra installed)::

    python benchmarks/mutants.py              # every mutant (half an hour to an hour)
    python benchmarks/mutants.py --list       # what it plants
    python benchmarks/mutants.py hole scoring # only these mutants
    python benchmarks/mutants.py --no-baseline --pytest-args="-x -q -n 2 tests/test_rules.py"

The checkout's files (those git tracks, and new ones it does not ignore) are
copied to a scratch folder; each mutant changes one snippet of one file there,
the default test run (``python -m pytest -x -q -n 2``) runs in that copy with
``PYTHONPATH`` pointing at it (so that tests which start ``stawvs-ap`` in a
subprocess run the mutant too), and the file is put back. A mutant is *caught*
when the run fails at a test that passes without it: the first failing test is
run again on the unchanged copy, and when it fails there too (a timing test on
a loaded machine, say) it is left out and the mutant's run repeated. First the
copy is run unchanged once (``--no-baseline`` skips it), the same way: a suite
that fails anyway would make every mutant look caught.

Each mutant names the snippet it replaces, which must occur exactly once in
its file: when the code changes under it, the script stops and says so rather
than planting nothing. A run that takes three times as long as the baseline
(a mutant can make a loop endless) is stopped and counts as caught. Exit
status: 0 when every mutant was caught, 1 when one survived, 2 for a stale
mutant or a failing baseline. This is no test module:
pytest collects ``tests/`` only.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RUN = "-x -q -n 2 -p no:cacheprovider"


@dataclass(frozen=True)
class Mutant:
    """One planted bug: in ``path``, ``old`` (exactly once) becomes ``new``."""

    name: str
    area: str
    what: str
    path: str
    old: str
    new: str


MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "walk-through-obstacles",
        "the generator",
        "the one walk goes on past a square that is not passable instead of stopping",
        "stawvs_ap/core/squares.py",
        "            if not passable >> sq & 1:\n                break\n",
        "            if not passable >> sq & 1:\n                continue\n",
    ),
    Mutant(
        "claims-forget-the-vacated-square",
        "the generator",
        "Position.claims forgets that the square the cap left may be claimed",
        "stawvs_ap/core/position.py",
        "        return walk(dest, self.free | 1 << source)",
        "        return walk(dest, self.free)",
    ),
    Mutant(
        "move-strings-forget-the-vacated-square",
        "the generator (the move strings' own walk)",
        "legal_move_strings, which walks claims itself, forgets the vacated square",
        "stawvs_ap/core/position.py",
        "                claimable = free | 1 << source\n",
        "                claimable = free\n",
    ),
    Mutant(
        "judge-lets-a-cap-land-on-a-cap",
        "the judge",
        "Position.problem checks the squares before the landing square but not that one",
        "stawvs_ap/core/position.py",
        "        if not path or path & ~free:",
        "        if not path or path & ~free & ~(1 << dest):",
    ),
    Mutant(
        "hole-off-by-one",
        "hole",
        "the hole variant's centre gaps are d5 e5 d4 e3 (a typo for e4)",
        "stawvs_ap/core/variants.py",
        '("d5", "e5", "d4", "e4")',
        '("d5", "e5", "d4", "e3")',
    ),
    Mutant(
        "unknown-variant-quoted-whole",
        "the one quoting rule",
        "an unknown variant is quoted whole by its repr instead of cut short",
        "stawvs_ap/core/variants.py",
        'f"unknown variant {excerpt(variant)} (known: {known})"',
        'f"unknown variant {variant!r} (known: {known})"',
    ),
    Mutant(
        "review-names-uncut",
        "review's table",
        "the commands draw a record's names whole (review: on every row and mark)",
        "stawvs_ap/cli/botargs.py",
        '        names = [printable(p["name"], limit=NAME_SHOWN) '
        'for p in record["header"]["players"]]\n',
        '        names = [printable(p["name"]) for p in record["header"]["players"]]\n',
    ),
    Mutant(
        "cluster-takes-other-transports",
        "--cluster",
        "a cluster's address may be inproc:// or tls://, left to Dask",
        "stawvs_ap/bots/cluster.py",
        '        scheme != "tcp"\n',
        '        scheme not in ("tcp", "inproc", "tls")\n',
    ),
    Mutant(
        "a-bool-is-an-action",
        "the research adapters",
        "True and False are taken as the actions 1 and 0",
        "stawvs_ap/encoding.py",
        "    if isinstance(value, bool | np.bool_):\n        return None\n",
        "",
    ),
    Mutant(
        "random-ignores-the-seed",
        "random",
        "the random variant draws its gaps from the global generator, not the game's seed",
        "stawvs_ap/core/variants.py",
        "[SQUARES[sq] for sq in rng.sample(range(64), 4)]",
        "[SQUARES[sq] for sq in random.sample(range(64), 4)]",
    ),
    Mutant(
        "hey-claims-anything",
        "hey",
        "with hey the judge accepts any claim in line, not only the square left",
        "stawvs_ap/core/position.py",
        "            return None if target == source else ErrorCode.BAD_CLAIM_HEY",
        "            return None if target == source else None",
    ),
    Mutant(
        "pieces-2-misspelt",
        "pieces-2",
        'the rules look for "pieces2", so pieces-2 games get three caps each',
        "stawvs_ap/core/variants.py",
        'caps_per_player=2 if "pieces-2" in variants else 3',
        'caps_per_player=2 if "pieces2" in variants else 3',
    ),
    Mutant(
        "finalfree-inverted",
        "finalfree",
        "the final captures happen with finalfree and not without it",
        "stawvs_ap/core/position.py",
        "        if not self.rules.finalfree:\n            after, captures",
        "        if self.rules.finalfree:\n            after, captures",
    ),
    Mutant(
        "scoring-forgets-larges",
        "scoring",
        "a tree is counted as a small and a medium: the large is forgotten",
        "stawvs_ap/core/scoring.py",
        "trees = min(sum(counts[0::3]), sum(counts[1::3]), sum(counts[2::3]))",
        "trees = min(sum(counts[0::3]), sum(counts[1::3]))",
    ),
    Mutant(
        "final-captures-backwards",
        "the final captures",
        "the caps' pyramids are collected from h1 back to a8, not in reading order",
        "stawvs_ap/core/position.py",
        "        for sq in iter_squares(self.capped):\n            pyramid = board[sq]",
        "        for sq in reversed(iter_squares(self.capped)):\n            pyramid = board[sq]",
    ),
    Mutant(
        "passed-players-refused-their-pass",
        "elimination",
        "must_pass forgets players who have passed: one whose cap could move may not pass",
        "stawvs_ap/core/position.py",
        "and (self.currplayer in self.eliminated or not self.can_move(self.currplayer))",
        "and (not self.can_move(self.currplayer))",
    ),
    Mutant(
        "fast-path-plays-without-the-acceptor",
        "the fast loading path",
        "the fast path plays each lastmove without asking the acceptor whether it is legal",
        "stawvs_ap/state/reader.py",
        "            entries.append(following_entry(index, entries[-1], hint[2], hint[1]))",
        "            entries.append(entries[-1].after("
        "__import__('stawvs_ap.core.moves').core.moves.Move.parse(hint[2]), hint[1]))",
    ),
    Mutant(
        "full-checks-compare-the-board-only",
        "the full loading path",
        "the full checks compare each entry's board and caps but not the rest of its position",
        "stawvs_ap/state/checks.py",
        "    if position != entry.position:",
        "    if position[1:3] != entry.position[1:3]:",
    ),
    Mutant(
        "record-rank-unchecked",
        "the record header checks",
        "a record's ranks are not compared with the replay's",
        "stawvs_ap/records/replay.py",
        '{"score": scores[seat], "result": int(seat + 1 in winners), "rank": places[seat]}',
        '{"score": scores[seat], "result": int(seat + 1 in winners)}',
    ),
    Mutant(
        "notation-sorts-the-passed",
        "the position notation",
        "the notation writes the players who passed in number order, not in the order they did",
        "stawvs_ap/core/notation.py",
        '    passed = "".join(map(str, fields.eliminated)) or "-"',
        '    passed = "".join(map(str, sorted(fields.eliminated))) or "-"',
    ),
    Mutant(
        "move-lookup-takes-a-space-for-a-dash",
        "the move notation",
        "the lookup that reads complete moves also takes 'a1 b2,c3' (a space for the dash)",
        "stawvs_ap/core/moves.py",
        'if len(text) == 8 and text[2] == "-" and text[5] == ",":',
        'if len(text) == 8 and text[2] in "- " and text[5] == ",":',
    ),
    Mutant(
        "patched-cells-off-by-one",
        "the writer's fast path",
        "cells patched from the entry before delete the cell after the emptied square",
        "stawvs_ap/state/writer.py",
        "            del out[at]",
        "            del out[min(at + 1, len(out) - 1)]",
    ),
    Mutant(
        "verdict-names-the-landing-square-as-the-start",
        "the verdicts' words",
        "an accepted slide and claim is described as starting where the cap lands",
        "stawvs_ap/host/verdicts.py",
        '            "source": names[source],\n',
        '            "source": names[dest],\n',
    ),
    Mutant(
        "verdict-lets-a-pass-be-previewed",
        "the verdicts",
        "validate_move says a pass can be previewed (canrender) like any other move",
        "stawvs_ap/host/verdicts.py",
        "self.complete, None if move.is_pass else True",
        "self.complete, True",
    ),
    Mutant(
        "solver-margin-off-by-one",
        "the solver",
        "the margin counts players from 0: the best other score is taken beside the wrong player",
        "stawvs_ap/bots/solver.py",
        "others = [s for p, s in enumerate(scores, start=1) if p != player]",
        "others = [s for p, s in enumerate(scores) if p != player]",
    ),
    Mutant(
        "final-captures-skipped",
        "the final captures (as the solver counts them)",
        "the game ends at the last pass without the caps' pyramids joining their owners",
        "stawvs_ap/core/position.py",
        "            after, captures = after._final_captures()\n",
        "            captures = ()\n",
    ),
    Mutant(
        "solver-table-forgets-the-variants",
        "the solver's transposition table",
        "the table's key leaves out the rules, so one variant's values serve another",
        "stawvs_ap/bots/solver.py",
        "    return (rules, board, caps, player, tuple(sorted(eliminated)), collections, mode)\n",
        "    return (None, board, caps, player, tuple(sorted(eliminated)), collections, mode)\n",
    ),
    Mutant(
        "solver-key-forgets-the-player-to-move",
        "the solver's transposition table",
        "the table's key leaves out whose turn it is",
        "stawvs_ap/bots/solver.py",
        "    return (rules, board, caps, player, tuple(sorted(eliminated)), collections, mode)\n",
        "    return (rules, board, caps, 0, tuple(sorted(eliminated)), collections, mode)\n",
    ),
    Mutant(
        "solver-key-forgets-who-passed",
        "the solver's transposition table",
        "the table's key leaves out which players have passed",
        "stawvs_ap/bots/solver.py",
        "    return (rules, board, caps, player, tuple(sorted(eliminated)), collections, mode)\n",
        "    return (rules, board, caps, player, (), collections, mode)\n",
    ),
    Mutant(
        "solver-key-collection-as-a-set",
        "the solver's transposition table",
        "the table's key reduces each collection to the set of its pyramids (a pair counts once)",
        "stawvs_ap/bots/solver.py",
        "tuple([bytes(sorted(collection)) for collection in captured])",
        "tuple([bytes(sorted(set(collection))) for collection in captured])",
    ),
    Mutant(
        "solver-root-window-one-narrow",
        "the solver's best moves",
        "the null window testing each root move sits one point high: a move failing low at "
        "exactly the margin counts as best",
        "stawvs_ap/bots/solver.py",
        "        return self._value(position, key, bound - 1, bound) >= bound\n",
        "        return self._value(position, key, bound, bound + 1) >= bound\n",
    ),
    Mutant(
        "solver-mtdf-steps-over-the-value",
        "the solver's null-window driver",
        "MTD(f) raises its window two points past a proven lower bound, stepping over the value",
        "stawvs_ap/bots/solver.py",
        "            beta = max(guess, low + 1)\n",
        "            beta = max(guess, low + 2)\n",
    ),
    Mutant(
        "solver-cut-off-on-the-wrong-side",
        "the solver's alpha-beta",
        "a minimising player stops at a reply above the window, the maximiser's cut-off",
        "stawvs_ap/bots/solver.py",
        "                    if best <= alpha:\n",
        "                    if best >= beta:\n",
    ),
    Mutant(
        "mcts-samples-proven-children",
        "MCTS-Solver",
        "the search's selection goes on sampling children already proven",
        "stawvs_ap/bots/mcts.py",
        "        skip_proven = self.settings.solve\n",
        "        skip_proven = False\n",
    ),
    Mutant(
        "mcts-throws-away-a-proven-win",
        "MCTS-Solver",
        "the root's ranking puts moves proven to win after the open ones",
        "stawvs_ap/bots/mcts.py",
        "        return wins + middle + lost\n",
        "        return middle + wins + lost\n",
    ),
    Mutant(
        "templates-forget-the-percent-sign",
        "the words' fast path",
        "templates made ready for the % operator leave a literal percent sign unescaped",
        "stawvs_ap/i18n/__init__.py",
        'parts.append(literal.replace("%", "%%"))',
        "parts.append(literal)",
    ),
    Mutant(
        "written-text-kept-by-length",
        "the writer's kept text",
        "a game's kept text is reused for a stack as long, not for one holding the same entries",
        "stawvs_ap/state/writer.py",
        "if len(known) > len(stack) or not all(map(operator.is_, known, stack)):",
        "if len(known) > len(stack):",
    ),
    Mutant(
        "loaded-text-kept-as-read",
        "the loader's kept text",
        "the loader keeps the first entry as the reference engine wrote it, keys in its order",
        "stawvs_ap/state/reader.py",
        "to_json(first_ours) + text[end:-2]",
        "text[at + len(_STACK) : -2]",
    ),
    Mutant(
        "review-prefers-the-estimate-to-a-proof",
        "the review",
        "the played move's estimate is taken over a proven value of the position after it",
        "stawvs_ap/bots/review.py",
        "if answer.played_value is not None and (answer.played_exact or not after_exact):",
        "if answer.played_value is not None:",
    ),
    Mutant(
        "review-forced-move-from-the-wrong-side",
        "the review",
        "a forced move's share is read from the next mover's side without turning it round",
        "stawvs_ap/bots/review.py",
        "mover_share[i] = following if same else 1.0 - following",
        "mover_share[i] = following",
    ),
    Mutant(
        "calibration-map-turned-off",
        "the win shares",
        "mcts shows its raw search value instead of the calibrated share",
        "stawvs_ap/bots/mcts.py",
        "return calibrated(mean, position) if self.settings.calibrate else mean",
        "return mean",
    ),
    Mutant(
        "ply-off-by-one",
        "--ply",
        "a negative ply counts one move fewer back: -1 is the last position",
        "stawvs_ap/records/plies.py",
        "kept = ply if ply >= 0 else count + ply\n",
        "kept = ply if ply >= 0 else count + ply + 1\n",
    ),
    Mutant(
        "claim-for-the-other-player",
        "the claim map",
        "a square claimed by a move is counted for the other player",
        "stawvs_ap/bots/analysis.py",
        "into[event.target] = event.player",
        "into[event.target] = event.player % 2 + 1",
    ),
    Mutant(
        "lines-ascending",
        "the analysis's lines",
        "the lines after the first are sorted by share, the smallest first",
        "stawvs_ap/bots/analysis.py",
        "return -line.share, -(",
        "return line.share, -(",
    ),
    Mutant(
        "exact-line-from-the-opponents-side",
        "the analysis's lines",
        "a proven line's margin is the opponent's, not the mover's",
        "stawvs_ap/bots/analysis.py",
        "margin = answer.margin if after.currplayer == mover else -answer.margin",
        "margin = answer.margin",
    ),
    Mutant(
        "retry-share-from-the-opponents-side",
        "retry",
        "a tried move's share is the opponent's share after it",
        "stawvs_ap/bots/retry.py",
        "return there.value if after.currplayer == mover else 1.0 - there.value",
        "return there.value",
    ),
)


def copy_checkout(target: Path) -> None:
    """The files git tracks, and new ones it does not ignore, copied to ``target``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, (n.decode() for n in listed)):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def run_tests(
    copy: Path, mutant: Mutant | None, pytest_args: Sequence[str], timeout: float
) -> str | None:
    """The first failing test of a run in ``copy`` with ``mutant`` in place, None
    when the run passes; when it fails without naming a test (or takes longer
    than ``timeout`` seconds: a mutant can make a loop endless), what it did."""
    path = copy / mutant.path if mutant else None
    original = path.read_text(encoding="utf-8") if path else ""
    if path and mutant:
        path.write_text(original.replace(mutant.old, mutant.new), encoding="utf-8")
    shutil.rmtree(copy / ".hypothesis", ignore_errors=True)
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", *pytest_args],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # so that the test workers can be stopped with it
    )
    try:
        output, _ = run.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        return f"{NO_TEST}it ran for over {timeout:.0f} s (a loop without end?)"
    except BaseException:  # interrupted: the test workers go too
        os.killpg(run.pid, signal.SIGKILL)
        raise
    finally:
        if path:
            path.write_text(original, encoding="utf-8")
    if run.returncode == 0:
        return None
    failed = re.findall(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", output, flags=re.MULTILINE)
    lines = [line for line in output.splitlines() if line.strip()]
    return failed[0] if failed else NO_TEST + (lines[-1] if lines else f"exit {run.returncode}")


#: How :func:`run_tests` reports a run that failed without naming a test.
NO_TEST = "the run itself: "


def first_real_failure(
    copy: Path, pytest_args: Sequence[str], flaky: list[str], mutant: Mutant | None, timeout: float
) -> str | None:
    """The first test that fails with ``mutant`` in place, again when run alone,
    and passes alone without it; None when the run passes. A test that fails
    without the mutant too, or passes when run again with it, is added to
    ``flaky`` and left out of the runs that follow. Without a mutant (the
    baseline), a test that fails twice stops the script."""
    alone = ["-q", "-p", "no:cacheprovider"]
    for _ in range(5):
        deselect = [f"--deselect={test}" for test in flaky]
        failing = run_tests(copy, mutant, [*pytest_args, *deselect], timeout)
        if failing is None or (failing.startswith(NO_TEST) and mutant is not None):
            return failing
        if failing.startswith(NO_TEST) or (
            mutant is None and run_tests(copy, None, [*alone, failing], timeout) is not None
        ):
            raise SystemExit(f"the unchanged copy fails ({failing}): fix it first")
        if (
            mutant is not None
            and run_tests(copy, mutant, [*alone, failing], timeout) is not None
            and run_tests(copy, None, [*alone, failing], timeout) is None
        ):
            return failing
        flaky.append(failing)
    raise SystemExit(f"five tests failed only now and then: {flaky}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("only", nargs="*", help="names of the mutants to plant (default: all)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--no-baseline", action="store_true", help="skip the unchanged run")
    parser.add_argument(
        "--pytest-args", default=DEFAULT_RUN, help=f"the test run (default: {DEFAULT_RUN!r})"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=1800.0,
        help="seconds after which a run counts as hung (default 1800; after the baseline "
        "at most three times its length)",
    )
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only]
    unknown = set(args.only) - {m.name for m in MUTANTS}
    if unknown:
        parser.error(f"no such mutant: {', '.join(sorted(unknown))}")
    if args.list:
        for mutant in chosen:
            print(f"{mutant.name:40} {mutant.area}: {mutant.what}")
        return 0
    pytest_args = shlex.split(args.pytest_args)
    # A terminated script cleans up like an interrupted one: workers and scratch copy.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(3))
    with tempfile.TemporaryDirectory(prefix="stawvs-mutants-") as scratch:
        copy = Path(scratch)
        copy_checkout(copy)
        for mutant in chosen:
            text = (copy / mutant.path).read_text(encoding="utf-8")
            if text.count(mutant.old) != 1:
                print(f"stale mutant {mutant.name}: its snippet is not once in {mutant.path}")
                return 2
        flaky: list[str] = []
        if not args.no_baseline:
            start = time.perf_counter()
            first_real_failure(copy, pytest_args, flaky, None, args.timeout)
            seconds = time.perf_counter() - start
            args.timeout = min(args.timeout, 3 * seconds)
            left_out = f"; left out as flaky: {', '.join(flaky)}" if flaky else ""
            print(f"{'baseline':40} passes ({seconds:.0f} s{left_out})", flush=True)
        survivors = []
        for mutant in chosen:
            start = time.perf_counter()
            failing = first_real_failure(copy, pytest_args, flaky, mutant, args.timeout)
            seconds = time.perf_counter() - start
            verdict = f"caught by {failing}" if failing else "SURVIVED"
            print(f"{mutant.name:40} {verdict} ({seconds:.0f} s)", flush=True)
            if failing is None:
                survivors.append(mutant.name)
        if flaky:
            print(f"left out as flaky (failing without a mutant): {', '.join(flaky)}")
    print(f"{len(chosen) - len(survivors)} of {len(chosen)} mutants caught")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
