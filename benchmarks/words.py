#!/usr/bin/env python
"""What words cost: a verdict in each language beside the English one (issue 26).

Usage::

    python benchmarks/words.py            # about half a minute
    python benchmarks/words.py --quick    # a quarter of the positions, fewer repeats

For each benchmark position (``benchmarks/bench_positions.jsonl.gz``) three
verdicts are timed with :meth:`~stawvs_ap.StawvsGame.validate_move`: a legal
complete move (the sentence that describes it), a slide out of reach (a
refusal with squares) and a text that is no move (a refusal within a refusal).
Each is timed in English and in every language with a catalogue, as
``validate_move(move, locale=tag).message`` on a game in English (a verdict is
worded when its message is read): the language is chosen per call. The last
rows time the same calls with the language changed on every call (English,
then each language in turn), which costs what one language costs if nothing is
loaded again; and the first use of each catalogue (reading its .mo file),
which happens once per process.

Figures are µs per call, the best of ``repeat`` runs of ``number`` calls per
position (timeit's advice: the slower runs measure other processes), then
the mean over the positions. The target: a translated verdict costs at most
10% more than the English one. Standard library only; nothing is written.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import stawvs_ap.i18n as i18n  # noqa: E402
from stawvs_ap import StawvsGame  # noqa: E402

BENCH_POSITIONS = ROOT / "benchmarks" / "bench_positions.jsonl.gz"
TARGET = 1.10


def _games(quick: bool) -> list[StawvsGame]:
    with gzip.open(BENCH_POSITIONS, "rt", encoding="utf-8") as fh:
        states = [json.loads(line)["state"] for line in fh if line.strip()]
    return [StawvsGame(s) for s in states[:: 4 if quick else 1]]


def _probes(game: StawvsGame) -> dict[str, str]:
    legal = game.moves()[0]
    source = legal[:2]
    out_of_reach = next(
        f"{source}-{f}{r},{source}"
        for f in "abcdefgh"
        for r in "12345678"
        if game.validate_move(f"{source}-{f}{r},{source}").code == "BAD_MOVE"
    )
    return {"legal move": legal, "slide out of reach": out_of_reach, "no move at all": "zz"}


def _means_us(
    calls: dict[str, list[Callable[[], object]]], number: int, repeat: int
) -> dict[str, float]:
    """Mean over the positions of each variant's µs per call. The variants of one
    position are timed in turn, ``repeat`` rounds, and each keeps its best round,
    so a busy moment of the machine falls on all of them alike."""
    best: dict[str, list[float]] = {name: [] for name in calls}
    for index in range(len(next(iter(calls.values())))):
        rounds: dict[str, float] = {}
        for _ in range(repeat):
            for name, per_position in calls.items():
                taken = timeit.timeit(per_position[index], number=number) / number * 1e6
                rounds[name] = min(rounds.get(name, taken), taken)
        for name, figure in rounds.items():
            best[name].append(figure)
    return {name: statistics.fmean(figures) for name, figures in best.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions and repeats")
    args = parser.parse_args(argv)
    number, repeat = (100, 3) if args.quick else (200, 5)

    started = time.perf_counter()
    first_use = {}
    for tag in i18n.languages():  # each catalogue's first use: reading its .mo file
        t0 = time.perf_counter()
        i18n.catalogue(tag)
        first_use[tag] = (time.perf_counter() - t0) * 1e6
    games = _games(args.quick)
    probes = [_probes(g) for g in games]
    tags = list(i18n.languages())
    others = [t for t in tags if t != "en"]
    print(
        f"{len(games)} positions, {number} calls x best of {repeat} each; "
        f"languages: {', '.join(tags)}; Python {sys.version.split()[0]}\n"
    )
    header = f"{'verdict':<22}" + "".join(f"{t:>9}" for t in tags) + f"{'worst/en':>10}"
    print(header + "\n" + "-" * len(header))
    worst = 0.0
    for kind in probes[0]:
        figures = _means_us(
            {
                tag: [
                    (lambda g=g, m=p[kind], t=tag: g.validate_move(m, locale=t).message)
                    for g, p in zip(games, probes, strict=True)
                ]
                for tag in tags
            },
            number,
            repeat,
        )
        ratio = max(figures[t] for t in others) / figures["en"] if others else 1.0
        worst = max(worst, ratio)
        print(f"{kind:<22}" + "".join(f"{figures[t]:>9.2f}" for t in tags) + f"{ratio:>10.3f}")
    rotation = ["en", *others] * (number // len(tags) + 1)

    def alternating(g: StawvsGame, m: str) -> Callable[[], object]:
        turn = iter(rotation * (repeat * len(games)))  # one language after another, per call
        return lambda: g.validate_move(m, locale=next(turn)).message

    legal = [(g, p["legal move"]) for g, p in zip(games, probes, strict=True)]
    switched = _means_us(
        {
            "English": [
                (lambda g=g, m=m: g.validate_move(m, locale="en").message) for g, m in legal
            ],
            "switching": [alternating(g, m) for g, m in legal],
        },
        number,
        repeat,
    )
    print(
        f"\nlegal move, the language changed on every call: {switched['switching']:.2f} µs "
        f"(English alone {switched['English']:.2f} µs, "
        f"ratio {switched['switching'] / switched['English']:.3f})"
    )
    print(
        "first use of each catalogue (once per process): "
        + ", ".join(f"{t} {us:.0f} µs" for t, us in first_use.items())
    )
    verdict = "met" if worst <= TARGET else "NOT met"
    print(f"\nworst translated/English ratio {worst:.3f}: target ≤ {TARGET:.2f} {verdict}")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
