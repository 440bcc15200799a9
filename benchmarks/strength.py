"""Measure the bots in the arena: the strength figures, and the balance of the variants.

    python benchmarks/strength.py figures --games 200 --jobs 2 --only mcts-uct greedy-random
    python benchmarks/strength.py balance --games 200 --jobs 2 --out benchmarks/results
    python benchmarks/strength.py balance --bot mcts --players 2 3 --games 800 \
        --run /tmp/balance-run --resume --cluster tcp://scheduler:8786 --out benchmarks/results
    python benchmarks/strength.py table

``figures`` plays each match of :data:`FIGURES` (all, or those named with
``--only``) and prints its table; with ``--out DIR`` it also writes the JSON
report to ``DIR/NAME.json`` (``--out benchmarks/results`` replaces the
committed reports, which nothing else writes). ``balance`` plays self-play
matches per variant (:data:`BALANCE_BOTS`), reported likewise as
``balance-[BOT-]VARIANT[-3p].json``. With ``--run DIR`` each balance match keeps its games in
``DIR/NAME/`` as they finish (``stawvs-ap arena --records``), the matches'
games interleaved so that a run stopped early covers every table alike;
``--resume`` continues such a run, and ``--played-only`` writes the reports
from what a run has kept without playing. A report holds the match's
settings, each bot's statistics and every game; it also names the package
version and, per bot, every option it played with, its class's defaults
included, so that a report still says what was measured after the defaults
change. ``table`` prints the Markdown tables of docs/strength.md and
docs/balance.md from those files. Every match is seeded, so the same command
repeats the same boards.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout, installed or not

from stawvs_ap import __version__  # noqa: E402
from stawvs_ap.bots import BOTS  # noqa: E402
from stawvs_ap.bots.arena import (  # noqa: E402
    BotSpec,
    GameResult,
    Match,
    format_table,
    match_report,
    play_match,
    play_matches,
    summarise,
    wilson,
)
from stawvs_ap.bots.journal import Journal  # noqa: E402
from stawvs_ap.cli.botcli import progress_bar, runner_for  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"

#: "The same with hey and with hole, within 5 points" of the 65% target.
VARIANT_TARGET = "≥ 60% (65% less 5 points)"

#: name: (lineup, variants, the win rate the first bot is meant to reach)
FIGURES: dict[str, tuple[list[str], list[str], str]] = {
    "mcts-uct": (["mcts:seconds=0.25", "uct:seconds=0.25"], [], "≥ 65%"),
    "greedy-random": (["greedy", "random"], [], "≥ 75%"),
    "mcts-greedy": (["mcts:seconds=0.25", "greedy"], [], "≥ 97%"),
    "mcts-random": (["mcts:seconds=0.25", "random"], [], "≥ 99%"),
    "mcts-uct-hey": (["mcts:seconds=0.25", "uct:seconds=0.25"], ["hey"], VARIANT_TARGET),
    "mcts-uct-hole": (["mcts:seconds=0.25", "uct:seconds=0.25"], ["hole"], VARIANT_TARGET),
    "mcts-uct-3p": (["mcts:seconds=0.25", "uct:seconds=0.25", "uct:seconds=0.25"], [], "≥ 50%"),
    "mcts1-mcts025": (["mcts:seconds=1", "mcts:seconds=0.25"], [], "≥ 60%"),
    # No target: MCTSBot with playouts to the end by its policy instead of
    # evaluated leaves, against the plain UCT.
    "mcts-playouts-uct": (
        ["mcts:seconds=0.25,plies=-1", "uct:seconds=0.25"],
        [],
        "—",
    ),
}

#: The self-play bots of the balance report, by the name ``--bot`` takes: the
#: spec, and the prefix of the report names. Greedy is fast and far stronger
#: than random; MCTS at 2,000 iterations a move (what 0.25 s gives on an idle
#: core) is expert play, the same on a busy machine or a cluster as on an idle
#: one, and the same games for the same seeds. Both play the same boards.
BALANCE_BOTS: dict[str, tuple[str, str]] = {
    "greedy": ("greedy", ""),
    "mcts": ("mcts:iterations=2000", "mcts-"),
}
BALANCE_VARIANTS: list[list[str]] = [[], ["hole"], ["random"], ["hey"], ["finalfree"], ["pieces-2"]]


def name_seed(name: str) -> int:
    """The seed of the match ``name``: a seed is a whole number from 0 to 2^63-1, and
    naming the match is what makes its boards its own."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") >> 1


