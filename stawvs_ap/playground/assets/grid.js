// The board as a grid for assistive technology and the keyboard: the picture's
// `[data-square]` cells grouped into eight `row`s (rank 8 first), each cell a
// `gridcell` named in the page's language by the square, what stands on it and
// what the move being built makes of it; one cell in the tab order (the
// cursor), the others reached with the arrow keys. The rest of the picture is
// drawing, hidden from screen readers: the cells' names say what it shows.

import { t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefgh";

// Regroups the freshly drawn picture's cells into rows.
export function makeGrid(svg) {
  svg.setAttribute("role", "none");
  svg.removeAttribute("aria-hidden");
  const squares = svg.querySelector("g.squares");
  for (const child of svg.children) {
    if (child !== squares) child.setAttribute("aria-hidden", "true");
  }
  if (!squares) return;
  squares.setAttribute("role", "none");
  const rows = [];
  for (let rank = 8; rank >= 1; rank--) {
    const row = document.createElementNS(SVG, "g");
    row.setAttribute("role", "row");
    for (const file of FILES) {
      const cell = squares.querySelector(`[data-square="${file}${rank}"]`);
      if (!cell) continue;
      cell.setAttribute("role", "gridcell");
      cell.setAttribute("tabindex", "-1");
      row.append(cell);
    }
    rows.push(row);
  }
  squares.prepend(...rows);
}

// Names every cell: "c3, Large blue pyramid, cap of Ann, selected". `view` is
// the service's summary (its `squares`), `selected` the squares of the move
// being built, `nameOf(player)` a player's name.
export function nameCells(board, view, { selected = [], nameOf }) {
  if (!view?.squares) return;
  for (const cell of board.querySelectorAll("[role=gridcell]")) {
    const square = cell.dataset.square;
    const on = view.squares[square] ?? {};
    const words = [square, on.pyramid ? t(`page.pyramid.${on.pyramid}`) : t("page.cell.empty")];
    if (on.cap) words.push(t("page.cell.cap", { player: nameOf(on.cap) }));
    if (selected.includes(square)) words.push(t("page.cell.selected"));
    cell.setAttribute("aria-label", words.join(", "));
    cell.setAttribute("aria-selected", selected.includes(square) ? "true" : "false");
  }
}

// Puts `square`'s cell in the tab order (and only it); with `focus`, focuses it.
export function rove(board, square, focus = false) {
  for (const cell of board.querySelectorAll("[role=gridcell]")) {
    const here = cell.dataset.square === square;
    cell.setAttribute("tabindex", here ? "0" : "-1");
    if (here && focus) cell.focus({ preventScroll: true });
  }
}

// The position in words, for the describe key: each player's points and the
// squares of their caps, then the board row by row (rank 8 first), each
// square as its cell is named.
export function describePosition(board, view, { nameOf, pointsOf }) {
  if (!view?.squares) return "";
  const lines = view.players.map((p) => {
    const caps = Object.keys(view.squares).filter((sq) => view.squares[sq].cap === p.player).sort();
    return t("page.describe.player", {
      player: nameOf(p.player),
      points: pointsOf(p.score),
      squares: caps.length ? caps.join(", ") : "–",
    });
  });
  for (const row of board.querySelectorAll("[role=row]")) {
    const cells = [...row.querySelectorAll("[role=gridcell]")];
    const rank = cells[0]?.dataset.square.slice(1);
    lines.push(t("page.describe.row", { rank, squares: cells.map((c) => c.getAttribute("aria-label")).join("; ") }));
  }
  return lines.join(" ");
}
