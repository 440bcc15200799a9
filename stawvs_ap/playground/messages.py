"""Every word the playground page shows, declared once (see :mod:`stawvs_ap.i18n`).

The page reads them as a table (``GET /messages/LANG``: the templates of
:data:`PAGE_MESSAGES` in one language, with its plural rule) and fills the
placeholders itself. Its ids all begin with ``page.``; the page also takes a
few of the engine's own words (a player's default name, the words that join
a list), so that each is written once. The engine's
sentences the page shows (a refused move's reason, click instructions, the
picture's labels) come from the service in the same language.

>>> PASS.id, PASS.text
('page.button.pass', 'Pass')
>>> "player.name" in PAGE_IDS and all(i.startswith(("page.", "player.", "list."))
...                                   for i in PAGE_IDS)
True
"""

from __future__ import annotations

from typing import Final

from ..core.pyramids import PYRAMIDS
from ..i18n import LIST_AND, LIST_SEPARATOR, PLAYER, Message, message, plural

# -- the page and its header ----------------------------------------------------------

TITLE: Final = message("page.title", "Stawvs playground")
SKIP: Final = message("page.skip", "Skip to the board")
# TRANSLATORS: the label of the menu of the page's languages.
LANGUAGE: Final = message("page.language", "Language")
# TRANSLATORS: the name of your language in your language, as a menu
# item begins ("Deutsch", "Français", "Русский"): the page's language
# menu lists every language by its own name.
LANGUAGE_NAME: Final = message("page.language-name", "English")
NAV_GAME: Final = message("page.nav.game", "Game")
NAV_MOVES: Final = message("page.nav.moves", "Moves")

# -- buttons ----------------------------------------------------------------------------

NEW: Final = message("page.button.new", "New game")
LOAD: Final = message("page.button.load", "Load / save")
# TRANSLATORS: the button that lists the keyboard shortcuts.
HELP: Final = message("page.button.help", "Keys")
# TRANSLATORS: the button that plays the move typed in the move box.
PLAY: Final = message("page.button.play", "Play")
# TRANSLATORS: the button of the move "pass" (a player who cannot move
# passes).
PASS: Final = message("page.button.pass", "Pass")
UNDO: Final = message("page.button.undo", "Undo")
REDO: Final = message("page.button.redo", "Redo")
# TRANSLATORS: the button that plays a random legal move.
RANDOM: Final = message("page.button.random", "Random")
# TRANSLATORS: the button that asks a bot for the best moves.
HINT: Final = message("page.button.hint", "Hint")
ANALYSE: Final = message("page.button.analyse", "Analyse")
# TRANSLATORS: a toggle: each pyramid tinted by the player most
# likely to collect it.
ANALYSIS_CLAIMS: Final = message("page.analysis.claims", "Claim map")
# TRANSLATORS: one line of an analysis: {move} a move, {percent}
# the mover's share of the win after it, {moves} the moves
# expected to follow (move strings).
ANALYSIS_LINE: Final = message("page.analysis.line", "{move}: {percent}% win share — {moves}")
# TRANSLATORS: the same, proven by the solver: {margin} the
# mover's final lead in points with best play, signed (+3, -2, 0).
ANALYSIS_EXACT: Final = message("page.analysis.exact", "{move}: proven {margin} — {moves}")
STATUS_ANALYSING: Final = message("page.status.analysing", "Analysing the position…")
# TRANSLATORS: {line} is a line of the analysis, as
# page.analysis.line says it.
STATUS_ANALYSED: Final = message("page.status.analysed", "Best line: {line}")
# TRANSLATORS: added to a square's name with the claim map shown:
# {player} is the player most likely to collect its pyramid,
# {percent} how likely.
CELL_CLAIM: Final = message("page.cell.claim", "{player} is likely to collect it ({percent}%)")
CANCEL: Final = message("page.button.cancel", "Cancel")
CLOSE: Final = message("page.button.close", "Close")

# -- the board and the move box ------------------------------------------------------------

