"""Golden fixture games: regenerate them from seeds, or check the engine against them.

A developer tool of the checkout (it is not in the wheel)::

    python devtools/fixtures.py check        # exit 1 with a per-ply diff on any change
    python devtools/fixtures.py regenerate   # rewrite fixtures/golden/*.json

It uses the package and the fixtures of the checkout it belongs to, whatever the
current directory: ``fixtures/golden`` and the reference games
``fixtures/reference/games.jsonl.gz``. ``--dir DIR`` (and ``--reference FILE`` or
``--no-reference``) name others; a missing folder or file prints one line and
exits with status 2.

Each golden game is played with uniformly random legal moves (``random.Random(seed)``
choosing among the sorted legal moves) on the board of the same seed, with a fake
clock (2025-12-12T00:00:00.000Z, one second more per call), so regenerating is
reproducible byte for byte. A file holds the game's record (with its
``startingPosition``) and, per ply, who moved, the number of legal moves before
the move, the move, the scores after it and the :func:`state_digest` after it.

``check`` replays every golden game ply by ply and compares all of these, then
compares the regenerated record and replays the record itself; it also replays
the Abstract Play reference games from their ``initial`` state and compares legal
moves, scores, final state and record. A changed rule therefore shows up as a
reviewed diff of these files, never silently.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

#: The checkout this tool belongs to: its package is the one imported below.
CHECKOUT: Final = Path(__file__).resolve().parent.parent
if str(CHECKOUT) not in sys.path:
    sys.path.insert(0, str(CHECKOUT))  # run as a script: python devtools/fixtures.py

from stawvs_ap.core.notation import format_board  # noqa: E402
from stawvs_ap.errors import StawvsError  # noqa: E402
from stawvs_ap.host.game import StawvsGame  # noqa: E402
from stawvs_ap.records.replay import apply_move_or_ending, from_record  # noqa: E402
from stawvs_ap.state.entry import Entry  # noqa: E402
from stawvs_ap.state.writer import entry_dict  # noqa: E402

__all__ = [
    "CHECKOUT",
    "GOLDEN_DIR",
    "REFERENCE_FILE",
    "FakeClock",
    "GoldenSpec",
    "canonical_json",
    "check_all",
    "check_golden_file",
    "check_reference_game",
    "fixture_text",
    "golden_specs",
    "main",
    "play_golden",
    "regenerate",
    "state_digest",
]

#: The checkout's golden games and reference games: the defaults of ``--dir`` and ``--reference``.
GOLDEN_DIR: Final = CHECKOUT / "fixtures" / "golden"
REFERENCE_FILE: Final = CHECKOUT / "fixtures" / "reference" / "games.jsonl.gz"
FORMAT: Final = 1
#: The variant sets of the reference games; every one is played with 2, 3 and 4 players.
VARIANT_SETS: Final[tuple[tuple[str, ...], ...]] = (
    (),
    ("hole",),
    ("random",),
    ("hey",),
    ("finalfree",),
    ("pieces-2",),
    ("hole", "hey"),
    ("random", "finalfree", "pieces-2"),
    ("hey", "finalfree"),
)
SEEDS: Final = (1, 2)
NAMES: Final = ("Alice", "Bob", "Carol", "Dave")
_START: Final = datetime(2025, 12, 12, tzinfo=UTC)


class FakeClock:
    """A clock for reproducible games: 2025-12-12T00:00:00.000Z, then one second more per call."""

    def __init__(self) -> None:
        self._calls = 0

    def __call__(self) -> str:
        when = _START + timedelta(seconds=self._calls)
        self._calls += 1
        return when.strftime("%Y-%m-%dT%H:%M:%S.000Z")


@dataclass(frozen=True)
class GoldenSpec:
    """One golden game: players, variants, seed, and an optional ending outside the rules."""

    numplayers: int
    variants: tuple[str, ...]
    seed: int
    ending: str | None = None

    @property
    def filename(self) -> str:
        label = "+".join(self.variants) or "default"
        suffix = f"-{self.ending}" if self.ending else ""
        return f"{self.numplayers}p-{label}-seed-{self.seed}{suffix}.json"

    def players(self) -> list[dict[str, Any]]:
        return [{"name": NAMES[i], "uid": f"u{i + 1}"} for i in range(self.numplayers)]


def golden_specs() -> list[GoldenSpec]:
    """Every golden game: two seeds per player count × reference variant set, and
    one game for each ending outside the rules."""
    specs = [
        GoldenSpec(n, variants, seed)
        for n in (2, 3, 4)
        for variants in VARIANT_SETS
        for seed in SEEDS
    ]
    specs += [
        GoldenSpec(2, (), 3, "resign"),
        GoldenSpec(3, ("hole",), 3, "timeout"),
        GoldenSpec(4, ("hey",), 3, "draw"),
        GoldenSpec(3, ("random",), 3, "abandoned"),
    ]
    return specs


def canonical_json(value: Any) -> str:
    """Keys sorted, no spaces, non-ASCII kept: one text per JSON value."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_digest(game: StawvsGame) -> str:
    """SHA-256 (hex) of the canonical form of the game's newest position.

    Canonical: the object ``{"numplayers", "variants", "gameover", "winner",
    "top"}`` where ``top`` is the newest stack entry as serialized
    (docs/CONTRACT.md §4) without its ``_timestamp`` and with its board entries sorted
    by square name, written by :func:`canonical_json` and encoded as UTF-8.
    The earlier stack entries are the previous plies' digests, so comparing
    every ply compares the whole state, in constant time per ply.
    """
    top = dict(entry_dict(Entry(game.position, game.lastmove, (), "")))
    top["_results"] = game.results
    del top["_timestamp"]
    top["board"] = {**top["board"], "value": sorted(top["board"]["value"])}
    canonical = {
        "numplayers": game.numplayers,
        "variants": game.variants,
        "gameover": game.gameover,
        "winner": game.winner,
        "top": top,
    }
    return hashlib.sha256(canonical_json(canonical).encode("utf-8")).hexdigest()


