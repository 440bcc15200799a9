"""A standalone SVG picture of a position, for people without a game host.

:func:`board_svg` draws the board with its coordinates, the pyramids (colour by
fill, size by triangle size and by 1–3 pips, as on real Looney Pyramids), the
caps in player colours, the grey ghosts left by final captures, the last move
(an arrow from FROM to TO, a ✘ on the claimed square and a dashed line to it;
a ring around a placement), and below the board each player's collection
grouped into trees with the score. Standard library only; the output depends
on nothing but the position shown, so the same position gives the same bytes.

For a page to play on, :func:`board_svg` also draws (each only when asked, so
the plain picture stays as it is): a transparent square on top of each square
carrying ``data-square="c3"`` for clicks, a letter of each pyramid's colour
so that colours are told apart without hue, the squares a partial move can go
to next, and labelled arrows for candidate moves (a hint).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from ..core.moves import Move, MoveSyntaxError
from ..core.position import EMPTY, Position
from ..core.pyramids import PYRAMIDS
from ..core.scoring import group_collection, score, tree_points
from ..core.squares import FILES, SQUARE_NAMES, Square
from ..errors import ErrorCode, StawvsError, excerpt
from ..host.game import StawvsGame
from ..i18n import LIST_SEPARATOR, Catalogue, Phrase, catalogue
from . import messages as m
from .textboard import player_labels, shown_by

__all__ = ["CAP_COLOURS", "HIGHLIGHTS", "PYRAMID_COLOURS", "board_svg"]

#: Fill colours of the pyramid colours PI, BL, GR, OR, then of the grey ghosts.
PYRAMID_COLOURS: Final[tuple[str, ...]] = ("#f06292", "#1e88e5", "#43a047", "#fb8c00", "#c4c4c4")
_PYRAMID_OUTLINES: Final[tuple[str, ...]] = ("#ad1457", "#0d47a1", "#1b5e20", "#e65100", "#8a8a8a")
#: Cap colours of players 1–4 (fill, outline, number), chosen to stand apart
#: from the pyramid colours: black, white, purple, yellow.
CAP_COLOURS: Final[tuple[tuple[str, str, str], ...]] = (
    ("#212121", "#ffffff", "#ffffff"),
    ("#ffffff", "#212121", "#212121"),
    ("#6a1b9a", "#ffffff", "#ffffff"),
    ("#ffeb3b", "#212121", "#212121"),
)
_LIGHT_SQUARE: Final = "#f3ead8"
_DARK_SQUARE: Final = "#e2d4b7"
_MOVE_COLOUR: Final = "#c62828"
_HIGHLIGHT: Final = "#fff176"
#: Board triangle width per size, as a fraction of a square.
_TRIANGLE_WIDTH: Final = {1: 0.40, 2: 0.60, 3: 0.82}
_HINT_COLOUR: Final = "#1565c0"
_MARK_INK: Final = "#ffffff"
_MARK_HALO: Final = "#212121"
#: The kinds of squares a page can ask to be highlighted, and how each is drawn
#: (a shape each, so that none depends on colour alone): the square a move
#: starts from (a thick frame), where it can go (a dot), what it can claim
#: (a dashed ring).
HIGHLIGHTS: Final = ("selected", "destinations", "targets")
_MIN_SIZE: Final = 240
_MAX_SIZE: Final = 4000


def _num(value: float) -> str:
    """A coordinate with at most one decimal, so output is short and stable."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _text(x: float, y: float, content: str, **attrs: str | float) -> str:
    # A trailing underscore lets a keyword name an attribute such as class;
    # numbers need no quoting (a page redraws the board on every click).
    extra = "".join(
        f" {key.rstrip('_').replace('_', '-')}="
        + (f'"{_num(v)}"' if isinstance(v, float) else quoteattr(str(v)))
        for key, v in attrs.items()
    )
    return f'<text x="{_num(x)}" y="{_num(y)}"{extra}>{escape(content)}</text>'


class _Canvas:
    """The geometry of one picture: where the board and each square are."""

    def __init__(self, size: int) -> None:
        self.width = size
        self.margin = size * 0.06
        self.top = size * 0.09  # room for the status line above the board
        self.square = (size - 2 * self.margin) / 8

    def corner(self, sq: int) -> tuple[float, float]:
        return (
            self.margin + (sq & 7) * self.square,
            self.top + (sq >> 3) * self.square,
        )

    def centre(self, sq: int) -> tuple[float, float]:
        x, y = self.corner(sq)
        return x + self.square / 2, y + self.square / 2

    @property
    def board_bottom(self) -> float:
        return self.top + 8 * self.square


