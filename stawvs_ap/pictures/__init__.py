"""Pictures of a position: the SVG drawing and the text diagram.

>>> from stawvs_ap import StawvsGame
>>> from stawvs_ap.pictures import board_svg, board_text
>>> game = StawvsGame.new(2, seed=1)
>>> board_svg(game).startswith("<svg")
True
>>> board_text(game).splitlines()[-1]
'Player 1 to move (placement phase).'
"""

from __future__ import annotations

from .svg import board_svg
from .textboard import board_text

__all__ = ["board_svg", "board_text"]