BOARD: Final = message("page.board.label", "Board")
# TRANSLATORS: what a screen reader calls the board (a game board), in
# lower case.
BOARD_ROLE: Final = message("page.board.role", "board")
BOARD_HELP: Final = message(
    "page.board.help", "Click a square, or focus the board and use the arrow keys and Enter."
)
# TRANSLATORS: {square} is a square such as d5. Enter and Space are keys.
BOARD_CURSOR: Final = message("page.board.cursor", "Square {square}: Enter or Space clicks it.")
# TRANSLATORS: "page.cell.*" make up what a screen reader says of a square
# of the board, after its name and its pyramid (page.pyramid.*), separated
# by commas: "c3, Large blue pyramid, cap of Ann, selected".
CELL_EMPTY: Final = message("page.cell.empty", "no pyramid")
# TRANSLATORS: {player} is a player's name: the cap standing on the square.
CELL_CAP: Final = message("page.cell.cap", "cap of {player}")
# TRANSLATORS: the square is part of the move being built (a cap picked up,
# or where it slides to).
CELL_SELECTED: Final = message("page.cell.selected", "selected")
# TRANSLATORS: after a cap is picked up, said of each square it can slide to.
CELL_DESTINATION: Final = message("page.cell.destination", "the cap can slide here")
# TRANSLATORS: after a cap has slid, said of each pyramid it can claim (take
# into its player's collection) from where it stands.
CELL_TARGET: Final = message("page.cell.target", "can be claimed")
# TRANSLATORS: said when a move has been made, by a person or a bot: {said}
# is what the move did in sentences (the chat.* messages, the mover named in
# them), {move} the move in notation such as c3-f6,f2 (not translated).
SAID_MOVE: Final = message("page.said.move", "{said} ({move})")
# TRANSLATORS: the describe key's words for one player: {player} a name,
# {points} their score worded as page.panel.points, {squares} the squares of
# their caps, separated by commas (a dash when they have none).
DESCRIBE_PLAYER: Final = message("page.describe.player", "{player}: {points}, caps on {squares}.")
# TRANSLATORS: the describe key's words for one row of the board: {rank} is
# its number (8 at the top), {squares} each square as page.cell.* names it,
# separated by semicolons.
DESCRIBE_ROW: Final = message("page.describe.row", "Row {rank}: {squares}.")
MOVE: Final = message("page.move.label", "Move")
# TRANSLATORS: examples of what to type in the move box: keep c3,
# c3-f6,f2 and pass as they are (players type them).
MOVE_PLACEHOLDER: Final = message("page.move.placeholder", "c3, c3-f6,f2 or pass")

# -- the game panel ------------------------------------------------------------------------

PANEL: Final = message("page.panel.heading", "Game")
# TRANSLATORS: {variants} is the list of the game's variants' names.
PANEL_VARIANTS: Final = message("page.panel.variants", "Variants: {variants}")
PANEL_NO_VARIANTS: Final = message("page.panel.no-variants", "No variants")
# TRANSLATORS: a note after a player's name: it is their turn.
PANEL_TO_MOVE: Final = message("page.panel.to-move", "to move")
# TRANSLATORS: a note after a player's name: they have passed (and pass
# at every later turn).
PANEL_PASSED: Final = message("page.panel.passed", "passed")
# TRANSLATORS: a player's score beside their name.
PANEL_POINTS: Final = plural(
    "page.panel.points", "{points} point", "{points} points", count="points"
)
# TRANSLATORS: {winner} is a player's name.
RESULT_WINNER: Final = message("page.result.winner", "Winner: {winner}")
# TRANSLATORS: {winners} are two or more names, joined with list.and.
RESULT_WINNERS: Final = message("page.result.winners", "Winners: {winners}")
RESULT_NOBODY: Final = message("page.result.nobody", "Nobody won.")

# -- seats: who plays each colour ---------------------------------------------------------