def _triangle(
    cx: float, base_y: float, width: float, pyramid: int, *, pips: bool, mark: bool = False
) -> list[str]:
    """An upward triangle of ``pyramid``'s colour standing on ``base_y``; with
    ``mark``, the first letter of its colour code on it (not on ghosts)."""
    colour = pyramid // 3
    height = width * 1.05
    points = (
        f"{_num(cx - width / 2)},{_num(base_y)} {_num(cx + width / 2)},{_num(base_y)} "
        f"{_num(cx)},{_num(base_y - height)}"
    )
    dash = ' stroke-dasharray="3 2"' if PYRAMIDS[pyramid].is_ghost else ""
    out = [
        f'<polygon class="pyramid" data-code="{PYRAMIDS[pyramid].code}" '
        f'points="{points}" fill="{PYRAMID_COLOURS[colour]}" '
        f'stroke="{_PYRAMID_OUTLINES[colour]}" stroke-width="{_num(max(1.0, width / 30))}"'
        f' stroke-linejoin="round"{dash}/>'
    ]
    if pips:
        # Real pyramids carry one, two or three pips near the base.
        size = pyramid % 3 + 1
        radius = max(1.2, width * 0.06)
        gap = radius * 3
        y = base_y - radius * 2.2
        for i in range(size):
            x = cx + (i - (size - 1) / 2) * gap
            out.append(
                f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(radius)}" '
                f'fill="#ffffff" fill-opacity="0.9"/>'
            )
    if mark and not PYRAMIDS[pyramid].is_ghost:
        font = width * 0.34
        # Above the pips on the board; low in a collection, where the next
        # pyramid of the stack covers the upper half.
        out.append(
            _text(
                cx,
                base_y - height * (0.42 if pips else 0.08),
                PYRAMIDS[pyramid].code[0],
                font_size=font,
                text_anchor="middle",
                font_weight="bold",
                fill=_MARK_INK,
                stroke=_MARK_HALO,
                stroke_width=max(0.6, font * 0.12),
                paint_order="stroke",
                class_="colour-mark",
            )
        )
    return out


def _cap(cx: float, cy: float, radius: float, player: int) -> list[str]:
    fill, outline, ink = CAP_COLOURS[(player - 1) % len(CAP_COLOURS)]
    return [
        f'<circle class="cap" data-player="{player}" cx="{_num(cx)}" cy="{_num(cy)}" '
        f'r="{_num(radius)}" fill="{fill}" stroke="{outline}" '
        f'stroke-width="{_num(max(1.0, radius * 0.22))}"/>',
        f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(radius * 1.12)}" fill="none" '
        f'stroke="#212121" stroke-width="1"/>',
        _text(
            cx,
            cy + radius * 0.42,
            str(player),
            font_size=radius * 1.15,
            text_anchor="middle",
            font_weight="bold",
            fill=ink,
        ),
    ]


def _board(canvas: _Canvas, position: Position) -> list[str]:
    sq_size = canvas.square
    out = ['<g class="board" font-family="sans-serif">']
    for sq in range(64):
        x, y = canvas.corner(sq)
        light = ((sq >> 3) + (sq & 7)) % 2 == 0
        out.append(
            f'<rect class="square" x="{_num(x)}" y="{_num(y)}" width="{_num(sq_size)}" '
            f'height="{_num(sq_size)}" fill="{_LIGHT_SQUARE if light else _DARK_SQUARE}"/>'
        )
    left, top = canvas.margin, canvas.top
    out.append(
        f'<rect x="{_num(left)}" y="{_num(top)}" width="{_num(8 * sq_size)}" '
        f'height="{_num(8 * sq_size)}" fill="none" stroke="#5d4037" stroke-width="2"/>'
    )
    font = sq_size * 0.28
    for i in range(8):
        out.append(
            _text(
                left - font * 0.8,
                top + (i + 0.5) * sq_size + font * 0.35,
                str(8 - i),
                font_size=font,
                text_anchor="middle",
                fill="#5d4037",
            )
        )
        out.append(
            _text(
                left + (i + 0.5) * sq_size,
                canvas.board_bottom + font * 1.2,
                FILES[i],
                font_size=font,
                text_anchor="middle",
                fill="#5d4037",
            )
        )
    out.append("</g>")
    return out


