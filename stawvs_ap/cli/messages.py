"""Every word the command line's floor says to people, declared once (see
:mod:`stawvs_ap.i18n`): the ``play`` terminal game. The pictures' words (the
text board, the SVG) are in :mod:`stawvs_ap.pictures.messages`; the verdicts
on moves come from :mod:`stawvs_ap.host.messages`.

Command words a player types (``moves``, ``hint``, ``undo``, ``save``,
``resign``, ``help``, ``quit``, ``pass``), square names, cap marks such as
``@1``, move strings and bots' names stay as they are in every language.
"""

from __future__ import annotations

from typing import Final

from ..i18n import message, plural

# -- the commands' outputs ---------------------------------------------------------------

# TRANSLATORS: the one line a command prints after writing the files given
# with -o (or --svg, --render, --records); {files} is their names, separated
# by commas, written as given.
WROTE: Final = message("cli.wrote", "wrote {files}")

# TRANSLATORS: shown at a terminal while a bot searches for a move or a hint
# for more than a moment; the line is erased when it answers.
THINKING: Final = message("cli.thinking", "Thinking…")

# -- the play game (stawvs-ap play): the game's course ---------------------------------------

# TRANSLATORS: the first line of a new game; {seat} is the player's number,
# @{seat} their cap mark. Keep the word "help": players type it.
PLAY_INTRO: Final = plural(
    "play.intro",
    "Stawvs for {players} player: you are player {seat} (@{seat}). Type help for the commands.",
    "Stawvs for {players} players: you are player {seat} (@{seat}). Type help for the commands.",
    count="players",
)
# TRANSLATORS: the first line of a game resumed from a saved file; {moves} is
# the number of moves played so far.
PLAY_RESUMED: Final = plural(
    "play.resumed",
    "Resumed after {moves} move: you are player {seat} (@{seat}).",
    "Resumed after {moves} moves: you are player {seat} (@{seat}).",
    count="moves",
)
# TRANSLATORS: the prompt: the player types right after it, so keep the
# space at the end.
PLAY_PROMPT: Final = message("play.prompt", "Your move: ")
# TRANSLATORS: {name} is a bot's name such as "mcts" or "mcts #2", @{player}
# its cap mark, {move} a move string such as c3-f6,f2.
PLAY_BOT_PLAYS: Final = message("play.bot-plays", "{name} (@{player}) plays {move}.")
# TRANSLATORS: shown while a bot searches for its move for more than a
# moment, erased when it plays; {name} and @{player} as in play.bot-plays.
PLAY_THINKING: Final = message("play.thinking", "{name} (@{player}) is thinking…")
# TRANSLATORS: a bot whose caps cannot move passes (it will pass from now on).
PLAY_BOT_PASSES: Final = message("play.bot-passes", "{name} (@{player}) has no move and passes.")
# TRANSLATORS: an external engine that did not answer within its time loses.
PLAY_BOT_TIMEOUT: Final = message(
    "play.bot-timeout", "{name} (@{player}) loses the game: it did not answer in time."
)
# TRANSLATORS: an external engine that answered wrongly or stopped loses;
# {reason} is what went wrong, in the engine protocol's English (such as
# "it exited (1)"), for the engine's author.
PLAY_BOT_FORFEIT: Final = message(
    "play.bot-forfeit", "{name} (@{player}) loses the game by forfeit: {reason}"
)
PLAY_YOU_PASS: Final = message("play.you-pass", "You have no move: you pass.")
PLAY_YOU_WIN: Final = message("play.you-win", "You win!")
PLAY_YOU_SHARE: Final = message("play.you-share", "You share the win.")
PLAY_YOU_LOSE: Final = message("play.you-lose", "You lose.")
PLAY_RESIGNED: Final = message("play.resigned", "You resign.")
PLAY_BYE: Final = message("play.bye", "Bye.")
# TRANSLATORS: the player's own name on the board and in the record, unless
# they give one with --name.
PLAY_YOU: Final = message("play.you", "You")

# -- the play game: what the player typed ------------------------------------------------------