def play_golden(spec: GoldenSpec) -> dict[str, Any]:
    """Play a golden game from its spec and return the fixture (see the module doc)."""
    game = StawvsGame(spec.numplayers, list(spec.variants), seed=spec.seed, clock=FakeClock())
    rng = random.Random(spec.seed)
    ending_ply = rng.randint(5, 40) if spec.ending else None
    plies: list[dict[str, Any]] = []
    while not game.gameover:
        legal = sorted(game.moves())
        player = game.currplayer
        if len(plies) + 1 == ending_ply and spec.ending:
            move = spec.ending
            player = rng.randint(1, spec.numplayers)
        else:
            move = rng.choice(legal)
        apply_move_or_ending(game, move, player)
        plies.append(
            {
                "ply": len(plies) + 1,
                "player": player,
                "legal": len(legal),
                "move": move,
                "scores": game.position.scores(),
                "digest": state_digest(game),
            }
        )
    return {
        "format": FORMAT,
        "numplayers": spec.numplayers,
        "variants": list(spec.variants),
        "seed": spec.seed,
        "ending": spec.ending,
        "record": game.gen_record(uid=spec.filename[:-5], players=spec.players()),
        "plies": plies,
    }


def fixture_text(fixture: dict[str, Any]) -> str:
    """The file text of a fixture: valid JSON, one ply per line for readable diffs."""
    head = [
        f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
        for k, v in fixture.items()
        if k != "plies"
    ]
    plies = ",\n".join(f"    {json.dumps(p)}" for p in fixture["plies"])
    return "{\n" + ",\n".join(head) + ',\n  "plies": [\n' + plies + "\n  ]\n}\n"