SEATS: Final = message("page.seats.heading", "Seats")
# TRANSLATORS: how long a bot thinks about each move, in seconds.
SEATS_THINK: Final = message("page.seats.think", "Think time (s)")
SEATS_PAUSE: Final = message("page.seats.pause", "Pause the bots")
# TRANSLATORS: a checkbox: a letter of each pyramid's colour drawn on it
# (P, B, G, O, as in the codes PI1, BL2...).
SEATS_MARKS: Final = message("page.seats.marks", "Colour letters on pyramids")
# TRANSLATORS: "page.seat.*": who plays a seat, in a menu beside each
# player: a person at this screen, or one of the engine's bots (random,
# greedy, UCT and MCTS are the bots' names).
SEAT_HUMAN: Final = message("page.seat.human", "human")
SEAT_RANDOM: Final = message("page.seat.random", "random bot")
SEAT_GREEDY: Final = message("page.seat.greedy", "greedy bot")
SEAT_UCT: Final = message("page.seat.uct", "UCT bot")
SEAT_MCTS: Final = message("page.seat.mcts", "MCTS bot")

# -- the move list ---------------------------------------------------------------------------

MOVES: Final = message("page.moves.heading", "Moves")
# TRANSLATORS: a ply is one player's move; the slider picks the position
# after one of them.
MOVES_SLIDER: Final = message("page.moves.slider", "Position after ply")
MOVES_PLY: Final = message("page.moves.ply", "Ply {ply} of {plies}")
MOVES_START: Final = message("page.moves.start", "Start of the game")
# TRANSLATORS: the tooltip of a move in the move list: who made it, and
# its number.
MOVES_BY: Final = message("page.moves.by", "{player}, ply {ply}")

# -- the status line ------------------------------------------------------------------------

STATUS_OVER: Final = message("page.status.over", "The game is over.")
STATUS_HISTORY: Final = message(
    "page.status.history",
    "Showing ply {ply} of {plies}: a move from here continues the game from this position.",
)
STATUS_PAUSED: Final = message("page.status.paused", "{player} is a bot, and the bots are paused.")
STATUS_THINKING: Final = message("page.status.thinking", "{player} is thinking…")
# TRANSLATORS: "Pass" is the button page.button.pass: use its words.
STATUS_MUST_PASS: Final = message("page.status.must-pass", "{player} cannot move: press Pass.")
# TRANSLATORS: a cap is a game piece standing on a pyramid.
STATUS_PLACE: Final = message(
    "page.status.place", "{player} to place a cap: click a pyramid without a cap."
)
STATUS_COLLECT: Final = message("page.status.collect", "{player} to move: click one of your caps.")
STATUS_NOT_YOURS: Final = message("page.status.not-yours", "It is a bot's turn.")
STATUS_HINTING: Final = message("page.status.hinting", "Looking for the best moves…")
# TRANSLATORS: {move} is a move such as c3-f6,f2.
STATUS_HINT: Final = message("page.status.hint", "Best move found: {move}")

# TRANSLATORS: a hint when the endgame solver has proven the position:
# {player} is the name of the player to move, {margin} how many points ahead
# of the best of the others they end with best play ("proven": exactly
# computed, not estimated).
HINT_PROVEN_WIN: Final = plural(
    "page.hint.proven-win",
    "{player} wins by {margin} point (proven)",
    "{player} wins by {margin} points (proven)",
    count="margin",
)
HINT_PROVEN_SHARED: Final = message("page.hint.proven-shared", "{player} shares the win (proven)")
HINT_PROVEN_LOSS: Final = plural(
    "page.hint.proven-loss",
    "{player} loses by {margin} point (proven)",
    "{player} loses by {margin} points (proven)",
    count="margin",
)

# -- new game, load and save -----------------------------------------------------------------

