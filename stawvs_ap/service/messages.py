"""Every word the service floor says to people, declared once (see
:mod:`stawvs_ap.i18n`): the refusals of its own methods that a player may
read. The engine's words (verdicts, labels, the chat log) are the host
floor's (:mod:`stawvs_ap.host.messages`); errors of parameters and of the
protocol are for programmers and stay English.
"""

from __future__ import annotations

from typing import Final

from ..i18n import message, plural

# TRANSLATORS: the refusal of taking back {plies} moves when the game has
# only {made}; both are whole numbers ({plies} may be 0).
UNDO_TOO_FAR: Final = plural(
    "service.undo-too-far",
    "There is {made} move to take back, not {plies}.",
    "There are {made} moves to take back, not {plies}.",
    count="made",
)

# TRANSLATORS: one move a hint suggests, wherever hints are shown (the
# command line, the terminal game, the web page): {move} a move such as
# c3-f6,f2, {percent} the share of the win the player can expect after it,
# a whole number from 0 to 100.
HINT_CANDIDATE: Final = message("hint.candidate", "{move}: {percent}% win share")
# TRANSLATORS: the same once caps are collecting: {lead} is the player's lead
# in points after the move over the best opponent, signed with one decimal
# such as +1.8 or -3.0.
HINT_CANDIDATE_LEAD: Final = message(
    "hint.candidate-lead", "{move}: {percent}% win share, lead {lead} points"
)
# TRANSLATORS: said under a hint when the move the bot would play (the one
# its search looked at most, {chosen}) is not the one with the highest share
# of the win: {better} got a higher share, from fewer simulated games
# ("visits"). Both are moves such as c3-f6,f2.
HINT_CHOICE_NOTE: Final = message(
    "hint.choice-note", "chosen: {chosen}, most searched; {better} rated higher on fewer visits"
)