def regenerate(directory: Path) -> list[Path]:
    """Write every golden game's file into ``directory``; return the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for spec in golden_specs():
        path = directory / spec.filename
        path.write_text(fixture_text(play_golden(spec)), encoding="utf-8")
        written.append(path)
    return written


def _diff(what: str, expected: object, got: object) -> str:
    return f"{what}: expected {json.dumps(expected)}, got {json.dumps(got)}"


def check_golden_file(path: Path) -> list[str]:
    """Replay one golden file ply by ply; the differences found (empty when none).

    After the first differing ply the rest of the game is not compared: it has
    nothing left to say.
    """
    name = path.name
    try:
        fixture = json.loads(path.read_text(encoding="utf-8"))
        spec = GoldenSpec(
            fixture["numplayers"],
            tuple(fixture["variants"]),
            fixture["seed"],
            fixture.get("ending"),
        )
        record, plies = fixture["record"], fixture["plies"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [f"{name}: cannot read the fixture: {exc}"]
    game = StawvsGame(spec.numplayers, list(spec.variants), seed=spec.seed, clock=FakeClock())
    start = format_board(game.position.board)
    if start != record["header"].get("startingPosition"):
        return [
            f"{name}: " + _diff("seed's board", record["header"].get("startingPosition"), start)
        ]
    for ply in plies:
        where = f"{name} ply {ply['ply']} (player {ply['player']}, {ply['move']!r})"
        legal = len(game.moves())
        try:
            apply_move_or_ending(game, ply["move"], ply["player"])
        except StawvsError as exc:
            return [f"{where}: no longer legal: {exc.message}"]
        got = {"legal": legal, "scores": game.position.scores(), "digest": state_digest(game)}
        wrong = [_diff(key, ply[key], value) for key, value in got.items() if ply[key] != value]
        if wrong:
            return [f"{where}: " + "; ".join(wrong) + " (later plies not compared)"]
    problems = []
    if not game.gameover:
        problems.append(f"{name}: the game is not over after its {len(plies)} plies")
    elif game.gen_record(uid=spec.filename[:-5], players=spec.players()) != record:
        problems.append(f"{name}: the regenerated record differs from the stored one")
    try:
        replayed = from_record(record)
        if plies and state_digest(replayed) != plies[-1]["digest"]:
            problems.append(f"{name}: replaying the record gives another final state")
    except StawvsError as exc:
        problems.append(f"{name}: the record does not replay: {exc.message}")
    return problems


def _reference_games(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _without_timestamps(state: str | dict[str, Any]) -> Any:
    loaded = json.loads(state) if isinstance(state, str) else state
    out = json.loads(json.dumps(loaded))
    for entry in out["stack"]:
        entry.pop("_timestamp", None)
        entry["board"]["value"].sort(key=lambda cell: cell[0])
    return out


def _comparable(record: dict[str, Any]) -> Any:
    """A copy of a record without what only ours has (starting position, ranks)
    and without the time it was generated."""
    out = json.loads(json.dumps(record))
    out["header"].pop("date-generated", None)
    out["header"].pop("startingPosition", None)
    for player in out["header"]["players"]:
        player.pop("rank", None)
    return out


def check_reference_game(ref: dict[str, Any]) -> list[str]:
    """Replay one reference game from its ``initial`` state; the differences found."""
    name = f"reference game {ref['id']}"
    game = StawvsGame(ref["initial"], clock=FakeClock())
    for number, ply in enumerate(ref["plies"], start=1):
        where = f"{name} ply {number} (player {ply['player']}, {ply['move']!r})"
        if sorted(game.moves()) != ply["moves"]:
            return [f"{where}: the legal moves differ"]
        try:
            game.move(ply["move"])
        except StawvsError as exc:
            return [f"{where}: no longer legal: {exc.message}"]
        if game.position.scores() != ply["scores"]:
            return [f"{where}: " + _diff("scores", ply["scores"], game.position.scores())]
    problems = []
    if _without_timestamps(game.state()) != _without_timestamps(ref["final"]):
        problems.append(f"{name}: the final state differs")
    try:
        replayed = from_record(ref["record"], initial=ref["initial"])
    except StawvsError as exc:
        return [*problems, f"{name}: its record does not replay: {exc.message}"]
    if _without_timestamps(replayed.state()) != _without_timestamps(ref["final"]):
        problems.append(f"{name}: replaying its record gives another final state")
    players = [{"name": NAMES[i], "uid": f"u{i + 1}"} for i in range(ref["numplayers"])]
    ours = replayed.gen_record(uid=f"test-{ref['id']}", players=players)
    if _comparable(ours) != _comparable(ref["record"]):
        problems.append(f"{name}: our record of it differs from the reference record")
    return problems


def check_all(directory: Path, reference: Path | None = None) -> list[str]:
    """Check every golden file in ``directory``, and the reference games of the
    ``reference`` file (``games.jsonl.gz``) when one is given."""
    problems: list[str] = []
    paths = sorted(directory.glob("*.json"))
    if not paths:
        problems.append(f"no golden fixtures in {directory}")
    for path in paths:
        problems += check_golden_file(path)
    if reference is not None:
        for ref in _reference_games(reference):
            problems += check_reference_game(ref)
    return problems


class _PathError(Exception):
    """A folder or file the command line names that is not there; one line for the user."""


def _paths(args: argparse.Namespace) -> tuple[Path, Path | None]:
    """The golden folder and the reference file (None: not checked) that ``args`` name,
    defaults from the checkout; :class:`_PathError` when one given is missing."""
    directory: Path = GOLDEN_DIR if args.dir is None else args.dir
    if args.mode == "regenerate":
        return directory, None
    if not directory.is_dir():
        raise _PathError(f"no golden fixture folder {directory}")
    if args.no_reference:
        return directory, None
    reference: Path = REFERENCE_FILE if args.reference is None else args.reference
    if not reference.is_file():
        raise _PathError(f"no reference games file {reference}")
    return directory, reference


def main(argv: Sequence[str] | None = None) -> int:
    """``regenerate`` or ``check`` the golden fixtures; 0 on success, 1 on differences,
    2 (one line on standard error) when a folder or file to read is missing."""
    parser = argparse.ArgumentParser(
        prog="python devtools/fixtures.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("mode", choices=("regenerate", "check"))
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        help="golden fixture folder (default: the checkout's fixtures/golden)",
    )
    parser.add_argument(
        "--reference",
        type=Path,
        default=None,
        metavar="FILE",
        help="reference games to check (default: the checkout's fixtures/reference/games.jsonl.gz)",
    )
    parser.add_argument(
        "--no-reference",
        action="store_true",
        help="check only the golden games, not the reference games",
    )
    args = parser.parse_args(argv)
    try:
        directory, reference = _paths(args)
    except _PathError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    if args.mode == "regenerate":
        written = regenerate(directory)
        print(f"wrote {len(written)} golden games to {directory}")
        return 0
    problems = check_all(directory, reference)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(
            f"{len(problems)} difference(s): if the change is intended, run "
            "'python devtools/fixtures.py regenerate' and review the diff",
            file=sys.stderr,
        )
        return 1
    checked = "golden and reference game" if reference is not None else "golden game"
    print(f"every {checked} replays as recorded")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
