"""Are the win shares the bots show calibrated? Positions from ``MCTSBot`` self-play,
each one's share by the default search, and the game's outcome.

    python benchmarks/calibration.py play --games 12 --move-seconds 0.1 \
        --sample 4 --seconds 0.25 1 --out /tmp/calibration.jsonl
    python benchmarks/calibration.py report /tmp/calibration.jsonl --svg docs/calibration.svg
    python benchmarks/calibration.py fit /tmp/calibration.jsonl

``play`` plays games between two to four ``mcts`` bots (``--move-seconds``
a move, uncalibrated, so what is recorded is the search's own value) on
seeded boards, in every variant set of docs/balance.md and every player
count asked, the sets and counts taken in turn. Every ply's own value of
the move played is kept (budget ``play``); ``--sample`` positions of each
game, drawn at random, are searched again for each budget of ``--seconds``
by a fresh default ``mcts``. Each searched position is one JSON line:
the game, the ply, the players, the phase (placing, collecting, at most 16
free pyramids), the budget, the mover's ``raw`` value, whether it is proven
(``exact``), and the mover's final share of the win (``outcome``: 1 alone,
1/k shared by k, 0 lost). Lines are appended to ``--out`` as each game
ends, so a run can be stopped and continued with ``--first``.

``report`` prints, per budget, the expected calibration error (10 equal
bins of the share, each weighted by its positions) and the Brier score of
the raw values and of the shares :func:`stawvs_ap.bots.calibration.calibrated`
makes of them (proven values as they are), and the first player's share
on the fresh two-player boards of ``--fresh`` games per variant set; with
``--svg PATH`` it writes the reliability plot there. ``fit`` fits the
map's lines (logistic regression of the outcome on the raw value's
log-odds, per player count and group: each seat while placing, collecting,
at most 16 free pyramids; by Newton's method) and prints them
as :data:`~stawvs_ap.bots.calibration.CALIBRATION`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout, installed or not

from stawvs_ap.bots.appraise import final_shares  # noqa: E402
from stawvs_ap.bots.base import only_move  # noqa: E402
from stawvs_ap.bots.calibration import calibrated_in, groups, logit, phase, squash  # noqa: E402
from stawvs_ap.bots.mcts import MCTSBot  # noqa: E402
from stawvs_ap.core.moves import Move  # noqa: E402
from stawvs_ap.core.position import Position  # noqa: E402

#: The variant sets of docs/balance.md.
VARIANT_SETS: list[list[str]] = [[], ["hole"], ["random"], ["hey"], ["finalfree"], ["pieces-2"]]
BINS = 10


def seed_of(name: str) -> int:
    """A whole-number seed named ``name``."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") >> 1


def plan(games: int, players: Sequence[int], first: int = 0) -> list[tuple[int, list[str], int]]:
    """Games ``first`` to ``first + games - 1``: (number, variants, players), the
    variant sets and player counts taken in turn."""
    combos = [(variants, n) for n in players for variants in VARIANT_SETS]
    return [(g, *combos[g % len(combos)]) for g in range(first, first + games)]


def play_game(
    number: int, variants: list[str], players: int, move_seconds: float, sample: int,
    budgets: Sequence[float],
) -> list[dict[str, Any]]:  # fmt: skip
    """One self-play game and its lines (see the module's description)."""
    name = f"calibration:{number}:{'-'.join(variants) or 'default'}:{players}"
    position = Position.initial(players, variants, seed=seed_of(name))
    bots = [MCTSBot(seed=seed_of(f"{name}:{p}"), calibrate=False) for p in range(players)]
    seen: list[tuple[int, Position, float, bool]] = []
    moves: list[str] = []
    while not position.is_over:
        forced = only_move(position)
        if forced is None:
            bot = bots[position.currplayer - 1]
            best = bot.analyse(position, seconds=move_seconds)[0]
            seen.append((len(moves), position, best.value, bot.last_exact))
            move: Move = best.move
        else:
            move = forced
        moves.append(str(move))
        position, _ = position.play(move)
    outcome = final_shares(position)
    base = {"game": number, "variants": variants, "players": players}
    lines = []
    for ply, before, raw, exact in seen:
        mover = before.currplayer
        shared = {**base, "ply": ply, "mover": mover, "phase": phase(before)}
        lines.append({**shared, "budget": "play", "raw": raw, "exact": exact,
                      "outcome": outcome[mover - 1]})  # fmt: skip
    rng = random.Random(seed_of(f"{name}:sample"))
    for ply, before, _, _ in rng.sample(seen, min(sample, len(seen))):
        mover = before.currplayer
        for seconds in budgets:
            bot = MCTSBot(seed=seed_of(f"{name}:{ply}:{seconds}"), calibrate=False)
            best = bot.analyse(before, seconds=seconds)[0]
            lines.append({**base, "ply": ply, "mover": mover, "phase": phase(before),
                          "budget": str(seconds), "raw": best.value, "exact": bot.last_exact,
                          "outcome": outcome[mover - 1], "moves": moves[:ply]})  # fmt: skip
    return lines