# TRANSLATORS: keep the move examples (d5, c3-f6,f2, c3, c3-f6, f2), the
# command words (moves, hint, undo, save, resign, help, quit) and FILE as
# they are: players type them. Keep the line breaks and the columns.
PLAY_HELP: Final = message(
    "play.help",
    "Type a move, or a command (Tab completes moves and commands, Up recalls a line):\n"
    "  d5            place a cap on d5 (placement phase)\n"
    "  c3-f6,f2      slide your cap from c3 to f6 and claim the pyramid on f2;\n"
    "                c3 alone shows where that cap can go, c3-f6 what it can claim there\n"
    "  moves         your caps and where they can go;  moves c3  one cap's moves and claims\n"
    "  hint          ask a bot for the best moves\n"
    "  undo          take back your last move (and the bots' answers)\n"
    "  save FILE     save the game; stawvs-ap play FILE resumes it\n"
    "  resign        give up the game\n"
    "  help          show this text\n"
    "  quit          leave the game (Ctrl-D does too)",
)
# TRANSLATORS: a refused move with --verbose: {message} is why (already in
# your language), {code} its code such as BAD_MOVE (not translated).
PLAY_REFUSED_CODE: Final = message("play.refused-with-code", "{message} [{code}]")
# TRANSLATORS: {limit} is a number of characters, such as 4096.
PLAY_TOO_LONG: Final = message(
    "play.too-long", "That line is too long ({limit} characters at most): it is ignored."
)
# TRANSLATORS: {squares} are square names such as "a1 b2 c3".
PLAY_PLACE_SQUARES: Final = plural(
    "play.place-squares",
    "You can place a cap on {count} square: {squares}",
    "You can place a cap on {count} squares: {squares}",
    count="count",
)
# TRANSLATORS: {caps} is a list of play.cap-reach, separated by
# list.separator. Keep "moves SQUARE": players type moves and a square.
PLAY_CAPS: Final = message(
    "play.caps",
    "Your caps can move: {caps}. Type moves SQUARE for one cap's moves.",
    words=("caps",),
)
# TRANSLATORS: one cap in play.caps: the square it stands on, how many
# squares it can slide to, and {moves}, a play.move-count.
PLAY_CAP_REACH: Final = plural(
    "play.cap-reach",
    "{square} ({count} square, {moves})",
    "{square} ({count} squares, {moves})",
    count="count",
    words=("moves",),
)
PLAY_MOVE_COUNT: Final = plural("play.move-count", "{count} move", "{count} moves", count="count")
# TRANSLATORS: the head of the list of a cap's slides; each slide follows on
# a line of its own (play.slide-claims).
PLAY_CAP_SLIDES: Final = plural(
    "play.cap-slides",
    "Your cap on {square} can slide to {count} square:",
    "Your cap on {square} can slide to {count} squares:",
    count="count",
)
# TRANSLATORS: when every slide claims the same pyramids ({targets}, square
# names), as with the hey variant; {squares} are where the cap can slide.
PLAY_CAP_SLIDES_CLAIMING: Final = plural(
    "play.cap-slides-claiming",
    "Your cap on {square} can slide to {count} square, claiming {targets} from each: {squares}",
    "Your cap on {square} can slide to {count} squares, claiming {targets} from each: {squares}",
    count="count",
)
# TRANSLATORS: one line of the list after play.cap-slides: a slide such as
# c3-f6 and the squares it can claim from there. Keep the two spaces.
PLAY_SLIDE_CLAIMS: Final = message("play.slide-claims", "{slide}  claims {targets}")
# TRANSLATORS: after a slide typed without its claim; {example} is a whole
# move such as c3-f6,f2 (typed as it is).
PLAY_CLAIMS_FROM: Final = message(
    "play.claims-from", "From {dest} your cap can claim {targets}: type {example} or another."
)
# TRANSLATORS: a slide typed without its claim when only one claim is
# possible: {move} is the whole move played.
PLAY_FORCED_CLAIM: Final = message(
    "play.forced-claim", "The only pyramid it can claim is on {target}: playing {move}."
)
PLAY_NO_CAP: Final = message("play.no-cap", "There is no cap of yours on {square}.")
PLAY_CAP_STUCK: Final = message("play.cap-stuck", "Your cap on {square} cannot move.")
# TRANSLATORS: {candidates} is a list of hint.candidate, separated by
# list.separator.
PLAY_HINT: Final = message("play.hint", "Hint: {candidates}")
PLAY_NO_UNDO: Final = message("play.no-undo", "There is no move of yours to take back.")
PLAY_TAKEN_BACK: Final = message("play.taken-back", "Taken back.")

# -- the play game: files ------------------------------------------------------------------------

PLAY_SAVED: Final = message("play.saved", "Saved the game to {path}.")
# TRANSLATORS: {command} is a command line to type, such as "stawvs-ap play
# game.json --seat 1 --bot mcts" (not translated).
PLAY_RESUME_WITH: Final = message("play.resume-with", "To go on later: {command}")
# TRANSLATORS: {why} is the file error, as the command line words it.
PLAY_NOT_SAVED: Final = message("play.not-saved", "Not saved: {why}")
# TRANSLATORS: keep "save FILE": players type save and a file name.
PLAY_SAVE_WHERE: Final = message("play.save-where", "Not saved: give a file name: save FILE")
PLAY_RECORD_WRITTEN: Final = message("play.record-written", "The game's record is in {path}.")
PLAY_NO_RECORD: Final = message(
    "play.no-record", "The game is not over: no record written to {path}."
)

