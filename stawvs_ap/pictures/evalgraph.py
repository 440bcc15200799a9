"""The evaluation graph of a game review: :func:`evaluation_svg`.

One line per player, their share of the win ply by ply (from 0 at the bottom
to 1 at the top), in the caps' colours, each line drawn over an outline of the
cap's own outline colour and with its own dash pattern, so that lines are told
apart without hue; a legend above the graph names each player beside a
piece of their line. Inaccuracies, mistakes and blunders are marked on the
mover's line with ``?!``, ``?`` and ``??`` (a sign that would overlap an
earlier one is moved below its mark, or further up), each mark carrying
``data-ply="N"`` for clicks and a ``<title>`` saying what happened. The graph
brings its own background (the board's light square), so it reads the same on
a light page and a dark one; its ``<title>`` and ``<desc>`` are its text
alternative. The ply being shown, when given, is marked by a vertical line.

It draws plain values (any objects with the attributes of :class:`GraphPly`,
such as a review's plies): the pictures know nothing of bots.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol
from xml.sax.saxutils import escape

from ..i18n import Argument, Catalogue, Phrase, catalogue
from . import messages as m
from .svg import CAP_COLOURS
from .textboard import player_labels

__all__ = ["MARKS", "GraphPly", "evaluation_svg", "graph_description", "judgement_phrase"]

#: The sign of each judgement, as chess annotates moves.
MARKS: Final = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
_MARK_COLOURS: Final = {"inaccuracy": "#f9a825", "mistake": "#ef6c00", "blunder": "#c62828"}
_JUDGEMENT_WORDS: Final = {
    "inaccuracy": m.REVIEW_INACCURACY,
    "mistake": m.REVIEW_MISTAKE,
    "blunder": m.REVIEW_BLUNDER,
}
_DASHES: Final = ("none", "8 4", "2 3", "10 3 2 3")
_BACKGROUND: Final = "#f3ead8"
_INK: Final = "#3e2723"
_GRID: Final = "#c9b99a"


class GraphPly(Protocol):
    """What the graph reads of a ply."""

    @property
    def ply(self) -> int: ...
    @property
    def player(self) -> int: ...
    @property
    def move(self) -> str: ...
    @property
    def best(self) -> str | None: ...
    @property
    def judgement(self) -> str | None: ...
    @property
    def shares(self) -> Sequence[float]: ...


def judgement_phrase(judgement: str) -> Phrase:
    """The word of a judgement (``inaccuracy``, ``mistake``, ``blunder``)."""
    return Phrase(_JUDGEMENT_WORDS[judgement], {})


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _percent(share: float) -> int:
    return round(100 * share)


def graph_description(
    start: Sequence[float],
    plies: Sequence[GraphPly],
    names: Sequence[str],
    words: Catalogue,
) -> list[str]:
    """The graph in words, one line per player then one per marked move: its text
    alternative."""
    end = plies[-1].shares if plies else start
    lines = [
        words.say(
            Phrase(
                m.REVIEW_PLAYER_LINE,
                {"name": names[p], "start": _percent(start[p]), "end": _percent(end[p])},
            )
        )
        for p in range(len(start))
    ]
    lines += [_mark_text(ply, names, words) for ply in plies if ply.judgement in MARKS]
    return lines


def _mark_text(ply: GraphPly, names: Sequence[str], words: Catalogue) -> str:
    assert ply.judgement is not None
    args: dict[str, Argument] = {
        "ply": ply.ply,
        "name": names[ply.player - 1],
        "move": ply.move,
        "judgement": words.say(judgement_phrase(ply.judgement)),
    }
    if ply.best is not None and ply.best != ply.move:
        return words.say(Phrase(m.REVIEW_MARK_BETTER, {**args, "best": ply.best}))
    return words.say(Phrase(m.REVIEW_MARK, args))


#: A sign's width per character and its height, at the graph's font size.
_SIGN_WIDTH: Final = 7.0
_SIGN_HEIGHT: Final = 11.0


def _free_label_y(
    placed: list[tuple[float, float, float]], cx: float, cy: float, width: float
) -> float:
    """The baseline of a sign over a mark at (``cx``, ``cy``): above it, else below
    it, else higher and higher above it, the first place where it overlaps no sign
    in ``placed`` (to which it is added)."""
    candidates = [cy - 10, cy + 19] + [cy - 10 - _SIGN_HEIGHT * n for n in range(1, 8)]
    for baseline in candidates:
        if all(
            abs(cx - other_x) >= (width + other_width) / 2 + 1
            or abs(baseline - other_y) >= _SIGN_HEIGHT + 1
            for other_x, other_y, other_width in placed
        ):
            break
    placed.append((cx, baseline, width))
    return baseline


def _legend(names: Sequence[str], left: float, baseline: float) -> list[str]:
    """Each player's name beside a piece of their line, drawn as the line is."""
    parts = ['<g class="legend">']
    at = left
    for p, name in enumerate(names):
        fill, outline, _ = CAP_COLOURS[p % len(CAP_COLOURS)]
        dash = _DASHES[p % len(_DASHES)]
        dashed = "" if dash == "none" else f' stroke-dasharray="{dash}"'
        y = baseline - 4
        parts.append(
            f'<g class="legend-entry" data-player="{p + 1}">'
            f'<line x1="{_num(at)}" x2="{_num(at + 26)}" y1="{_num(y)}" y2="{_num(y)}" '
            f'stroke="{outline}" stroke-width="4.5"{dashed}/>'
            f'<line x1="{_num(at)}" x2="{_num(at + 26)}" y1="{_num(y)}" y2="{_num(y)}" '
            f'stroke="{fill}" stroke-width="2.5"{dashed}/>'
            f'<text x="{_num(at + 31)}" y="{_num(baseline)}" fill="{_INK}">{escape(name)}</text>'
            "</g>"
        )
        at += 31 + 6.5 * len(name) + 16
    parts.append("</g>")
    return parts