NEW_HEADING: Final = message("page.new.heading", "New game")
NEW_PLAYERS: Final = message("page.new.players", "Players")
# TRANSLATORS: the heading of the choice of which squares of the board are
# left empty at the start (one of the variants).
NEW_SETUP: Final = message("page.new.setup", "Empty squares")
NEW_OPTIONS: Final = message("page.new.options", "Variants")
# TRANSLATORS: a seed is the number (or word) the random deal of the
# pyramids starts from.
NEW_SEED: Final = message("page.new.seed", "Seed (the same seed deals the same board)")
NEW_START: Final = message("page.new.start", "Start")
LOAD_HEADING: Final = message("page.load.heading", "Load and save")
# TRANSLATORS: a state is a saved position of a game; a game record lists
# a whole game's moves.
LOAD_PASTE: Final = message("page.load.paste", "Paste a state or a game record")
LOAD_FILE: Final = message("page.load.file", "or open a file")
LOAD_GO: Final = message("page.load.go", "Load")
# TRANSLATORS: JSON is the format of states and records: keep the word.
LOAD_NOT_JSON: Final = message(
    "page.load.not-json", "That is not JSON: paste a state or a game record."
)
SAVE_STATE: Final = message("page.save.state", "Download the state")
SAVE_RECORD: Final = message("page.save.record", "Download the record")
SAVE_SVG: Final = message("page.save.svg", "Download the picture")

# -- keys ----------------------------------------------------------------------------------

HELP_HEADING: Final = message("page.help.heading", "Keys")
# TRANSLATORS: "page.key.*": the names of keys as your language's keyboards
# print them (German keyboards say "Pos1" and "Ende").
KEY_HOME: Final = message("page.key.home", "Home")
KEY_END: Final = message("page.key.end", "End")
KEY_ESCAPE: Final = message("page.key.escape", "Esc")
# TRANSLATORS: "page.keys.*": what each key does, in the list of keys.
KEYS_PLIES: Final = message("page.keys.plies", "show the position one ply earlier or later")
KEYS_ENDS: Final = message("page.keys.ends", "show the start or the latest position")
KEYS_PASS: Final = message("page.keys.pass", "pass")
KEYS_UNDO: Final = message("page.keys.undo", "undo")
KEYS_REDO: Final = message("page.keys.redo", "redo")
KEYS_RANDOM: Final = message("page.keys.random", "play a random move")
KEYS_HINT: Final = message("page.keys.hint", "hint: the best moves as arrows")
KEYS_MOVE: Final = message("page.keys.move", "type a move")
KEYS_BOARD: Final = message("page.keys.board", "go to the board (then arrow keys and Enter)")
KEYS_DESCRIBE: Final = message("page.keys.describe", "describe: read the position aloud")
KEYS_ESCAPE: Final = message("page.keys.escape", "drop the move being built and the hint")
KEYS_NEW: Final = message("page.keys.new", "new game")
KEYS_LOAD: Final = message("page.keys.load", "load or save")
KEYS_HELP: Final = message("page.keys.help", "this list")

# -- pyramids --------------------------------------------------------------------------------

# TRANSLATORS: "page.pyramid.*": a pyramid's name on its own, as a label (the
# tooltip of a pyramid in a player's collection), not inside a sentence.
# Sizes 1-3 are small, medium and large; grey (GH) pyramids are the ghosts
# left at the end.
PYRAMID_LABELS: Final = (
    message("page.pyramid.PI1", "Small pink pyramid"),
    message("page.pyramid.PI2", "Medium pink pyramid"),
    message("page.pyramid.PI3", "Large pink pyramid"),
    message("page.pyramid.BL1", "Small blue pyramid"),
    message("page.pyramid.BL2", "Medium blue pyramid"),
    message("page.pyramid.BL3", "Large blue pyramid"),
    message("page.pyramid.GR1", "Small green pyramid"),
    message("page.pyramid.GR2", "Medium green pyramid"),
    message("page.pyramid.GR3", "Large green pyramid"),
    message("page.pyramid.OR1", "Small orange pyramid"),
    message("page.pyramid.OR2", "Medium orange pyramid"),
    message("page.pyramid.OR3", "Large orange pyramid"),
    message("page.pyramid.GH1", "Small grey pyramid"),
    message("page.pyramid.GH2", "Medium grey pyramid"),
    message("page.pyramid.GH3", "Large grey pyramid"),
)
assert [m.id.rsplit(".", 1)[1] for m in PYRAMID_LABELS] == [p.code for p in PYRAMIDS]

