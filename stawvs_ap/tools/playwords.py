"""Every text the terminal game (``stawvs-ap play``) shows a player, in one place.

Each text is a function of typed values (names, moves, squares, counts), so
that a translation can replace this module's English and plural forms
without touching the game. Counts are written ``f"{n} square" if n == 1 else
f"{n} squares"``: one form per case, each a whole phrase.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "HELP",
    "PROMPT",
    "bot_failed",
    "bot_passes",
    "bot_plays",
    "bye",
    "cannot_save",
    "cap_moves",
    "cap_stuck",
    "caps_summary",
    "claims_from",
    "forced_claim",
    "game_not_over",
    "hint",
    "intro",
    "line_too_long",
    "no_cap",
    "no_undo",
    "not_legal",
    "outcome",
    "place_squares",
    "record_written",
    "resigned",
    "resume_with",
    "resumed",
    "saved",
    "taken_back",
    "you_pass",
]

PROMPT = "Your move: "

HELP = """Type a move, or a command (Tab completes moves and commands, Up recalls a line):
  d5            place a cap on d5 (placement phase)
  c3-f6,f2      slide your cap from c3 to f6 and claim the pyramid on f2;
                c3 alone shows where that cap can go, c3-f6 what it can claim there
  moves         your caps and where they can go;  moves c3  one cap's moves and claims
  hint          ask a bot for the best moves
  undo          take back your last move (and the bots' answers)
  save FILE     save the game; stawvs-ap play FILE resumes it
  resign        give up the game
  help          show this text
  quit          leave the game (Ctrl-D does too)"""


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one}" if n == 1 else f"{n} {many}"


def intro(players: int, seat: int) -> str:
    return (
        f"Stawvs for {players} players: you are player {seat} (@{seat}). "
        "Type help for the commands."
    )


def resumed(ply: int, seat: int) -> str:
    return f"Resumed after {_count(ply, 'move', 'moves')}: you are player {seat} (@{seat})."


def bot_plays(name: str, player: int, move: str) -> str:
    return f"{name} (@{player}) plays {move}."


def bot_passes(name: str, player: int) -> str:
    return f"{name} (@{player}) has no move and passes."


def bot_failed(name: str, player: int, reason: str) -> str:
    return f"{name} (@{player}) loses the game: {reason}"


def you_pass() -> str:
    return "You have no move: you pass."


def not_legal(message: str, code: str, verbose: bool) -> str:
    return f"{message} [{code}]" if verbose else message


def line_too_long(limit: int) -> str:
    return f"That line is too long ({limit} characters at most): it is ignored."


def place_squares(squares: Sequence[str]) -> str:
    return f"You can place a cap on {_count(len(squares), 'square', 'squares')}: " + " ".join(
        squares
    )


def caps_summary(caps: Sequence[tuple[str, int, int]]) -> str:
    """``caps``: each cap's square, the squares it can reach and its moves."""
    parts = [
        f"{square} ({_count(reach, 'square', 'squares')}, {_count(moves, 'move', 'moves')})"
        for square, reach, moves in caps
    ]
    return "Your caps can move: " + ", ".join(parts) + ". Type moves SQUARE for one cap's moves."


def cap_moves(square: str, destinations: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """Where the cap on ``square`` can slide, and what it can claim from each square."""
    head = f"Your cap on {square} can slide to {_count(len(destinations), 'square', 'squares')}"
    claims = {tuple(targets) for _, targets in destinations}
    if len(claims) == 1:  # with hey: the square it leaves, from everywhere
        [same] = claims
        dests = " ".join(dest for dest, _ in destinations)
        return [f"{head}, claiming {' '.join(same)} from each: {dests}"]
    return [f"{head}:"] + [
        f"  {square}-{dest}  claims {' '.join(targets)}" for dest, targets in destinations
    ]


def claims_from(source: str, dest: str, targets: Sequence[str]) -> str:
    return (
        f"From {dest} your cap can claim {' '.join(targets)}: "
        f"type {source}-{dest},{targets[0]} or another."
    )


def forced_claim(move: str, target: str) -> str:
    return f"The only pyramid it can claim is on {target}: playing {move}."


def no_cap(square: str) -> str:
    return f"There is no cap of yours on {square}."


def cap_stuck(square: str) -> str:
    return f"Your cap on {square} cannot move."


def hint(moves: Sequence[tuple[str, float, float]]) -> str:
    """``moves``: each suggested move, the share of the win it makes (0–1) and the
    lead in points after it."""
    return "Hint: " + ", ".join(
        f"{move} ({100 * share:.0f}% of the win, {points:+.1f} points)"
        for move, share, points in moves
    )


def no_undo() -> str:
    return "There is no move of yours to take back."


def taken_back() -> str:
    return "Taken back."


def resigned() -> str:
    return "You resign."


def saved(path: str) -> str:
    return f"Saved the game to {path}."


def resume_with(command: str) -> str:
    return f"To go on later: {command}"


def cannot_save(why: str) -> str:
    return f"Not saved: {why}"


def outcome(won: bool, shared: bool) -> str:
    if won:
        return "You share the win." if shared else "You win!"
    return "You lose."


def bye() -> str:
    return "Bye."


def record_written(path: str) -> str:
    return f"The game's record is in {path}."


def game_not_over(path: str) -> str:
    return f"The game is not over: no record written to {path}."