def _pieces(canvas: _Canvas, position: Position, *, marks: bool = False) -> list[str]:
    sq_size = canvas.square
    out = ['<g class="pieces" font-family="sans-serif">']
    for sq in range(64):
        pyramid = position.board[sq]
        if pyramid == EMPTY:
            continue
        cx, cy = canvas.centre(sq)
        base = cy + sq_size * 0.4
        width = sq_size * _TRIANGLE_WIDTH[pyramid % 3 + 1]
        out.extend(_triangle(cx, base, width, pyramid, pips=True, mark=marks))
        player = position.caps[sq]
        if player:
            # The cap sits on the apex (kept inside the square), leaving the coloured
            # body and the pips visible.
            radius = sq_size * 0.17
            apex = base - width * 1.05
            top = cy - sq_size / 2
            out.extend(
                _cap(cx, max(apex - radius * 0.4, top + radius + sq_size * 0.03), radius, player)
            )
    out.append("</g>")
    return out


def _last_move(canvas: _Canvas, move: Move | None) -> list[str]:
    if move is None:
        return []
    sq_size = canvas.square
    if move.source is not None and move.dest is None:
        x, y = canvas.corner(move.source)
        inset = sq_size * 0.05
        return [
            f'<rect class="placement" x="{_num(x + inset)}" y="{_num(y + inset)}" '
            f'width="{_num(sq_size - 2 * inset)}" height="{_num(sq_size - 2 * inset)}" '
            f'rx="{_num(sq_size * 0.12)}" fill="none" stroke="{_MOVE_COLOUR}" '
            f'stroke-width="{_num(sq_size * 0.06)}"/>'
        ]
    if move.source is None or move.dest is None or move.target is None:
        return []
    return _move_arrow(canvas, move)


def _move_arrow(canvas: _Canvas, move: Move) -> list[str]:
    assert move.source is not None and move.dest is not None and move.target is not None
    sq_size = canvas.square
    (x1, y1), (x2, y2) = canvas.centre(move.source), canvas.centre(move.dest)
    tx, ty = canvas.centre(move.target)
    # Stop the arrow short of TO's centre so its head does not hide the cap.
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    shorten = sq_size * 0.3
    hx, hy = x2 - (x2 - x1) / length * shorten, y2 - (y2 - y1) / length * shorten
    width = sq_size * 0.07
    return [
        '<g class="last-move" font-family="sans-serif">',
        f'<line class="claim-line" x1="{_num(x2)}" y1="{_num(y2)}" x2="{_num(tx)}" '
        f'y2="{_num(ty)}" stroke="{_MOVE_COLOUR}" stroke-width="{_num(width * 0.6)}" '
        f'stroke-dasharray="{_num(width * 1.5)} {_num(width)}" stroke-opacity="0.8"/>',
        f'<line class="move-arrow" x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(hx)}" '
        f'y2="{_num(hy)}" stroke="{_MOVE_COLOUR}" stroke-width="{_num(width)}" '
        f'stroke-opacity="0.8" stroke-linecap="round" marker-end="url(#arrowhead)"/>',
        f'<circle class="claimed" cx="{_num(tx)}" cy="{_num(ty)}" r="{_num(sq_size * 0.36)}" '
        f'fill="#ffffff" fill-opacity="0.6" stroke="{_MOVE_COLOUR}" '
        f'stroke-width="{_num(width * 0.5)}"/>',
        _text(
            tx,
            ty + sq_size * 0.17,
            "\u2718",
            font_size=sq_size * 0.5,
            text_anchor="middle",
            fill=_MOVE_COLOUR,
        ),
        "</g>",
    ]


def _highlights(canvas: _Canvas, move: Move | None) -> list[str]:
    """Tint FROM and TO of the last collection move, as chess diagrams do."""
    if move is None or move.dest is None or move.source is None:
        return []
    out = []
    for sq in (move.source, move.dest):
        x, y = canvas.corner(sq)
        out.append(
            f'<rect class="highlight" x="{_num(x)}" y="{_num(y)}" width="{_num(canvas.square)}" '
            f'height="{_num(canvas.square)}" fill="{_HIGHLIGHT}" fill-opacity="0.55"/>'
        )
    return out


