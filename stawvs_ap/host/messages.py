"""Every word the host floor says to players: verdicts, instructions, the chat
log, the render's labels and the game's metadata, declared once.

Code on this floor builds :class:`~stawvs_ap.i18n.Phrase` values from these
messages and typed values (verdict codes and squares, the core's events) and
words them in the player's language through :mod:`stawvs_ap.i18n`. The
``TRANSLATORS:`` comments reach the catalogues (docs/TRANSLATING.md). Squares
are always written as in moves (``d5``); ``{actor}``, ``{player}``,
``{winner}`` and ``{name}`` are player names (``Player 1`` or a name the host
gives). Serialized results (``"a large blue pyramid"`` in a state) are data,
not words: they stay English (:mod:`stawvs_ap.state.results`).
"""

from __future__ import annotations

from typing import Final

from ..core.pyramids import PYRAMIDS, Pyramid
from ..i18n import Message, message, plural

# -- verdicts on moves ------------------------------------------------------------------

GAME_OVER: Final = message("verdict.game-over", "The game is over: no more moves can be made.")
# TRANSLATORS: {fields} is a programmer's view of a broken move value,
# such as (70, None, None, False); keep it as it is.
MALFORMED_VALUE: Final = message(
    "verdict.malformed-value", "That is not a move ({fields} is no move of Stawvs)."
)
# TRANSLATORS: {problem} is one of the "syntax.*" messages, in lower case.
# "d5", "c3-f6,f2" and "pass" are what players type: do not translate
# them.
MALFORMED: Final = message(
    "verdict.malformed",
    "That is not a move ({problem}). Write a square such as d5, a move such as c3-f6,f2, or pass.",
    words=("problem",),
)
# TRANSLATORS: {type} is a Python type name such as int.
NOT_TEXT: Final = message("syntax.not-text", "a move must be text, not {type}")
TOO_LONG: Final = message("syntax.too-long", "a move is never longer than {limit} characters")
# TRANSLATORS: {text} is what the player typed, in quotes, such as 'zz'.
NOT_A_MOVE: Final = message("syntax.not-a-move", "{text} is not a move")
# TRANSLATORS: a cap is a game piece: each player's caps stand on
# pyramids.
NO_PASS_PLACING: Final = message(
    "verdict.no-pass-placing", "You cannot pass while caps are being placed."
)
NO_PASS_CAN_MOVE: Final = message(
    "verdict.no-pass-can-move", "You cannot pass while one of your caps can still move."
)
NOT_ONE_SQUARE: Final = message(
    "verdict.placement-one-square", "While placing caps, a move is a single square, such as d5."
)
# TRANSLATORS: {square} is a square such as d5.
PLACEMENT_TAKEN: Final = message(
    "verdict.placement-taken",
    "You cannot place a cap on {square}: choose a pyramid with no cap on it.",
)
MUST_PASS: Final = message(
    "verdict.must-pass", "You have passed, so from now on you can only pass."
)
NOT_YOUR_CAP: Final = message(
    "verdict.not-your-cap", "There is no cap of yours on {square}: choose one of your own caps."
)
# TRANSLATORS: {source} and {dest} are squares: where the cap stands, and
# where the player wanted it to land.
BAD_SLIDE: Final = message(
    "verdict.bad-slide",
    "Your cap on {source} cannot slide to {dest}: it moves in a straight line over pyramids "
    "without caps and stops on one.",
)
# TRANSLATORS: "Simpler captures" is the name of a variant
# (variant.hey.name). To claim is to take a pyramid into one's collection.
BAD_CLAIM_HEY: Final = message(
    "verdict.bad-claim-hey",
    "With simpler captures you must claim the pyramid you just left, on {source}.",
)
# TRANSLATORS: {target} is the square of the pyramid the player wanted to
# claim, {dest} the square where their cap landed.
BAD_CLAIM: Final = message(
    "verdict.bad-claim",
    "You cannot claim {target} from {dest}: claim a pyramid without a cap in a straight, "
    "unobstructed line from where your cap landed.",
)

# -- accepted moves and instructions --------------------------------------------------