def _run(
    name: str,
    lineup: list[str],
    variants: list[str],
    games: int,
    jobs: int,
    out: Path | None,
    fresh_boards: bool = False,
) -> None:
    specs = [BotSpec.parse(text) for text in lineup]
    sys.stderr.write(f"{name}: {' vs '.join(lineup)} {variants or ''}\n")
    started = time.monotonic()
    results = play_match(
        specs,
        games,
        variants=variants,
        seed=name_seed(name),
        jobs=jobs,
        progress=progress_bar(sys.stderr),
        fresh_boards=fresh_boards,
    )
    report = match_report(specs, results, variants=variants, seed=name_seed(name))
    for entry, spec in zip(report["bots"], specs, strict=True):
        entry["options"] = bot_options(spec)
    report["wall_seconds"] = round(time.monotonic() - started, 1)
    _save(report, name, out, specs, results)


def _save(
    report: dict[str, Any],
    name: str,
    out: Path | None,
    lineup: Sequence[BotSpec],
    results: Sequence[GameResult],
    commit: str | None = None,
) -> None:
    """Print the match's table; with ``out``, also write ``report`` as
    ``out/NAME.json``, with the package version and the commit it was measured
    at (``commit``, or this checkout's)."""
    sys.stdout.write(f"{name}:\n" + format_table(summarise(lineup, results)))
    if out is None:
        return
    report["package"] = __version__
    report["commit"] = commit or _commit()
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(report, indent=1) + "\n")


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def _commit() -> str | None:
    """The commit of the checkout the figures were measured with, marked ``+changes``
    when its code differs from it (the reports this script writes do not count)."""
    try:
        head = _git("rev-parse", "--short", "HEAD")
        dirty = _git(
            "status", "--porcelain", "--untracked-files=no", "--", ".", ":!benchmarks/results"
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+changes" if dirty else "")


def bot_options(spec: BotSpec) -> dict[str, Any]:
    """Every keyword option the bot of ``spec`` plays with: its class's defaults,
    then the spec's own (the seed is the arena's, so it is left out)."""
    defaults = {option.name: option.default for option in BOTS[spec.name].options}
    return {**defaults, **dict(spec.options)}


def measured_with(report: dict[str, Any]) -> str:
    """What the table says of the bots a report was measured with: its ``note``
    when it has one, else each bot's options that differ from today's defaults
    (beyond those the match names) as a spec, or that there are none."""
    if "note" in report:
        return str(report["note"])
    differences: dict[str, list[str]] = {}
    for bot in report["bots"]:
        if "options" not in bot:
            return "not recorded"
        spec = BotSpec.parse(bot["spec"])
        today = bot_options(BotSpec(spec.name))
        named = dict(spec.options)
        for key, value in bot["options"].items():
            if key not in named and today.get(key) != value:
                shown = f"{value:g}" if isinstance(value, float) else value
                differences.setdefault(spec.name, [])
                if f"{key}={shown}" not in differences[spec.name]:
                    differences[spec.name].append(f"{key}={shown}")
    specs = [f"{name}:{','.join(options)}" for name, options in differences.items()]
    return "; ".join(specs) or "today's defaults"


def _figures_table() -> str:
    lines = [
        "| match | variants | games | first bot's win rate | 95% interval | mean scores | "
        "s/move | target | measured with |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, (_, _, target) in FIGURES.items():
        path = RESULTS / f"{name}.json"
        if not path.exists():
            continue
        report = json.loads(path.read_text())
        bots = report["bots"]
        first = bots[0]
        scores = " / ".join(format(b["mean_score"], ".1f") for b in bots)
        times = " / ".join(format(b["seconds_per_move"], ".3f") for b in bots)
        lines.append(
            f"| {' vs '.join(b['bot'] for b in bots)} | {', '.join(report['variants']) or '—'} "
            f"| {report['games']} | {100 * first['win_rate']:.1f}% "
            f"| {100 * first['ci95'][0]:.1f}–{100 * first['ci95'][1]:.1f}% "
            f"| {scores} | {times} | {target} | {measured_with(report)} |"
        )
    return "\n".join(lines) + "\n"


def mean_interval(values: list[float], digits: int = 1) -> str:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return f"{mean:.{digits}f} ± {half:.{digits}f}"


def _balance_row(report: dict[str, Any]) -> str:
    results = report["results"]
    first_wins = sum(1 / len(r["winners"]) for r in results if 1 in r["winners"])
    low, high = wilson(first_wins, len(results))
    plies = [float(r["plies"]) for r in results]
    winning = [float(max(r["scores"])) for r in results]
    margin = [float(sorted(r["scores"])[-1] - sorted(r["scores"])[-2]) for r in results]
    ties = sum(1 for r in results if len(r["winners"]) > 1)
    return (
        f"| {', '.join(report['variants']) or 'default'} | {len(results)} "
        f"| {100 * first_wins / len(results):.1f}% ({100 * low:.1f}–{100 * high:.1f}%) "
        f"| {mean_interval(plies)} | {mean_interval(winning)} | {mean_interval(margin)} "
        f"| {ties} |"
    )


def _balance_name(variants: list[str], players: int, bot: str = "greedy") -> str:
    suffix = "" if players == 2 else f"-{players}p"
    return f"balance-{BALANCE_BOTS[bot][1]}{'-'.join(variants) or 'default'}{suffix}"


def _balance_table(players: int, bot: str = "greedy") -> str:
    lines = [
        f"{players} players, {BALANCE_BOTS[bot][0]}:",
        "",
        "| variants | games | first player wins (95% interval) | plies | winning score "
        "| winning margin | ties |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for variants in BALANCE_VARIANTS:
        path = RESULTS / f"{_balance_name(variants, players, bot)}.json"
        if path.exists():
            lines.append(_balance_row(json.loads(path.read_text())))
    return "\n".join(lines) + "\n"


def _balance(args: argparse.Namespace) -> None:
    """Play (or, with ``--played-only``, only report) the balance matches of
    ``args.bot``: every variant set for every player count, interleaved."""
    spec, _ = BALANCE_BOTS[args.bot]
    plan = [(variants, players) for players in args.players for variants in BALANCE_VARIANTS]
    names = [_balance_name(v, p, args.bot) for v, p in plan]
    # Every bot plays the greedy report's boards, so the tables compare alike.
    matches = [
        Match((BotSpec.parse(spec),) * p, tuple(v), _balance_name(v, p), fresh_boards=True)
        for v, p in plan
    ]
    if args.run is None and (args.resume or args.played_only):
        raise SystemExit("--resume and --played-only need --run DIR")
    journals = (
        [
            Journal(Path(args.run) / name, match, resume=args.resume or args.played_only)
            for name, match in zip(names, matches, strict=True)
        ]
        if args.run
        else [None] * len(matches)
    )
    started = time.monotonic()
    commits = Path(args.run) / "commits.txt" if args.run else None
    if commits and not args.played_only:  # a run may go on over several checkouts
        with commits.open("a") as file:
            file.write(f"{_commit()}\n")
    try:
        if args.played_only:
            results = [sorted(j.played().values(), key=lambda r: r.index) for j in journals if j]
        else:
            sys.stderr.write(f"balance: {spec} self-play, {len(matches)} matches interleaved\n")
            runner, release = runner_for(args.cluster, None if args.cluster else args.jobs)
            try:
                results = play_matches(
                    matches,
                    [args.games] * len(matches),
                    runner=runner,
                    keepers=journals,
                    progress=progress_bar(sys.stderr),
                )
            finally:
                release()
    finally:
        for journal in journals:
            if journal:
                journal.close()
    out = Path(args.out) if args.out else None
    for name, match, found in zip(names, matches, results, strict=True):
        if not found:
            continue
        report = match_report(match.lineup, found, variants=match.variants, seed=match.seed)
        for entry, bot in zip(report["bots"], match.lineup, strict=True):
            entry["options"] = bot_options(bot)
        report["bot"] = spec
        report["game_seconds"] = round(sum(sum(r.thinking) for r in found) / len(found), 2)
        if not args.played_only:
            report["wall_seconds"] = round(time.monotonic() - started, 1)
        # The code that played the games, which is not always the code reporting them.
        played_by = commits.read_text().split() if commits and commits.exists() else []
        _save(report, name, out, match.lineup, found, ", ".join(dict.fromkeys(played_by)) or None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["figures", "balance", "table"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="+", choices=sorted(FIGURES), help="figures to measure")
    parser.add_argument(
        "--players", type=int, nargs="+", default=[2], help="player counts of the balance games"
    )
    parser.add_argument(
        "--bot", choices=sorted(BALANCE_BOTS), default="greedy", help="the balance's self-play bot"
    )
    parser.add_argument("--cluster", metavar="ADDRESS", help="play on this Dask scheduler")
    parser.add_argument("--run", metavar="DIR", help="keep the balance games in DIR as they finish")
    parser.add_argument("--resume", action="store_true", help="continue the run kept in --run")
    parser.add_argument(
        "--played-only", action="store_true", help="write the reports of --run, play nothing"
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="also write each match's JSON report to DIR/NAME.json (the committed ones are "
        "in benchmarks/results; without --out nothing is written)",
    )
    args = parser.parse_args()
    if args.what == "figures":
        for name in args.only or list(FIGURES):
            lineup, variants, _ = FIGURES[name]
            _run(
                name, lineup, variants, args.games, args.jobs, Path(args.out) if args.out else None
            )
    elif args.what == "balance":
        _balance(args)
    else:
        tables = [_balance_table(p, bot) for bot in BALANCE_BOTS for p in (2, 3)]
        sys.stdout.write(
            "docs/strength.md:\n\n"
            + _figures_table()
            + "\ndocs/balance.md:\n\n"
            + "\n".join(tables)
        )


if __name__ == "__main__":
    main()