def _stack_height(unit: float, stack: Sequence[int]) -> float:
    """How tall :func:`_stack` draws ``stack``: each pyramid rises half its height above
    the one below, and the top one shows whole."""
    heights = [unit * _TRIANGLE_WIDTH[p % 3 + 1] * 1.05 for p in stack]
    return sum(h * 0.5 for h in heights[:-1]) + heights[-1]


def _stack(
    cx: float, base_y: float, unit: float, stack: Sequence[int], *, marks: bool = False
) -> list[str]:
    """A collection stack drawn as a tree: large at the bottom, smaller ones above."""
    out: list[str] = []
    y = base_y
    for pyramid in stack:
        width = unit * _TRIANGLE_WIDTH[pyramid % 3 + 1]
        out.extend(_triangle(cx, y, width, pyramid, pips=False, mark=marks))
        y -= width * 1.05 * 0.5
    return out


def _collections(
    canvas: _Canvas,
    position: Position,
    names: Sequence[str],
    y: float,
    words: Catalogue,
    *,
    marks: bool = False,
) -> tuple[list[str], float]:
    """Each player's score and trees from ``y`` down; returns the elements and the new ``y``."""
    sq_size = canvas.square
    unit = sq_size * 0.85  # the width a large pyramid's triangle is scaled from
    slot = unit * 0.9  # horizontal room of one stack
    per_line = max(1, int((canvas.width - 2 * canvas.margin) // slot))
    font = sq_size * 0.3
    out = ['<g class="collections" font-family="sans-serif">']
    for player, collection in enumerate(position.captured, start=1):
        points = score(collection)
        y += font * 1.6
        out.extend(_cap(canvas.margin + font * 0.6, y - font * 0.35, font * 0.6, player))
        wording = m.SVG_PLAYER_PASSED if player in position.eliminated else m.SVG_PLAYER
        label = words.say(Phrase(wording, {"name": names[player - 1], "points": points}))
        out.append(_text(canvas.margin + font * 1.6, y, label, font_size=font, fill="#212121"))
        stacks = group_collection(collection)
        if not stacks:
            y += font * 0.6
            continue
        for start in range(0, len(stacks), per_line):
            line = stacks[start : start + per_line]
            y += max(_stack_height(unit, stack) for stack in line) + font * 0.4
            for i, stack in enumerate(line):
                cx = canvas.margin + slot * (0.5 + i)
                out.extend(_stack(cx, y, unit, stack, marks=marks))
                if len(stack) == 3:
                    out.append(
                        _text(
                            cx,
                            y + font * 0.95,
                            str(tree_points(stack)),
                            font_size=font * 0.75,
                            text_anchor="middle",
                            fill="#424242",
                        )
                    )
            y += font * (1.0 if any(len(stack) == 3 for stack in line) else 0.3)
    out.append("</g>")
    return out, y


def _status(
    position: Position, winners: Sequence[int] | None, names: Sequence[str], words: Catalogue
) -> str:
    if winners is not None:
        if not winners:
            return words.say(m.SVG_NOBODY_WON)
        if len(winners) == 1:
            return words.say(Phrase(m.SVG_WINNER, {"winner": names[winners[0] - 1]}))
        shown = words.say(LIST_SEPARATOR).join(names[p - 1] for p in winners)
        return words.say(Phrase(m.SVG_WINNERS, {"winners": shown}))
    to_move = m.SVG_TO_PLACE if position.mode == "place" else m.SVG_TO_COLLECT
    return words.say(Phrase(to_move, {"name": names[position.currplayer - 1]}))


def _arrow(canvas: _Canvas, source: int, dest: int) -> list[str]:
    sq_size = canvas.square
    (x1, y1), (x2, y2) = canvas.centre(source), canvas.centre(dest)
    return [
        f'<line class="arrow" x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
        f'stroke="{_HINT_COLOUR}" stroke-width="{_num(sq_size * 0.08)}" stroke-opacity="0.7" '
        'stroke-linecap="round" marker-end="url(#arrowhead)"/>'
    ]


def _square(value: int | str) -> int:
    """A square given by number (0 is a8) or by name (``"c3"``, any case)."""
    try:
        if isinstance(value, str):
            return Square.parse(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64:
            return value
    except ValueError:
        pass
    raise StawvsError(ErrorCode.BAD_ARGUMENT, f"{excerpt(value, 20)} is not a square")


def _hint(canvas: _Canvas, move: Move) -> list[str]:
    """A candidate move: an arrow FROM→TO and a dot on its target, or a ring
    around a placement."""
    if move.source is None:
        return []
    sq_size = canvas.square
    out = [f'<g class="hint" data-move="{move}">']
    if move.dest is None:
        cx, cy = canvas.centre(move.source)
        out.append(
            f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(sq_size * 0.42)}" fill="none" '
            f'stroke="{_HINT_COLOUR}" stroke-width="{_num(sq_size * 0.07)}" '
            'stroke-opacity="0.8"/>'
        )
    else:
        out.extend(_arrow(canvas, move.source, move.dest))
        if move.target is not None:
            tx, ty = canvas.centre(move.target)
            out.append(
                f'<circle class="hint-target" cx="{_num(tx)}" cy="{_num(ty)}" '
                f'r="{_num(sq_size * 0.12)}" fill="{_HINT_COLOUR}" fill-opacity="0.8"/>'
            )
    out.append("</g>")
    return out


#: The part of a square's width a hint label may take, from its left or right
#: edge: a large pyramid and a cap keep to the middle third down to this depth.
_LABEL_WIDTH: Final = 0.32
_LABEL_DEPTH: Final = 0.37


def _hint_labels(canvas: _Canvas, hints: Sequence[tuple[Move, str]]) -> list[str]:
    """Each candidate's label on the square its move ends on, in the free corners
    beside the pyramid and its cap (top left, top right, then the same a line
    lower), its text made small enough to keep there: a label never covers a
    pyramid. Drawn over every arrow."""
    out = ['<g class="hint-labels" font-family="sans-serif">']
    ends: list[int] = []
    for move, label in hints:
        end = move.dest if move.dest is not None else move.source
        if end is None or not label:
            continue
        slot = ends.count(end)
        ends.append(end)
        if slot >= 4:
            continue  # no free corner is left: the list under the board has it
        room = canvas.square * _LABEL_WIDTH - 1  # less the gap to the edge
        depth = (canvas.square * _LABEL_DEPTH - 3) / 2  # two lines of labels, with gaps
        font = min(depth / 1.2, (room - 4) / (0.62 * len(label)))
        width, height = font * 0.62 * len(label) + 4, font * 1.2
        x, y = canvas.corner(end)
        x += 1 if slot % 2 == 0 else canvas.square - width - 1
        y += 1 + (slot // 2) * (height + 1)
        out.append(
            f'<rect x="{_num(x)}" y="{_num(y)}" '
            f'width="{_num(width)}" height="{_num(height)}" '
            f'rx="2" fill="{_HINT_COLOUR}"/>'
        )
        out.append(
            _text(x + 2, y + font * 1.0, label, font_size=font, fill="#ffffff", font_weight="bold")
        )
    out.append("</g>")
    return out


def _marked(canvas: _Canvas, highlights: Mapping[str, Iterable[int | str]]) -> list[str]:
    """The squares of a move being built, each kind drawn as its own shape."""
    unknown = sorted(set(highlights) - set(HIGHLIGHTS))
    if unknown:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"unknown highlight {excerpt(unknown[0], 20)} (known: {', '.join(HIGHLIGHTS)})",
        )
    sq_size = canvas.square
    out = ['<g class="highlights">']
    for kind in HIGHLIGHTS:
        for sq in sorted({_square(s) for s in highlights.get(kind, ())}):
            x, y = canvas.corner(sq)
            cx, cy = canvas.centre(sq)
            name = SQUARE_NAMES[sq]
            if kind == "selected":
                inset = sq_size * 0.04
                out.append(
                    f'<rect class="selected" data-at="{name}" x="{_num(x + inset)}" '
                    f'y="{_num(y + inset)}" width="{_num(sq_size - 2 * inset)}" '
                    f'height="{_num(sq_size - 2 * inset)}" fill="none" stroke="{_HINT_COLOUR}" '
                    f'stroke-width="{_num(sq_size * 0.08)}"/>'
                )
            elif kind == "destinations":
                # In the square's top right corner, clear of the pyramid and its letter.
                out.append(
                    f'<circle class="destination" data-at="{name}" cx="{_num(x + sq_size * 0.8)}" '
                    f'cy="{_num(y + sq_size * 0.2)}" r="{_num(sq_size * 0.12)}" '
                    f'fill="{_HINT_COLOUR}" stroke="#ffffff" stroke-width="1.5"/>'
                )
            else:
                out.append(
                    f'<circle class="target" data-at="{name}" cx="{_num(cx)}" cy="{_num(cy)}" '
                    f'r="{_num(sq_size * 0.44)}" fill="none" stroke="{_HINT_COLOUR}" '
                    f'stroke-width="{_num(sq_size * 0.07)}" '
                    f'stroke-dasharray="{_num(sq_size * 0.12)} {_num(sq_size * 0.08)}"/>'
                )
    out.append("</g>")
    return out


def _claims(
    canvas: _Canvas, claims: Mapping[str, Sequence[float]], labels: Sequence[str]
) -> tuple[list[str], list[str]]:
    """Each square tinted with the cap colour of the player most likely to collect
    its pyramid, the stronger the likelier, framed in that cap's outline; and,
    to draw over the pieces, the player and the chance in the square's top left
    corner (so that no colour is needed to read it). A square nobody is likely
    to collect is left as it is."""
    sq_size = canvas.square
    tints = ['<g class="claims">']
    notes = ['<g class="claim-labels" font-family="sans-serif">']
    for name in sorted(claims, key=_square):
        chances = list(claims[name])
        if not chances or max(chances) <= 0:
            continue
        player = max(range(len(chances)), key=lambda index: chances[index]) + 1
        chance = chances[player - 1]
        fill, outline, ink = CAP_COLOURS[(player - 1) % len(CAP_COLOURS)]
        x, y = canvas.corner(_square(name))
        inset = sq_size * 0.05
        percent = f"{100 * chance:.0f}%"
        label = labels[player - 1] if player <= len(labels) else str(player)
        tints.append(
            f'<rect class="claim" data-at="{name}" data-player="{player}" '
            f'data-chance="{chance:.4f}" x="{_num(x + inset)}" y="{_num(y + inset)}" '
            f'width="{_num(sq_size - 2 * inset)}" height="{_num(sq_size - 2 * inset)}" '
            f'fill="{fill}" fill-opacity="{0.15 + 0.45 * min(1.0, chance):.2f}" '
            f'stroke="{outline}" stroke-width="{_num(sq_size * 0.03)}">'
            f"<title>{escape(f'{name}: {label} {percent}')}</title></rect>"
        )
        text = f"{player}:{percent}"
        font = sq_size * 0.13
        width = font * 0.62 * len(text) + 4
        notes.append(
            f'<rect x="{_num(x + 1)}" y="{_num(y + 1)}" width="{_num(width)}" '
            f'height="{_num(font * 1.2)}" rx="2" fill="{fill}" stroke="{outline}" '
            'stroke-width="1"/>'
        )
        notes.append(
            _text(x + 3, y + 1 + font * 0.98, text, font_size=font, fill=ink, font_weight="bold")
        )
    return [*tints, "</g>"], [*notes, "</g>"]


def _click_squares(canvas: _Canvas) -> list[str]:
    """A transparent square over each square, on top of everything, to click on."""
    sq_size = canvas.square
    out = ['<g class="squares">']
    for sq in range(64):
        x, y = canvas.corner(sq)
        out.append(
            f'<rect data-square="{SQUARE_NAMES[sq]}" x="{_num(x)}" y="{_num(y)}" '
            f'width="{_num(sq_size)}" height="{_num(sq_size)}" fill="#000000" fill-opacity="0"/>'
        )
    out.append("</g>")
    return out


def _as_move(value: Move | str | None) -> Move | None:
    if value is None or isinstance(value, Move):
        return value
    try:
        return Move.parse(value)
    except MoveSyntaxError:  # an ending such as "resign": nothing to draw
        return None


def board_svg(
    shown: StawvsGame | Position,
    size: int = 560,
    *,
    lastmove: Move | str | None = None,
    arrows: Sequence[tuple[int | str, int | str]] = (),
    names: Sequence[str] | None = None,
    locale: str | None = None,
    hints: Sequence[tuple[Move | str, str]] = (),
    highlights: Mapping[str, Iterable[int | str]] | None = None,
    marks: bool = False,
    squares: bool = False,
    claims: Mapping[str, Sequence[float]] | None = None,
) -> str:
    """Return a standalone SVG document picturing a position, or the position a game shows.

    ``size`` is the picture's width in pixels (240–4000); the height follows
    from the collections. ``lastmove`` is drawn (a game's own last move by
    default); ``arrows`` are extra ``(from, to)`` squares to point out, such as
    a hint, each a :class:`~stawvs_ap.core.squares.Square` or a name
    (``("b8", "d6")``). ``names`` label the players (default "Player 1", …); all
    text is XML-escaped. The words are in ``locale``'s language (default: the
    game's, or English for a position). The result depends only on what is
    shown and the language, never on time.

    For a page to play on: ``hints`` are candidate moves ``(move, label)``,
    each drawn as an arrow (a ring for a placement) with its label;
    ``highlights`` maps kinds of :data:`HIGHLIGHTS` to squares; ``marks``
    puts the first letter of its colour on every pyramid; ``squares`` lays a
    transparent ``<rect data-square="c3">`` over each square, on top, for
    clicks. Left at their defaults they add nothing.

    ``claims`` (an analysis's claim map: square name to each player's chance of
    collecting its pyramid) tints each square by its likeliest collector, its
    player and chance written in its corner.

    >>> svg = board_svg(Position.initial(2, seed=1), squares=True, hints=[("c3", "0.61")])
    >>> svg.count("data-square="), 'data-move="c3"' in svg
    (64, True)
    """
    if isinstance(size, bool) or not isinstance(size, int) or not _MIN_SIZE <= size <= _MAX_SIZE:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"the picture size must be {_MIN_SIZE} to {_MAX_SIZE} pixels"
        )
    position, shown_move, winners, shown_locale = shown_by(shown)
    words = catalogue(shown_locale if locale is None else locale)
    move = _as_move(shown_move if lastmove is None else lastmove)
    pointed = [(_square(source), _square(dest)) for source, dest in arrows]
    numplayers = position.rules.numplayers
    labels = player_labels(numplayers, names, words)
    canvas = _Canvas(size)
    body: list[str] = []
    status = _status(position, winners, labels, words)
    body.append(
        _text(
            canvas.margin,
            canvas.top * 0.62,
            status,
            font_size=canvas.square * 0.34,
            font_family="sans-serif",
            font_weight="bold",
            fill="#212121",
        )
    )
    body.extend(_board(canvas, position))
    body.extend(_highlights(canvas, move))
    tints, claim_labels = _claims(canvas, claims or {}, labels)
    if claims:
        body.extend(tints)
    body.extend(_pieces(canvas, position, marks=marks))
    if claims:
        body.extend(claim_labels)
    body.extend(_last_move(canvas, move))
    if highlights:
        body.extend(_marked(canvas, highlights))
    for source, dest in pointed:
        body.extend(_arrow(canvas, source, dest))
    drawn = []
    for hint, label in hints:
        move = _as_move(hint)
        if move is not None and move.source is not None:  # a pass has nothing to draw
            drawn.append((move, str(label)[:12]))
    for move, _ in drawn:
        body.extend(_hint(canvas, move))
    if drawn:
        body.extend(_hint_labels(canvas, drawn))
    if squares:
        body.extend(_click_squares(canvas))
    start = canvas.board_bottom + canvas.square * 0.6
    collections, bottom = _collections(canvas, position, labels, start, words, marks=marks)
    body.extend(collections)
    height = bottom + canvas.margin * 0.6
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{_num(height)}" '
        f'viewBox="0 0 {size} {_num(height)}">',
        f"<title>{escape(words.say(Phrase(m.SVG_TITLE, {'status': status})))}</title>",
        "<defs>",
        f'<marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" '
        'markerWidth="3" markerHeight="3" markerUnits="strokeWidth" orient="auto">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{_MOVE_COLOUR}" fill-opacity="0.8"/></marker>',
        "</defs>",
        f'<rect width="{size}" height="{_num(height)}" fill="#fffdf8"/>',
    ]
    return "\n".join([*head, *body, "</svg>"]) + "\n"