# TRANSLATORS: says what a complete, legal move does, as the player is
# about to send it (a statement or an order: whichever your language uses
# for a button's effect); {pyramid} is a "pyramid.claimed.*" message such
# as "a large blue pyramid".
SLIDE_AND_CLAIM: Final = message(
    "verdict.slide-and-claim",
    "Slide from {source} to {dest} and claim {pyramid} on {target}.",
    words=("pyramid",),
)
PASS_NOW: Final = message("verdict.pass", "You have no move left, so you pass.")
# TRANSLATORS: says what a legal placement does, as the player is about to
# send it, like verdict.slide-and-claim.
PLACE_HERE: Final = message("verdict.place", "Place your cap on {square}.")
CHOOSE_DEST: Final = message(
    "instruction.choose-destination", "Now choose where your cap on {source} slides to."
)
# TRANSLATORS: ",{source}" is what the player adds to the move, such as
# ",c3": keep the comma.
CHOOSE_HEY_CLAIM: Final = message(
    "instruction.claim-left-square",
    "With simpler captures you claim the pyramid you leave: add ,{source}.",
)
# TRANSLATORS: the cap has slid to {dest}; the player now picks one of the
# pyramids that cap sees in a straight line (not the pyramid on {dest}).
CHOOSE_CLAIM: Final = message(
    "instruction.choose-claim", "Now choose the pyramid to claim from {dest}."
)
CHOOSE_PLACEMENT: Final = message(
    "instruction.choose-placement", "Choose a pyramid with no cap on it to place one of your caps."
)
CANNOT_MOVE: Final = message(
    "instruction.cannot-move", "None of your caps can move: you must pass."
)
CHOOSE_CAP: Final = message("instruction.choose-cap", "Choose one of your caps to move.")
# TRANSLATORS: {instruction} is an "instruction.*" or "verdict.*" message
# saying what the move still needs.
NOT_FINISHED: Final = message(
    "verdict.not-finished", "That move is not finished. {instruction}", words=("instruction",)
)
OFF_BOARD: Final = message("click.off-board", "That click is not on the board.")
ALREADY_COMPLETE: Final = message(
    "click.already-complete", "That move is already complete: submit it, or start again."
)
ALREADY_OVER: Final = message("ending.already-over", "The game is already over.")

# -- pyramids: each kind in each of the three places a sentence names it ---------------

