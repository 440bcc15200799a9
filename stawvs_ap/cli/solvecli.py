"""``stawvs-ap solve FILE``: the endgame solver's verdict on a state or a record,
in the player's language, or as JSON::

    stawvs-ap solve game.json --seconds 2
    stawvs-ap solve record.json --json

The verdict is the player to move's: "Player 2 wins by 3 points with best
play: d5-e6,e7 pass …", or "Not proven within 2 s …" when the budget runs
out (docs/solver.md says what the value means).
"""

from __future__ import annotations

import argparse
import json
from typing import TypeVar

from ..bots.options import MAX_SECONDS, SECONDS
from ..bots.solver import NODES, Solution, solve
from ..host.game import StawvsGame
from ..i18n import Phrase, catalogue, player_name
from ..records.plies import at_ply
from .botargs import (
    Outputs,
    add_initial_argument,
    add_ply_argument,
    declared,
    load_game_and_names,
)
from .messages import (
    SOLVE_LINE,
    SOLVE_LOSS,
    SOLVE_SHARED,
    SOLVE_TOGETHER,
    SOLVE_UNPROVEN,
    SOLVE_UNPROVEN_BOUND,
    SOLVE_UNPROVEN_NODES,
    SOLVE_UNPROVEN_NODES_BOUND,
    SOLVE_WIN,
)
from .safe_io import Transaction

__all__ = ["DEFAULT_SECONDS", "add_solve_command", "verdict"]

_P = TypeVar("_P", bound=argparse.ArgumentParser)

#: The solver's time when ``--seconds`` is not given.
DEFAULT_SECONDS = 2.0


def verdict(
    solution: Solution,
    game: StawvsGame,
    *,
    seconds: float,
    nodes: int | None = None,
    names: list[str] | None = None,
    locale: str = "en",
) -> str:
    """The solution (found within ``seconds`` and ``nodes`` positions) in words, from
    the side of ``game``'s player to move, named by ``names`` (a record's) or as
    "Player N". An unproven one names the budget that ran out."""
    words = catalogue(locale)
    player = game.currplayer
    name: str | Phrase = names[player - 1] if names else player_name(player)
    if not solution.proven:
        by_nodes = nodes is not None and solution.nodes >= nodes
        budget: dict[str, str | int | Phrase] = (
            {"nodes": solution.nodes}
            if by_nodes
            else {"seconds": f"{seconds:g}", "nodes": solution.nodes}
        )
        if solution.bound is None or not solution.line:
            bare = SOLVE_UNPROVEN_NODES if by_nodes else SOLVE_UNPROVEN
            return words.say(Phrase(bare, budget))
        learned: dict[str, str | int | Phrase] = {
            **budget,
            "player": name,
            "bound": f"{solution.bound:+d}",
            "move": str(solution.line[0]),
        }
        bound = SOLVE_UNPROVEN_NODES_BOUND if by_nodes else SOLVE_UNPROVEN_BOUND
        return words.say(Phrase(bound, learned))
    margin = solution.margin
    assert margin is not None
    said: Phrase
    if margin > 0:
        said = Phrase(SOLVE_WIN, {"player": name, "margin": margin})
    elif margin < 0:
        said = Phrase(SOLVE_LOSS, {"player": name, "margin": -margin})
    else:
        said = Phrase(SOLVE_SHARED, {"player": name})
    if game.numplayers > 2:
        said = Phrase(SOLVE_TOGETHER, {"verdict": said})
    if solution.line:
        said = Phrase(SOLVE_LINE, {"verdict": said, "moves": " ".join(map(str, solution.line))})
    return words.say(said)


def _cmd_solve(args: argparse.Namespace, io: Transaction) -> Outputs:
    game, names = load_game_and_names(io, args.file, args.initial)
    game = at_ply(game, args.ply)
    seconds = args.seconds
    if seconds is None:  # a node budget alone is kept whole, so that it repeats
        seconds = DEFAULT_SECONDS if args.nodes is None else MAX_SECONDS
    solution = solve(game, seconds=seconds, nodes=args.nodes)
    if args.json:
        return {"-": json.dumps({"player": game.currplayer, **solution.to_dict()}) + "\n"}
    said = verdict(
        solution, game, seconds=seconds, nodes=args.nodes, names=names, locale=args.locale
    )
    return {"-": said + "\n"}


def add_solve_command(sub: argparse._SubParsersAction[_P]) -> None:
    """Add ``solve`` to the subparsers ``sub`` of the command line."""
    help_text = "print who wins an endgame with best play, and by how much"
    solver: argparse.ArgumentParser = sub.add_parser("solve", help=help_text, description=help_text)
    solver.set_defaults(run=_cmd_solve)
    solver.add_argument(
        "file", metavar="FILE", help="a serialized state or a game record (JSON), - for stdin"
    )
    add_initial_argument(solver)
    add_ply_argument(solver)
    solver.add_argument(
        "--seconds",
        type=declared(SECONDS),
        metavar="S",
        help=f"the solver's time, at most {MAX_SECONDS:g} (default: {DEFAULT_SECONDS:g}; "
        f"with --nodes alone, {MAX_SECONDS:g})",
    )
    solver.add_argument(
        "--nodes",
        type=declared(NODES),
        metavar="N",
        help="the most positions the solver may visit (default: no limit but the time); "
        "the same count gives the same answer",
    )
    solver.add_argument(
        "--json",
        action="store_true",
        help="print the solution as JSON: player, margin, outcome, best, line, proven, "
        "bound, nodes, seconds",
    )
