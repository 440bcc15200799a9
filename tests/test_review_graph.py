"""The review graph's legend (each player's name beside a piece of their line,
drawn as the line is), the mark of the ply shown, and the judgement signs kept
from overlapping each other."""

from __future__ import annotations

import re
from dataclasses import dataclass

from stawvs_ap.pictures.evalgraph import evaluation_svg


@dataclass
class Ply:
    ply: int
    player: int
    move: str
    best: str | None
    judgement: str | None
    shares: tuple[float, ...]


def busy_stretch(count: int = 12) -> list[Ply]:
    """``count`` blunders in a row, the shares hardly moving: every sign crowds
    its neighbours."""
    return [
        Ply(k, k % 2 + 1, "pass", "d5", "blunder", (0.5 + 0.01 * (k % 2), 0.5 - 0.01 * (k % 2)))
        for k in range(1, count + 1)
    ]


def test_the_legend_names_each_player_beside_their_line_style() -> None:
    plies = [Ply(1, 1, "d5", None, None, (0.2, 0.3, 0.5))]
    svg = evaluation_svg((0.3, 0.3, 0.4), plies, names=["Ann", "Bob", "Cy"])
    entries = re.findall(r'<g class="legend-entry" data-player="(\d)">(.*?)</g>', svg)
    named = [(player, re.findall(r"<text[^>]*>([^<]*)</text>", body)) for player, body in entries]
    assert named == [("1", ["Ann"]), ("2", ["Bob"]), ("3", ["Cy"])]
    for player, body in entries:
        line = re.search(rf'<g class="player-line" data-player="{player}">(.*?)</g>', svg)
        assert line is not None
        dashes = re.findall(r'stroke-dasharray="([^"]*)"', line[1])
        assert re.findall(r'stroke-dasharray="([^"]*)"', body) == dashes
        colours = re.findall(r'stroke="(#[0-9a-f]{6})"', line[1])
        assert re.findall(r'stroke="(#[0-9a-f]{6})"', body) == colours


def test_the_ply_shown_is_marked_where_its_column_is() -> None:
    plies = busy_stretch(10)
    assert 'class="shown-ply"' not in evaluation_svg((0.5, 0.5), plies)
    svg = evaluation_svg((0.5, 0.5), plies, ply=4)
    marker = re.search(r'<line class="shown-ply" data-ply="4" x1="([\d.]+)"', svg)
    column = re.search(
        r'<rect class="ply-column" data-ply="4" x="([\d.]+)"[^>]* width="([\d.]+)"', svg
    )
    assert marker is not None and column is not None
    assert abs(float(marker[1]) - (float(column[1]) + float(column[2]) / 2)) < 0.2
    start = evaluation_svg((0.5, 0.5), plies, ply=0)
    assert 'data-ply="0" x1="40"' in start  # the start: the graph's left edge


SIGN = r'<text x="([\d.]+)" y="(-?[\d.]+)" text-anchor="middle" font-weight="bold"[^>]*>([^<]*)<'


def test_signs_never_overlap_even_in_a_busy_stretch() -> None:
    svg = evaluation_svg((0.5, 0.5), busy_stretch(30), width=320)
    signs = [(float(x), float(y), len(text)) for x, y, text in re.findall(SIGN, svg)]
    assert len(signs) == 30
    for i, (x1, y1, n1) in enumerate(signs):
        for x2, y2, n2 in signs[i + 1 :]:
            apart = abs(x1 - x2) >= 7.0 * (n1 + n2) / 2 or abs(y1 - y2) >= 11.0
            assert apart, (x1, y1, x2, y2)