def evaluation_svg(
    start: Sequence[float],
    plies: Sequence[GraphPly],
    *,
    names: Sequence[str] | None = None,
    width: int = 640,
    height: int = 240,
    locale: str | None = None,
    ply: int | None = None,
) -> str:
    """The evaluation graph of a review whose shares at the start are ``start``
    (one per player) and whose plies are ``plies``, ``width`` × ``height``
    pixels, its words in ``locale``'s language (player names ``names``, else
    "Player 1"…); ``ply``, when given, is the ply being shown (0: the start),
    marked by a vertical line.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Ply:
    ...     ply: int; player: int; move: str; best: str | None; judgement: str | None
    ...     shares: tuple[float, ...]
    >>> svg = evaluation_svg((0.5, 0.5), [Ply(1, 1, "d5", "e4", "blunder", (0.1, 0.9))])
    >>> svg.startswith("<svg"), 'data-ply="1"' in svg, "??" in svg
    (True, True, True)
    """
    words = catalogue(locale or "en")
    players = len(start)
    shown = player_labels(players, names, words)  # too few names: "Player N" for the rest
    left, right, top, bottom = 40.0, 12.0, 28.0, 26.0
    inner_w, inner_h = width - left - right, height - top - bottom
    count = max(1, len(plies))

    def x(ply: int) -> float:
        return left + inner_w * ply / count

    def y(share: float) -> float:
        return top + inner_h * (1.0 - max(0.0, min(1.0, share)))

    title = words.say(m.REVIEW_GRAPH_TITLE)
    description = " ".join(graph_description(start, plies, shown, words))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" class="evaluation-graph" '
        f'font-family="sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(description)}</desc>",
        f'<rect width="{width}" height="{height}" rx="6" fill="{_BACKGROUND}"/>',
    ]
    for share in (0.0, 0.5, 1.0):
        parts.append(
            f'<line x1="{_num(left)}" x2="{_num(width - right)}" y1="{_num(y(share))}" '
            f'y2="{_num(y(share))}" stroke="{_GRID}" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{_num(left - 4)}" y="{_num(y(share) + 4)}" text-anchor="end" '
            f'fill="{_INK}">{_percent(share)}%</text>'
        )
    step = max(1, round(count / 8 / 5) * 5) if count > 10 else 1
    for tick in range(0, count + 1, step):
        parts.append(
            f'<text x="{_num(x(tick))}" y="{height - 8}" text-anchor="middle" '
            f'fill="{_INK}">{tick}</text>'
        )
    for p in range(players):
        points = [(x(0), y(start[p]))] + [
            (x(k + 1), y(ply.shares[p])) for k, ply in enumerate(plies)
        ]
        path = " ".join(f"{_num(px)},{_num(py)}" for px, py in points)
        fill, outline, _ = CAP_COLOURS[p % len(CAP_COLOURS)]
        dash = _DASHES[p % len(_DASHES)]
        dashed = "" if dash == "none" else f' stroke-dasharray="{dash}"'
        parts.append(
            f'<g class="player-line" data-player="{p + 1}">'
            f"<title>{escape(shown[p])}</title>"
            f'<polyline points="{path}" fill="none" stroke="{outline}" stroke-width="4.5" '
            f'stroke-linejoin="round"{dashed}/>'
            f'<polyline points="{path}" fill="none" stroke="{fill}" stroke-width="2.5" '
            f'stroke-linejoin="round"{dashed}/></g>'
        )
    parts.extend(_legend(shown, left, top - 10))
    if ply is not None and 0 <= ply <= len(plies):
        parts.append(
            f'<line class="shown-ply" data-ply="{ply}" x1="{_num(x(ply))}" x2="{_num(x(ply))}" '
            f'y1="{_num(top)}" y2="{_num(top + inner_h)}" stroke="{_INK}" stroke-width="1.5" '
            'stroke-dasharray="3 3"/>'
        )
    # A transparent column per ply, so that a click anywhere on the graph finds a ply.
    column = inner_w / count
    for k in range(len(plies)):
        parts.append(
            f'<rect class="ply-column" data-ply="{k + 1}" x="{_num(x(k + 1) - column / 2)}" '
            f'y="{_num(top)}" width="{_num(column)}" height="{_num(inner_h)}" '
            f'fill="transparent"/>'
        )
    placed: list[tuple[float, float, float]] = []  # each sign's centre x, baseline y, width
    for k, judged in enumerate(plies):
        if judged.judgement not in MARKS:
            continue
        cx, cy = x(k + 1), y(judged.shares[judged.player - 1])
        colour = _MARK_COLOURS[judged.judgement]
        sign = MARKS[judged.judgement]
        label_y = _free_label_y(placed, cx, cy, _SIGN_WIDTH * len(sign))
        parts.append(
            f'<g class="mark {judged.judgement}" data-ply="{judged.ply}" tabindex="-1">'
            f"<title>{escape(_mark_text(judged, shown, words))}</title>"
            f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="7" fill="{colour}" '
            f'stroke="#ffffff" stroke-width="1.5"/>'
            f'<text x="{_num(cx)}" y="{_num(label_y)}" text-anchor="middle" '
            f'font-weight="bold" fill="{colour}">{sign}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts) + "\n"
