"""Every word the tools floor says to people: the text board, the SVG picture
and the ``play`` terminal game, declared once (see :mod:`stawvs_ap.i18n`).

Player names and the pyramids' words come from :mod:`stawvs_ap.host.messages`.
Command words a player types (``moves``, ``hint``, ``undo``, ``help``,
``quit``, ``pass``) and move strings stay as they are in every language.
"""

from __future__ import annotations

from typing import Final

from ..i18n import message, plural

# -- the text board (stawvs-ap show) ------------------------------------------------------

TEXT_LAST_MOVE: Final = message("text.last-move", "Last move: {move}")
# TRANSLATORS: a line of the text board: {mark} is the player's cap mark
# such as @1, {collection} the pyramids' codes such as "[PI1 PI2 PI3]=7
# BL2". English says "points" for every number; use your language's forms.
TEXT_PLAYER: Final = plural(
    "text.player",
    "{name} ({mark}): {points} points  {collection}",
    "{name} ({mark}): {points} points  {collection}",
    count="points",
)
TEXT_PLAYER_PASSED: Final = plural(
    "text.player-passed",
    "{name} ({mark}) (passed): {points} points  {collection}",
    "{name} ({mark}) (passed): {points} points  {collection}",
    count="points",
)
TEXT_NOBODY_WON: Final = message("text.nobody-won", "Game over. Winner: nobody.")
TEXT_WINNER: Final = message("text.winner", "Game over. Winner: {winner}.")
# TRANSLATORS: {winners} are two or more names, separated by
# list.separator.
TEXT_WINNERS: Final = message("text.winners", "Game over. Winners: {winners}.")
TEXT_TO_PLACE: Final = message("text.to-place", "{name} to move (placement phase).")
TEXT_TO_COLLECT: Final = message("text.to-collect", "{name} to move (collection phase).")

# -- the SVG picture (stawvs-ap svg) --------------------------------------------------------

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

# -- the play game (stawvs-ap play) -----------------------------------------------------------

# TRANSLATORS: keep the move examples (d5, c3-f6,f2, c3, f6, f2, pass) and
# the command words (moves, hint, undo, help, quit) as they are: players
# type them. Keep the line breaks and the two spaces before each command.
PLAY_HELP: Final = message(
    "play.help",
    "Type a move (d5 to place a cap; c3-f6,f2 to slide from c3 to f6 and claim f2;\n"
    "pass when you cannot move), or a command:\n"
    "  moves   list your legal moves\n"
    "  hint    ask the first bot for a hint\n"
    "  undo    take back your last move (and the bots' answers)\n"
    "  help    show this text\n"
    "  quit    leave the game",
)
# TRANSLATORS: keep the word "help": players type it.
PLAY_WELCOME: Final = message(
    "play.welcome", "Stawvs for {players}: you are player {seat}. Type help for help."
)
# TRANSLATORS: {name} is a bot's name such as "mcts (bot)", {move} a move
# string.
PLAY_BOT_PLAYS: Final = message("play.bot-plays", "Player {player} ({name}) plays {move}.")
PLAY_BYE: Final = message("play.bye", "Bye.")
PLAY_GAME_OVER: Final = message("play.game-over", "The game is over.")
# TRANSLATORS: the prompt: the player types right after it, so keep the
# space at the end.
PLAY_PROMPT: Final = message("play.prompt", "Your move: ")
# TRANSLATORS: {moves} is the list of move strings. English says "moves"
# for every number; use your language's forms.
PLAY_MOVES: Final = plural(
    "play.moves", "{count} legal moves: {moves}", "{count} legal moves: {moves}", count="count"
)
# TRANSLATORS: {candidates} is a list of play.hint-candidate, separated by
# list.separator.
PLAY_HINT: Final = message("play.hint", "Hint: {candidates}")
# TRANSLATORS: a move the bot suggests and how likely it thinks it wins,
# such as "c3-f6,f2 (62%)".
PLAY_HINT_CANDIDATE: Final = message("play.hint-candidate", "{move} ({percent}%)")
# TRANSLATORS: {message} is the verdict on the move, {code} its code such
# as BAD_MOVE (not translated); keep the command words moves and help.
PLAY_ILLEGAL: Final = message(
    "play.illegal",
    "Not a legal move: {message} [{code}] (type moves for the legal moves, help for help)",
)
# TRANSLATORS: {limit} is a number of characters, such as 4096.
PLAY_TOO_LONG: Final = message(
    "play.too-long", "That line is too long ({limit} characters at most): it is ignored."
)
PLAY_NO_UNDO: Final = message("play.no-undo", "There is no move of yours to take back.")
PLAY_TAKEN_BACK: Final = message("play.taken-back", "Taken back.")
# TRANSLATORS: the player's own name in the play game.
PLAY_YOU: Final = message("play.you", "You")
# TRANSLATORS: a bot's name: {name} is random, greedy, mcts or uct (not
# translated).
PLAY_BOT_NAME: Final = message("play.bot-name", "{name} (bot)")