def fresh_shares(games: int, seconds: float) -> dict[str, list[float]]:
    """The first player's share on ``games`` fresh two-player boards per variant set."""
    out: dict[str, list[float]] = {}
    for variants in VARIANT_SETS:
        key = "-".join(variants) or "default"
        for g in range(games):
            name = f"calibration-fresh:{g}:{key}"
            start = Position.initial(2, variants, seed=seed_of(name))
            bot = MCTSBot(seed=seed_of(f"{name}:bot"))
            out.setdefault(key, []).append(bot.analyse(start, seconds=seconds)[0].value)
    return out


# -- figures ------------------------------------------------------------------------------


def shown(
    line: dict[str, Any], table: dict[tuple[int, str], tuple[float, float, int]] | None = None
) -> float:
    """The share the bots show for a line: proven values as they are, else
    calibrated by the shipped map, or by ``table`` (what :func:`fitted` gives)."""
    if line["exact"]:
        return float(line["raw"])
    if table is None:
        return calibrated_in(float(line["raw"]), line["players"], line_group(line))
    intercept, slope, _ = table[line["players"], line_group(line)]
    return squash(intercept + slope * logit(float(line["raw"])))


def cross_validated(lines: Sequence[dict[str, Any]], recipe: dict[str, Any]) -> dict[int, float]:
    """Every line's share by a map fitted (by ``recipe``, the arguments of
    :func:`fitted`) to the games of the other parity: held-out figures."""
    out = {}
    for parity in (0, 1):
        table = fitted([line for line in lines if line["game"] % 2 != parity], **recipe)
        for line in lines:
            if line["game"] % 2 == parity:
                out[id(line)] = shown(line, table)
    return out


def line_group(line: dict[str, Any]) -> str:
    """The map's group of a line (:func:`stawvs_ap.bots.calibration.group`)."""
    return f"place{line['mover']}" if line["phase"] == "place" else str(line["phase"])


def ece(pairs: Sequence[tuple[float, float]], bins: int = BINS) -> float:
    """Expected calibration error: over ``bins`` equal bins of the share, the gap
    between the mean share and the mean outcome, weighted by the bin's count."""
    if not pairs:
        return math.nan
    sums = [[0.0, 0.0, 0] for _ in range(bins)]
    for share, outcome in pairs:
        row = sums[min(bins - 1, int(share * bins))]
        row[0] += share
        row[1] += outcome
        row[2] += 1
    return sum(abs(s - o) for s, o, n in sums if n) / len(pairs)


def reliability(
    pairs: Sequence[tuple[float, float]], bins: int = BINS
) -> list[tuple[float, float, int]]:
    """(mean share, mean outcome, count) of each non-empty bin."""
    sums = [[0.0, 0.0, 0] for _ in range(bins)]
    for share, outcome in pairs:
        row = sums[min(bins - 1, int(share * bins))]
        row[0] += share
        row[1] += outcome
        row[2] += 1
    return [(s / n, o / n, int(n)) for s, o, n in sums if n]


def brier(pairs: Sequence[tuple[float, float]]) -> float:
    """The mean squared gap between share and outcome."""
    return sum((s - o) ** 2 for s, o in pairs) / len(pairs) if pairs else math.nan


def read(paths: Iterable[str]) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            lines.extend(json.loads(text) for text in handle if text.strip())
    return lines


