// The board as a grid for assistive technology and the keyboard: the picture's
// `[data-square]` cells grouped into eight `row`s (rank 8 first), each cell a
// `gridcell` named in the page's language by the square, what stands on it and
// what the move being built makes of it; one cell in the tab order (the
// cursor), the others reached with the arrow keys. The rest of the picture is
// drawing, hidden from screen readers: the cells' names say what it shows.

import { t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefgh";

// Shows the engine's picture `text` (from our own server, every text in it
// escaped) on `board`. The first picture is put in whole, its cells grouped
// into the grid, with the keyboard cursor's mark among them; after that only
// the layers that changed are replaced, and the grid of cells stays: a click
// costs the browser a few changed layers, not 500 new elements, and the
// focused cell keeps its focus.
export function showPicture(board, text) {
  const template = document.createElement("template");
  template.innerHTML = text;
  const drawn = template.content.firstElementChild;
  drawn.removeAttribute("width");
  drawn.removeAttribute("height");
  const shown = board.firstElementChild;
  const cells = shown?.querySelector(":scope > g.squares");
  drawn.dataset.cells = cellsKey(drawn);
  if (!cells || shown.dataset.cells !== drawn.dataset.cells) {
    board.replaceChildren(drawn);
    makeGrid(drawn);
    drawn.querySelector("g.squares")?.append(cursorMark());
    return;
  }
  shown.setAttribute("viewBox", drawn.getAttribute("viewBox"));
  const wanted = [...drawn.children].map((layer) => {
    if (layer.matches("g.squares")) return cells;
    layer.setAttribute("aria-hidden", "true");
    return layer;
  });
  wanted.forEach((layer, index) => {
    const there = shown.children[index];
    if (there === layer || (layer !== cells && there?.isEqualNode(layer))) return;
    if (there && there !== cells && !wanted.includes(there)) there.replaceWith(layer);
    else shown.insertBefore(layer, there ?? null);
  });
  while (shown.children.length > wanted.length) shown.lastElementChild.remove();
}

// Where the picture's cells lie (its first and last square): a picture whose
// cells lie elsewhere (another size) is put in whole.
function cellsKey(svg) {
  const corners = [svg.querySelector('[data-square="a8"]'), svg.querySelector('[data-square="h1"]')];
  return corners.map((cell) => ["x", "y", "width"].map((k) => cell?.getAttribute(k)).join()).join(";");
}

function cursorMark() {
  const mark = document.createElementNS(SVG, "rect");
  for (const [key, value] of Object.entries({
    class: "cursor",
    fill: "none",
    stroke: "#1565c0",
    "stroke-width": "4",
    "pointer-events": "none",
  })) {
    mark.setAttribute(key, value);
  }
  return mark;
}

// Regroups the freshly drawn picture's cells into rows.
function makeGrid(svg) {
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

// Names every cell: "c3, Large blue pyramid, cap of Ann, selected", and where
// the move being built can go next ("the cap can slide here", "can be
// claimed"). `view` is the service's summary (its `squares`), `selected` the
// squares of the move being built, `nameOf(player)` a player's name.
// With `claims` (an analysis's claim map), each cell also says who is likeliest
// to collect its pyramid, and how likely.
export function nameCells(board, view, { selected = [], nameOf, claims = null }) {
  if (!view?.squares) return;
  // Where the move being built can go next, as the picture marks it.
  const marked = (kind) => new Set([...board.querySelectorAll(`.${kind}[data-at]`)].map((e) => e.dataset.at));
  const destinations = marked("destination");
  const targets = marked("target");
  for (const cell of board.querySelectorAll("[role=gridcell]")) {
    const square = cell.dataset.square;
    const on = view.squares[square] ?? {};
    const words = [square, on.pyramid ? t(`page.pyramid.${on.pyramid}`) : t("page.cell.empty")];
    if (on.cap) words.push(t("page.cell.cap", { player: nameOf(on.cap) }));
    if (selected.includes(square)) words.push(t("page.cell.selected"));
    if (destinations.has(square)) words.push(t("page.cell.destination"));
    if (targets.has(square)) words.push(t("page.cell.target"));
    const chances = claims?.[square];
    if (chances && Math.max(...chances) > 0) {
      const likeliest = chances.indexOf(Math.max(...chances));
      const percent = Math.round(100 * chances[likeliest]);
      words.push(t("page.cell.claim", { player: nameOf(likeliest + 1), percent }));
    }
    // Only what changed: a screen reader may read a cell again when its name is set.
    const label = words.join(", ");
    if (cell.getAttribute("aria-label") !== label) cell.setAttribute("aria-label", label);
    const chosen = selected.includes(square) ? "true" : "false";
    if (cell.getAttribute("aria-selected") !== chosen) cell.setAttribute("aria-selected", chosen);
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