# TRANSLATORS: "pyramid.claimed.*": the pyramid a player claims, as the
# object of "claim"/"claimed": "...and claimed a large blue pyramid at
# f2." Sizes 1-3 are small, medium and large; grey (GH) pyramids are the
# ghosts left at the end.
_CLAIMED: Final = (
    message("pyramid.claimed.PI1", "a small pink pyramid"),
    message("pyramid.claimed.PI2", "a medium pink pyramid"),
    message("pyramid.claimed.PI3", "a large pink pyramid"),
    message("pyramid.claimed.BL1", "a small blue pyramid"),
    message("pyramid.claimed.BL2", "a medium blue pyramid"),
    message("pyramid.claimed.BL3", "a large blue pyramid"),
    message("pyramid.claimed.GR1", "a small green pyramid"),
    message("pyramid.claimed.GR2", "a medium green pyramid"),
    message("pyramid.claimed.GR3", "a large green pyramid"),
    message("pyramid.claimed.OR1", "a small orange pyramid"),
    message("pyramid.claimed.OR2", "a medium orange pyramid"),
    message("pyramid.claimed.OR3", "a large orange pyramid"),
    message("pyramid.claimed.GH1", "a small grey pyramid"),
    message("pyramid.claimed.GH2", "a medium grey pyramid"),
    message("pyramid.claimed.GH3", "a large grey pyramid"),
)
# TRANSLATORS: "pyramid.capped.*": the pyramid a cap was placed on,
# followed by its square: "Player 1 placed a cap on the large blue pyramid
# at d5."
_CAPPED: Final = (
    message("pyramid.capped.PI1", "the small pink pyramid"),
    message("pyramid.capped.PI2", "the medium pink pyramid"),
    message("pyramid.capped.PI3", "the large pink pyramid"),
    message("pyramid.capped.BL1", "the small blue pyramid"),
    message("pyramid.capped.BL2", "the medium blue pyramid"),
    message("pyramid.capped.BL3", "the large blue pyramid"),
    message("pyramid.capped.GR1", "the small green pyramid"),
    message("pyramid.capped.GR2", "the medium green pyramid"),
    message("pyramid.capped.GR3", "the large green pyramid"),
    message("pyramid.capped.OR1", "the small orange pyramid"),
    message("pyramid.capped.OR2", "the medium orange pyramid"),
    message("pyramid.capped.OR3", "the large orange pyramid"),
    message("pyramid.capped.GH1", "the small grey pyramid"),
    message("pyramid.capped.GH2", "the medium grey pyramid"),
    message("pyramid.capped.GH3", "the large grey pyramid"),
)
# TRANSLATORS: "pyramid.under-cap.*": a pyramid a player's cap stands on,
# in the list of chat.eliminated-caps: "Player 1's caps still stand on a
# large blue pyramid and a small pink pyramid."
_UNDER_CAP: Final = (
    message("pyramid.under-cap.PI1", "a small pink pyramid"),
    message("pyramid.under-cap.PI2", "a medium pink pyramid"),
    message("pyramid.under-cap.PI3", "a large pink pyramid"),
    message("pyramid.under-cap.BL1", "a small blue pyramid"),
    message("pyramid.under-cap.BL2", "a medium blue pyramid"),
    message("pyramid.under-cap.BL3", "a large blue pyramid"),
    message("pyramid.under-cap.GR1", "a small green pyramid"),
    message("pyramid.under-cap.GR2", "a medium green pyramid"),
    message("pyramid.under-cap.GR3", "a large green pyramid"),
    message("pyramid.under-cap.OR1", "a small orange pyramid"),
    message("pyramid.under-cap.OR2", "a medium orange pyramid"),
    message("pyramid.under-cap.OR3", "a large orange pyramid"),
    message("pyramid.under-cap.GH1", "a small grey pyramid"),
    message("pyramid.under-cap.GH2", "a medium grey pyramid"),
    message("pyramid.under-cap.GH3", "a large grey pyramid"),
)
assert [m.id.rsplit(".", 1)[1] for m in _CLAIMED] == [p.code for p in PYRAMIDS]


def claimed(pyramid: Pyramid | int) -> Message:
    """``pyramid`` as the object of a claim: "a large blue pyramid"."""
    return _CLAIMED[pyramid]


def capped(pyramid: Pyramid | int) -> Message:
    """The pyramid a cap was placed on: "the large blue pyramid"."""
    return _CAPPED[pyramid]


def under_cap(pyramid: Pyramid | int) -> Message:
    """A pyramid under a cap, in a list: "a large blue pyramid"."""
    return _UNDER_CAP[pyramid]


# -- the chat log -----------------------------------------------------------------------

# TRANSLATORS: {pyramid} is a "pyramid.capped.*" message, {square} its
# square.
PLACED: Final = message(
    "chat.placed", "{actor} placed a cap on {pyramid} at {square}.", words=("actor", "pyramid")
)
# TRANSLATORS: {pyramid} is a "pyramid.claimed.*" message, {target} its
# square.
MOVED: Final = message(
    "chat.moved",
    "{actor} moved from {source} to {dest} and claimed {pyramid} at {target}.",
    words=("actor", "pyramid"),
)
ELIMINATED: Final = message(
    "chat.eliminated",
    "{actor} had no move left and passed, and will pass for the rest of the game.",
    words=("actor",),
)
# TRANSLATORS: {pyramids} is a list of "pyramid.under-cap.*" messages
# (list.and).
ELIMINATED_CAPS: Final = message(
    "chat.eliminated-caps",
    "{actor} had no move left and passed, and will pass for the rest of the game. "
    "{actor}'s caps still stand on {pyramids}.",
    words=("actor", "pyramids"),
)
PASSED_AGAIN: Final = message("chat.passed-again", "{actor} passed again.", words=("actor",))
OVER_RESIGNED: Final = message("chat.over-resigned", "The game is over by resignation.")
OVER_TIMEOUT: Final = message(
    "chat.over-timeout", "The game is over because a player ran out of time."
)
OVER_AGREED: Final = message("chat.over-agreed", "The game is over by agreement.")
OVER_ABANDONED: Final = message("chat.over-abandoned", "The game is over: it was abandoned.")
OVER_ALL_PASSED: Final = message(
    "chat.over-all-passed",
    "The game is over: every player has passed, so each player collects the pyramids under "
    "their caps.",
)
# TRANSLATORS: the end of a game with the variant "No final captures".
OVER_ALL_PASSED_FINALFREE: Final = message(
    "chat.over-all-passed-finalfree",
    "The game is over: every player has passed. The caps stay where they are.",
)
NOBODY_WON: Final = message("chat.nobody-won", "Nobody won.")
WON: Final = message("chat.won", "{winner} won.", words=("winner",))
WON_WITH: Final = plural(
    "chat.won-with",
    "{winner} won with {points} point.",
    "{winner} won with {points} points.",
    count="points",
    words=("winner",),
)
# TRANSLATORS: {winners} is a list of names (list.and).
SHARED: Final = message("chat.shared", "{winners} shared the win.", words=("winners",))
SHARED_WITH: Final = plural(
    "chat.shared-with",
    "{winners} shared the win with {points} point each.",
    "{winners} shared the win with {points} points each.",
    count="points",
    words=("winners",),
)
RESIGNED: Final = message("chat.resigned", "{player} resigned.", words=("player",))
TIMED_OUT: Final = message("chat.timed-out", "{player} ran out of time.", words=("player",))
DRAW_AGREED: Final = message("chat.draw-agreed", "Everyone agreed to end the game in a draw.")
ABANDONED: Final = message("chat.abandoned", "The game was called off.")

