"""Every word the service floor says to people, declared once (see
:mod:`stawvs_ap.i18n`): the refusals of its own methods that a player may
read. The engine's words (verdicts, labels, the chat log) are the host
floor's (:mod:`stawvs_ap.host.messages`); errors of parameters and of the
protocol are for programmers and stay English.
"""

from __future__ import annotations

from typing import Final

from ..i18n import plural

# TRANSLATORS: the refusal of taking back {plies} moves when the game has
# only {made}; both are whole numbers ({plies} may be 0).
UNDO_TOO_FAR: Final = plural(
    "service.undo-too-far",
    "There is {made} move to take back, not {plies}.",
    "There are {made} moves to take back, not {plies}.",
    count="made",
)