def fit_line(
    points: Sequence[tuple[float, float]],
    prior: tuple[float, float] = (0.0, 1.0),
    ridge: float = 1.0,
    flat: bool = False,
) -> tuple[float, float]:
    """Intercept and slope of the logistic regression of outcomes on ``x``s
    (``points`` of (x, outcome), outcomes in [0, 1]), by Newton's method, with a
    ridge of weight ``ridge`` (worth about that many positions) towards
    ``prior``, so that a thin group stays near it; ``flat``: the slope is 0 and
    only the intercept is fitted. A falling line (which would turn the order of
    moves round) is fitted again flat."""
    a, b = (prior[0], 0.0) if flat else prior
    for _ in range(100):
        ga = -ridge * (a - prior[0])
        gb = 0.0 if flat else -ridge * (b - prior[1])
        haa = hbb = ridge
        hab = 0.0
        for x, y in points:
            p = squash(a + b * x)
            w = p * (1.0 - p)
            ga += y - p
            gb += (y - p) * x
            haa += w
            hab += w * x
            hbb += w * x * x
        if flat:
            da, db = ga / haa, 0.0
        else:
            det = haa * hbb - hab * hab
            da = (hbb * ga - hab * gb) / det
            db = (haa * gb - hab * ga) / det
        step = max(1.0, abs(da) + abs(db))  # damped: a long step can overshoot
        a, b = a + da / step, b + db / step
        if abs(da) + abs(db) < 1e-9:
            break
    if b < 0 and not flat:
        return fit_line(points, (prior[0], 0.0), ridge, flat=True)
    return a, b


def cmd_play(args: argparse.Namespace) -> None:
    with open(args.out, "a", encoding="utf-8") as out:
        for number, variants, players in plan(args.games, args.players, args.first):
            started = time.perf_counter()
            lines = play_game(
                number, variants, players, args.move_seconds, args.sample, args.seconds
            )
            out.writelines(json.dumps(line) + "\n" for line in lines)
            out.flush()
            sys.stderr.write(
                f"game {number} {variants or 'default'} {players}p: {len(lines)} lines, "
                f"{time.perf_counter() - started:.0f} s\n"
            )


def recipe_of(args: argparse.Namespace) -> dict[str, Any]:
    """The fitting options given on the command line, as arguments of :func:`fitted`."""
    reports = None
    if args.seats is not None:
        reports = [json.loads(Path(path).read_text(encoding="utf-8")) for path in args.seats]
    return {"budgets": args.budget, "prior_budgets": args.prior, "ridge": args.ridge,
            "reports": reports}  # fmt: skip