# -- the render and the sidebar -----------------------------------------------------------

# TRANSLATORS: the label of a player's collection beside the board.
STASH_LABEL: Final = plural(
    "render.collection",
    "Player {player}'s pyramids ({points} point)",
    "Player {player}'s pyramids ({points} points)",
    count="points",
)
SCORES: Final = message("sidebar.scores", "Scores")

# -- the game's metadata --------------------------------------------------------------------

DESCRIPTION: Final = message(
    "game.description",
    "A set-collection game for 2 to 4 players, designed by Russ Williams for Looney Pyramids. "
    "Sixty pyramids are shuffled onto an 8×8 board, leaving four squares empty. Each player "
    "first places caps on pyramids; then, in turn, a player slides one cap in a straight line "
    "(orthogonally or diagonally) over free pyramids and claims a pyramid in a straight free "
    "line from where it landed. A player with no move passes for the rest of the game. When "
    "everyone has passed, the pyramids under the caps are collected too and collections "
    "score: 7 points for each tree of one colour (small, medium and large), 5 for each mixed "
    "tree and 1 for every other pyramid. The highest score wins.",
)
# TRANSLATORS: the variants' names and descriptions ("variant.<id>.*");
# the default setup is what a game has when no setup variant is chosen.
DEFAULT_SETUP_NAME: Final = message("variant.default-setup.name", "Default setup (empty corners)")
DEFAULT_SETUP_DESCRIPTION: Final = message(
    "variant.default-setup.description", "The four corner squares start empty."
)
HOLE_NAME: Final = message("variant.hole.name", "Center hole")
HOLE_DESCRIPTION: Final = message(
    "variant.hole.description",
    "The four centre squares (d4, e4, d5, e5) start empty instead of the corners.",
)
RANDOM_NAME: Final = message("variant.random.name", "Random gaps")
RANDOM_DESCRIPTION: Final = message(
    "variant.random.description",
    "Four squares chosen at random start empty instead of the corners.",
)
HEY_NAME: Final = message("variant.hey.name", "Simpler captures")
HEY_DESCRIPTION: Final = message(
    "variant.hey.description",
    "After moving a cap you always claim the pyramid on the square it just left; there is no "
    "other choice.",
)
FINALFREE_NAME: Final = message("variant.finalfree.name", "No final captures")
FINALFREE_DESCRIPTION: Final = message(
    "variant.finalfree.description",
    "At the end the pyramids under the caps stay on the board: they are not collected and do "
    "not score.",
)
PIECES_2_NAME: Final = message("variant.pieces-2.name", "2 pieces each")
PIECES_2_DESCRIPTION: Final = message(
    "variant.pieces-2.description", "Each player has two caps instead of three."
)