# -- stawvs-ap review: the table of a game review -------------------------------------------------

# TRANSLATORS: the first line of a review; {bot} is a bot spec such as
# mcts:iterations=2000 (keep it as it is), {seconds} the time the review took.
REVIEW_HEADING: Final = message("review.heading", "Review by {bot}, in {seconds} s")
# TRANSLATORS: the heads of the review table's columns: the ply's number, the
# player who moved, the move played, the better move the bot found, and the
# share of the win the move lost.
REVIEW_COLUMN_PLY: Final = message("review.column-ply", "ply")
REVIEW_COLUMN_PLAYER: Final = message("review.column-player", "player")
REVIEW_COLUMN_MOVE: Final = message("review.column-move", "move")
REVIEW_COLUMN_BETTER: Final = message("review.column-better", "better")
REVIEW_COLUMN_LOSS: Final = message("review.column-loss", "loss")
# TRANSLATORS: a player's summary under the table: {accuracy} from 0 to 100
# (the % sign follows it); ?!, ? and ?? mark inaccuracies, mistakes and
# blunders, each followed by their count: keep the marks as they are.
REVIEW_SUMMARY: Final = message(
    "review.summary",
    "{name}: accuracy {accuracy}%, ?! {inaccuracies}, ? {mistakes}, ?? {blunders}",
)
# TRANSLATORS: as review.summary, for a player who made no move to judge.
REVIEW_SUMMARY_NO_MOVES: Final = message("review.summary-no-moves", "{name}: no move to judge")

# -- stawvs-ap solve: the endgame solver's verdict -------------------------------------------------

# TRANSLATORS: the exact value of a position: {player} is a player's name
# ("Player 2" or a record's name), {margin} how many points more than the
# best of the others they end with, whatever the others play.
SOLVE_WIN: Final = plural(
    "solve.win",
    "{player} wins by {margin} point with best play",
    "{player} wins by {margin} points with best play",
    count="margin",
    words=("player",),
)
# TRANSLATORS: with best play {player} ends level with the best of the others.
SOLVE_SHARED: Final = message(
    "solve.shared", "{player} shares the win with best play", words=("player",)
)
# TRANSLATORS: {margin} is how many points {player} ends behind the best of
# the others when the others play their best.
SOLVE_LOSS: Final = plural(
    "solve.loss",
    "{player} loses by {margin} point with best play",
    "{player} loses by {margin} points with best play",
    count="margin",
    words=("player",),
)
# TRANSLATORS: with three or four players: {verdict} is one of solve.win,
# solve.shared, solve.loss, found assuming that all the other players play
# together against the player.
SOLVE_TOGETHER: Final = message(
    "solve.together", "{verdict}, the others playing together", words=("verdict",)
)
# TRANSLATORS: {verdict} is one of solve.win, solve.shared, solve.loss (or
# solve.together), {moves} the moves of best play from here, such as
# "d5-e6,e7 pass c2-c3,c4" (not translated).
SOLVE_LINE: Final = message("solve.line", "{verdict}: {moves}", words=("verdict",))
# TRANSLATORS: the solver ran out of time: {seconds} its time limit, {nodes}
# the number of positions it looked at.
SOLVE_UNPROVEN: Final = message(
    "solve.unproven", "Not proven within {seconds} s ({nodes} positions searched)."
)
# TRANSLATORS: as solve.unproven, and what was proven on the way: {player}
# can make sure of ending at least {bound} points ahead of the best of the
# others (a signed number such as +2 or -3; negative: at most that far
# behind) by playing {move}.
SOLVE_UNPROVEN_BOUND: Final = message(
    "solve.unproven-bound",
    "Not proven within {seconds} s ({nodes} positions searched); {player} is sure of a "
    "margin of at least {bound} by playing {move}.",
    words=("player",),
)
# TRANSLATORS: as solve.unproven, when the solver stopped at the number of
# positions it was allowed to look at ({nodes}), not at its time limit.
SOLVE_UNPROVEN_NODES: Final = plural(
    "solve.unproven-nodes",
    "Not proven within {nodes} position searched.",
    "Not proven within {nodes} positions searched.",
    count="nodes",
)
# TRANSLATORS: as solve.unproven-bound, when the solver stopped at the number
# of positions it was allowed to look at ({nodes}), not at its time limit.
SOLVE_UNPROVEN_NODES_BOUND: Final = plural(
    "solve.unproven-nodes-bound",
    "Not proven within {nodes} position searched; {player} is sure of a margin of at "
    "least {bound} by playing {move}.",
    "Not proven within {nodes} positions searched; {player} is sure of a margin of at "
    "least {bound} by playing {move}.",
    count="nodes",
    words=("player",),
)