def cmd_report(args: argparse.Namespace) -> None:
    lines = read(args.files)
    held_out = cross_validated(lines, recipe_of(args)) if args.crossval else None
    budgets = sorted({line["budget"] for line in lines}, key=lambda b: (b != "play", b))
    print(
        "| budget | players | positions | games | ECE raw | ECE shown | Brier raw | Brier shown |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    plots = {}
    for budget in budgets:
        for players in (None, 2, 3, 4):
            chosen = [
                line for line in lines
                if line["budget"] == budget and players in (None, line["players"])
            ]  # fmt: skip
            if not chosen:
                continue
            raw = [(float(line["raw"]), float(line["outcome"])) for line in chosen]
            cal = [
                (shown(line) if held_out is None else held_out[id(line)], float(line["outcome"]))
                for line in chosen
            ]
            if players is None:
                plots[budget] = (raw, cal)
            games = len({line["game"] for line in chosen})
            print(
                f"| {budget} | {players or 'all'} | {len(chosen)} | {games} | {ece(raw):.3f} | "
                f"{ece(cal):.3f} | {brier(raw):.3f} | {brier(cal):.3f} |"
            )
    if args.fresh:
        print("\n| variants | boards | first player's share (mean, min-max) |\n| --- | --- | --- |")
        for key, shares in fresh_shares(args.fresh, args.fresh_seconds).items():
            mean = sum(shares) / len(shares)
            print(f"| {key} | {len(shares)} | {100 * mean:.0f}% ({100 * min(shares):.0f}–"
                  f"{100 * max(shares):.0f}%) |")  # fmt: skip
    if args.svg:
        Path(args.svg).write_text(svg(plots), encoding="utf-8")


def svg(plots: dict[str, tuple[list[tuple[float, float]], list[tuple[float, float]]]]) -> str:
    """A reliability plot: per budget, the raw and the shown shares' bins."""
    size, pad = 360, 40
    wanted = [b for b in plots if b != "play"] or list(plots)
    width = pad + len(wanted) * (size + pad)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{size + 2 * pad}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{size + 2 * pad}" fill="white"/>',
    ]
    for k, budget in enumerate(wanted):
        x0, y0 = pad + k * (size + pad), pad
        out.append(f'<text x="{x0}" y="{y0 - 10}">mcts, {budget} s a position</text>')
        out.append(
            f'<rect x="{x0}" y="{y0}" width="{size}" height="{size}" fill="none" stroke="#888"/>'
        )
        out.append(
            f'<line x1="{x0}" y1="{y0 + size}" x2="{x0 + size}" y2="{y0}" '
            'stroke="#bbb" stroke-dasharray="4"/>'
        )
        for i in range(0, 11, 2):
            out.append(f'<text x="{x0 + i * size / 10 - 8}" y="{y0 + size + 14}">{i * 10}%</text>')
            if i < 10:  # games won, up the left side
                out.append(
                    f'<text x="{x0 + 4}" y="{y0 + (1 - i / 10) * size - 3}" '
                    f'fill="#888">{i * 10}%</text>'
                )
        out.append(f'<text x="{x0 + size / 2 - 30}" y="{y0 + size + 30}">share shown</text>')
        series = (
            (plots[budget][0], "#d95f02", "raw search value"),
            (plots[budget][1], "#1b9e77", "calibrated share"),
        )
        for pairs, colour, label in series:
            points = reliability(pairs)
            path = " ".join(f"{x0 + s * size:.1f},{y0 + (1 - o) * size:.1f}" for s, o, _ in points)
            out.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>'
            )
            for s, o, n in points:
                r = 2 + min(6, math.sqrt(n) / 4)
                out.append(
                    f'<circle cx="{x0 + s * size:.1f}" cy="{y0 + (1 - o) * size:.1f}" '
                    f'r="{r:.1f}" fill="{colour}"/>'
                )
            ly = y0 + 16 + (16 if colour == "#1b9e77" else 0)
            out.append(
                f'<text x="{x0 + 8}" y="{ly}" fill="{colour}">{label}: games won in each bin</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def seat_outcomes(
    lines: Sequence[dict[str, Any]], reports: Sequence[dict[str, Any]] = ()
) -> dict[tuple[int, int], list[float]]:
    """Each seat's final share of the win in every game of ``lines`` and of the
    arena ``reports`` (self-play matches, such as balance-mcts-*.json), by
    (players, seat)."""
    games: dict[tuple[int, int], tuple[int, float]] = {}
    for line in lines:
        games[line["game"], line["mover"]] = (line["players"], float(line["outcome"]))
    out: dict[tuple[int, int], list[float]] = {}
    for (_, seat), (players, outcome) in games.items():
        out.setdefault((players, seat), []).append(outcome)
    for report in reports:
        players = report["players"]
        for game in report["results"]:
            winners = game["winners"]
            for seat in range(1, players + 1):
                won = 1.0 / len(winners) if seat in winners else 0.0
                out.setdefault((players, seat), []).append(won)
    return out


def fitted(
    lines: Sequence[dict[str, Any]],
    budgets: Sequence[str] | None,
    prior_budgets: Sequence[str] | None = None,
    ridge: float = 1.0,
    reports: Sequence[dict[str, Any]] | None = None,
) -> dict[tuple[int, str], tuple[float, float, int]]:
    """The map's lines fitted to the unproven ``lines`` of ``budgets`` (all: None),
    each with the number of positions it rests on. With ``prior_budgets``, each
    line is drawn (with weight ``ridge``) towards the line fitted to those.
    With ``reports`` (None: no), the placing seats' lines are flat: each seat's
    share of the win over the games of ``lines`` and of those self-play
    reports, with the number of games."""

    def points(players: int, when: str, wanted: Sequence[str] | None) -> list[tuple[float, float]]:
        return [
            (logit(float(line["raw"])), float(line["outcome"]))
            for line in lines
            if not line["exact"] and line["players"] == players and line_group(line) == when
            and (wanted is None or line["budget"] in wanted)
        ]  # fmt: skip

    seats = seat_outcomes(lines, reports or ())
    out = {}
    for players in (2, 3, 4):
        for when in groups(players):
            if reports is not None and when.startswith("place"):
                won = seats[players, int(when.removeprefix("place"))]
                out[players, when] = (logit(sum(won) / len(won)), 0.0, len(won))
                continue
            prior = (0.0, 1.0)
            if prior_budgets:
                prior = fit_line(points(players, when, prior_budgets), prior)
            chosen = points(players, when, budgets)
            a, b = fit_line(chosen, prior, ridge, flat=prior[1] == 0)
            out[players, when] = (a, b, len(chosen))
    return out