# -- the game review (under the board) ---------------------------------------------------------

# TRANSLATORS: the button that has a bot review the whole game: where it was
# won and lost, move by move.
REVIEW: Final = message("page.button.review", "Review")
# TRANSLATORS: the button that stops a review under way.
REVIEW_STOP: Final = message("page.button.stop-review", "Stop review")
REVIEW_HEADING: Final = message("page.review.heading", "Review")
# TRANSLATORS: {done} and {total} count positions of the game.
REVIEW_PROGRESS: Final = message("page.review.progress", "Reviewing: {done} of {total} positions")
REVIEW_STOPPED: Final = message(
    "page.review.stopped", "Review stopped after {done} of {total} positions."
)
REVIEW_DONE: Final = message(
    "page.review.done", "Review done: click the graph or a marked move to see it."
)
# TRANSLATORS: a player's line under the graph; {accuracy} is from 0 to
# 100 (the % sign follows it); ?!, ? and ?? mark inaccuracies, mistakes and
# blunders, each followed by their count: keep the marks as they are.
REVIEW_ACCURACY: Final = message(
    "page.review.accuracy",
    "{name}: accuracy {accuracy}%, ?! {inaccuracies}, ? {mistakes}, ?? {blunders}",
)
# TRANSLATORS: the labels of the two arrows drawn on a reviewed position: the
# move that was played and the better one the bot found.
REVIEW_PLAYED: Final = message("page.review.played", "played")
REVIEW_BETTER: Final = message("page.review.better", "better")
RETRY: Final = message("page.button.retry", "Retry mistakes")
RETRY_LABEL: Final = message("page.retry.label", "Your move")
RETRY_TRY: Final = message("page.retry.try", "Try")
RETRY_SHOW_BEST: Final = message("page.retry.show-best", "Show the best move")
RETRY_NEXT: Final = message("page.retry.next", "Next")
# TRANSLATORS: {ply} the number of a judged move in the game, {move} the
# move played there.
RETRY_PROMPT: Final = message("page.retry.prompt", "Move {ply}: find a better move than {move}.")
RETRY_FOUND: Final = message("page.retry.found", "Found: {move} is as good as the best move.")
# TRANSLATORS: {loss} is the share of the win the move gives away, in
# per cent.
RETRY_LOSS: Final = message(
    "page.retry.loss", "{move} gives away a share of {loss}%. Try again, or show the best move."
)
RETRY_BEST: Final = message("page.retry.best", "The best move: {move}")
RETRY_DONE: Final = message("page.retry.done", "Retry over: {found} of {total} found.")

# -- errors ----------------------------------------------------------------------------------

ERROR_OFFLINE: Final = message("page.error.offline", "The server cannot be reached.")
ERROR_SERVER: Final = message(
    "page.error.server", "The server gave an answer the page cannot read."
)
ERROR_BUSY: Final = message(
    "page.error.busy", "The server is busy with other searches: try again in a moment."
)
ERROR_PAGE: Final = message("page.error.page", "Something went wrong on this page: reload it.")

#: Every message the page words: its own (``page.*``), a player's default
#: name and the words that join a list.
PAGE_MESSAGES: Final[tuple[Message, ...]] = (
    *(value for value in tuple(globals().values()) if isinstance(value, Message)),
    *PYRAMID_LABELS,
)
#: Their ids: what ``GET /messages/LANG`` sends the templates of.
PAGE_IDS: Final = tuple(sorted({m.id for m in PAGE_MESSAGES}))
assert {PLAYER, LIST_AND, LIST_SEPARATOR} <= set(PAGE_MESSAGES)
