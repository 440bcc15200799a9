"""Every word the pictures say to people: the text board and the SVG picture,
declared once (see :mod:`stawvs_ap.i18n`).

A player's default name comes from :mod:`stawvs_ap.i18n` (``player_name``);
pyramid codes such as ``PI1``, cap marks such as ``@1`` and move strings stay
as they are in every language.
"""

from __future__ import annotations

from typing import Final

from ..i18n import message, plural

# -- the text board (stawvs-ap show, print(game)) ------------------------------------------

TEXT_LAST_MOVE: Final = message("text.last-move", "Last move: {move}")
# TRANSLATORS: the head of a player's line on the text board, before the
# collection's pyramid codes: {mark} is the player's cap mark such as @1.
TEXT_PLAYER: Final = plural(
    "text.player",
    "{name} ({mark}): {points} point",
    "{name} ({mark}): {points} points",
    count="points",
)
# TRANSLATORS: as text.player, for a player who passed (cannot move any more).
TEXT_PLAYER_PASSED: Final = plural(
    "text.player-passed",
    "{name} ({mark}) (passed): {points} point",
    "{name} ({mark}) (passed): {points} points",
    count="points",
)
TEXT_NOBODY_WON: Final = message("text.nobody-won", "Game over. Winner: nobody.")
TEXT_WINNER: Final = message("text.winner", "Game over. Winner: {winner}.")
# TRANSLATORS: {winners} are two or more names, separated by
# list.separator.
TEXT_WINNERS: Final = message("text.winners", "Game over. Winners: {winners}.")
TEXT_TO_PLACE: Final = message("text.to-place", "{name} to move (placement phase).")
TEXT_TO_COLLECT: Final = message("text.to-collect", "{name} to move (collection phase).")

# -- the SVG picture (stawvs-ap svg, the service's svg, notebooks) ---------------------------

SVG_PLAYER: Final = plural(
    "svg.player", "{name}: {points} point", "{name}: {points} points", count="points"
)
SVG_PLAYER_PASSED: Final = plural(
    "svg.player-passed",
    "{name}: {points} point (passed)",
    "{name}: {points} points (passed)",
    count="points",
)
SVG_NOBODY_WON: Final = message("svg.nobody-won", "Game over. Winner: nobody")
SVG_WINNER: Final = message("svg.winner", "Game over. Winner: {winner}")
SVG_WINNERS: Final = message("svg.winners", "Game over. Winners: {winners}")
SVG_TO_PLACE: Final = message("svg.to-place", "{name} to move (placing caps)")
SVG_TO_COLLECT: Final = message("svg.to-collect", "{name} to move (collecting)")
# TRANSLATORS: the picture's title; {status} is one of the svg.* lines
# above.
SVG_TITLE: Final = message("svg.title", "Stawvs: {status}")

# -- the evaluation graph of a game review (stawvs-ap review --svg, the playground) ---------

# TRANSLATORS: the judgements of a review on a move that lost some of the
# mover's share of the win: a little (inaccuracy), more (mistake), much
# (blunder), as chess players say.
REVIEW_INACCURACY: Final = message("review.inaccuracy", "inaccuracy")
REVIEW_MISTAKE: Final = message("review.mistake", "mistake")
REVIEW_BLUNDER: Final = message("review.blunder", "blunder")
# TRANSLATORS: the title of the evaluation graph: each player's share of the
# win (from 0% to 100%) after every ply (one move of one player).
REVIEW_GRAPH_TITLE: Final = message("review.graph-title", "Share of the win, ply by ply")
# TRANSLATORS: one line of the graph's text alternative per player: their
# share of the win at the start and at the end; {start} and {end} are
# percentages (the % sign follows them).
REVIEW_PLAYER_LINE: Final = message(
    "review.player-line", "{name}: share of the win from {start}% to {end}%."
)
# TRANSLATORS: a marked move on the graph; {ply} is its number, {move} the
# move string, {judgement} one of review.inaccuracy, review.mistake,
# review.blunder.
REVIEW_MARK: Final = message("review.mark", "Ply {ply}, {name}: {move}, {judgement}.")
# TRANSLATORS: as review.mark, with {best}, the move the bot found better.
REVIEW_MARK_BETTER: Final = message(
    "review.mark-better", "Ply {ply}, {name}: {move}, {judgement}; better: {best}."
)
