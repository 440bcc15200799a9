// What the page shows beside the board: the game panel (players, scores,
// collections grouped into trees, whose turn, who has passed, the result)
// and the move list in rounds with the ply slider. Built from the service's
// summary (numbers, codes and moves); every word comes from the message table.

import { listing, t, tn } from "./words.js";

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

function stackChip(stack) {
  const tree = stack.pyramids.length === 3;
  const chip = element("span", tree ? "stack tree" : "stack");
  for (const code of stack.pyramids) {
    const pyramid = element("span", `pyr pyr-${code.slice(0, 2)}`, code);
    pyramid.title = t(`page.pyramid.${code}`);
    pyramid.setAttribute("role", "img");
    pyramid.setAttribute("aria-label", pyramid.title);
    chip.append(pyramid, " ");
  }
  if (tree) chip.append(`= ${stack.points}`);
  return chip;
}

// `seatOf(player)` is the seat's kind ("human", "mcts", …), `nameOf(player)` its
// name, `variantOf(uid)` a variant's name.
export function showPanel(summary, { nameOf, seatOf, variantOf }) {
  document.getElementById("variants-line").textContent = summary.variants.length
    ? t("page.panel.variants", { variants: listing(summary.variants.map(variantOf)) })
    : t("page.panel.no-variants");
  const items = summary.players.map((p) => {
    const item = element("li");
    const toMove = !summary.gameover && p.player === summary.currplayer;
    if (toMove) item.setAttribute("aria-current", "true");
    const who = element("div", "who");
    const cap = element("span", `cap cap-${p.player}`, String(p.player));
    cap.setAttribute("aria-hidden", "true");
    const notes = [];
    if (toMove) notes.push(t("page.panel.to-move"));
    if (p.passed) notes.push(t("page.panel.passed"));
    if (seatOf(p.player) !== "human") notes.push(t(`page.seat.${seatOf(p.player)}`));
    const said = notes.join(t("list.separator"));
    const name = notes.length ? `${nameOf(p.player)} (${said})` : nameOf(p.player);
    const score = tn("page.panel.points", p.score, { points: p.score });
    who.append(cap, element("span", "", name), element("span", "score", score));
    const stacks = element("div", "stacks");
    stacks.append(...p.stacks.map(stackChip));
    item.append(who, stacks);
    return item;
  });
  document.getElementById("players").replaceChildren(...items);
  let result = "";
  if (summary.gameover) {
    const [winner, ...others] = summary.winner.map(nameOf);
    if (winner === undefined) result = t("page.result.nobody");
    else if (!others.length) result = t("page.result.winner", { winner });
    else result = t("page.result.winners", { winners: listing([winner, ...others]) });
  }
  document.getElementById("result").textContent = result;
}

function plyButton(ply, text, title) {
  const button = element("button", "", text);
  button.type = "button";
  button.dataset.ply = String(ply);
  button.title = title;
  return button;
}

export function showMoves(summary, { nameOf }) {
  const shown = summary.ply;
  const where = t("page.moves.ply", { ply: shown, plies: summary.plies });
  const slider = document.getElementById("ply-slider");
  slider.max = String(summary.plies);
  slider.value = String(shown);
  slider.setAttribute("aria-valuetext", where);
  document.getElementById("ply-line").textContent = where;
  const start = document.getElementById("start-button");
  start.dataset.ply = "0";
  if (shown === 0) start.setAttribute("aria-current", "step");
  else start.removeAttribute("aria-current");
  const rounds = [];
  summary.history.forEach((entry, index) => {
    const round = Math.floor(index / summary.numplayers);
    (rounds[round] ??= []).push({ ...entry, ply: index + 1 });
  });
  // Only the rounds that changed are made again (a move adds to the last one);
  // the move shown is marked on the buttons that stay.
  const list = document.getElementById("moves");
  rounds.forEach((round, index) => {
    const titles = round.map((e) => t("page.moves.by", { player: nameOf(e.player), ply: e.ply }));
    const key = JSON.stringify([round.map((e) => e.move), titles]);
    const there = list.children[index];
    if (there?.dataset.key === key) return;
    const item = element("li");
    item.value = index + 1;
    item.dataset.key = key;
    round.forEach((entry, i) => item.append(plyButton(entry.ply, entry.move, titles[i])));
    if (there) there.replaceWith(item);
    else list.append(item);
  });
  while (list.children.length > rounds.length) list.lastElementChild.remove();
  const current = list.querySelector(`button[data-ply="${shown}"]`);
  for (const marked of list.querySelectorAll('[aria-current="step"]')) {
    if (marked !== current) marked.removeAttribute("aria-current");
  }
  current?.setAttribute("aria-current", "step");
  // Keep the move shown in sight, scrolling the list only (never the page).
  if (current) {
    const top = current.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}

// The keyboard shortcuts, as the help dialog lists them: [[key, ...], message id],
// each key a character, or the message id of its name ("page.key.home").
export function showKeys(keys) {
  const named = (key) => (key.startsWith("page.") ? t(key) : key);
  document.getElementById("help-keys").replaceChildren(
    ...keys.flatMap(([names, id]) => [element("dt", "", names.map(named).join("  ")), element("dd", "", t(id))]),
  );
}