def cmd_fit(args: argparse.Namespace) -> None:
    lines = read(args.files)
    print("CALIBRATION = {")
    found = fitted(lines, **recipe_of(args))
    for (players, when), (a, b, count) in found.items():
        unit = "games" if when.startswith("place") and args.seats is not None else "positions"
        print(f'    ({players}, "{when}"): ({a:.3f}, {b:.3f}),  # {count} {unit}')
    print("}")


def cmd_sample(args: argparse.Namespace) -> None:
    """Draw the quick test's fixed sample: ``--size`` unproven lines of budget
    ``--budget`` by a generator seeded ``--seed`` (each line's search value, group
    and outcome), the first ``--positions`` of them with their board's seed and
    moves, so that a test can search them again."""
    lines = [
        line for line in read(args.files)
        if line["budget"] == args.budget and "moves" in line and not line["exact"]
    ]  # fmt: skip
    chosen = random.Random(args.seed).sample(lines, min(args.size, len(lines)))
    sample = []
    for k, line in enumerate(chosen):
        item = {
            key: line[key] for key in ("players", "variants", "phase", "mover", "raw", "outcome")
        }
        if k < args.positions:
            key = "-".join(line["variants"]) or "default"
            item["seed"] = seed_of(f"calibration:{line['game']}:{key}:{line['players']}")
            item["moves"] = line["moves"]
        sample.append(item)
    text = "[\n" + ",\n".join(json.dumps(item) for item in sample) + "\n]\n"
    Path(args.out).write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play self-play games and record positions")
    play.add_argument("--games", type=int, default=12)
    play.add_argument("--first", type=int, default=0, help="number of the first game")
    play.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    play.add_argument("--move-seconds", type=float, default=1.0)
    play.add_argument("--sample", type=int, default=4, help="positions searched again a game")
    play.add_argument("--seconds", type=float, nargs="*", default=[0.25, 1.0])
    play.add_argument("--out", required=True)
    report = sub.add_parser("report", help="ECE, Brier score and the reliability plot")
    report.add_argument("files", nargs="+")
    report.add_argument("--svg", help="write the reliability plot here")
    report.add_argument(
        "--fresh", type=int, default=0, help="fresh two-player boards per variant set"
    )
    report.add_argument("--fresh-seconds", type=float, default=1.0)
    fit = sub.add_parser("fit", help="fit the calibration map")
    fit.add_argument("files", nargs="+")
    for command in (fit, report):
        command.add_argument("--budget", nargs="*", help="fit to these budgets (play, 0.25, 1.0)")
        command.add_argument("--prior", nargs="*", help="draw each line towards these budgets' fit")
        command.add_argument("--ridge", type=float, default=1.0, help="the weight of that pull")
        command.add_argument(
            "--seats", nargs="*", help="placing: each seat's rate in the games and these reports"
        )
    report.add_argument(
        "--crossval", action="store_true", help="shares by the map fitted to the other games"
    )
    sample = sub.add_parser("sample", help="draw the quick test's fixed sample")
    sample.add_argument("files", nargs="+")
    sample.add_argument("--budget", default="1.0")
    sample.add_argument("--size", type=int, default=600)
    sample.add_argument("--positions", type=int, default=8, help="lines kept with their moves")
    sample.add_argument("--seed", type=int, default=46)
    sample.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    commands = {"play": cmd_play, "report": cmd_report, "fit": cmd_fit, "sample": cmd_sample}
    commands[args.command](args)


if __name__ == "__main__":
    main()
