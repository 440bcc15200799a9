// The game review under the board: a bot appraises every position of the
// game (the service's method review, a few positions a request, so that the
// page shows its progress and the player can stop it), the evaluation graph
// is the engine's own drawing (with its text alternative, in the page's
// language), and the move list marks each judged move with ?!, ? or ??.
// Clicking the graph or a marked move shows the position before that move
// with the move played and the better one as arrows.
//
// It keeps to its own elements (#review-*) and reaches the rest of the page
// only through window.stawvs: the game's state, the summary of the position
// shown, and showing a ply with arrows.

import { rpc, SERVER_BUSY, ServiceError } from "./service.js";
import { language, t } from "./words.js";

const POSITIONS_PER_REQUEST = 4;
const SECONDS_PER_POSITION = 0.25;
const BUSY_RETRY_MS = 400;
const BUSY_RETRIES = 25;
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const $ = (id) => document.getElementById(id);

let reviewed = null; // {state, review}: the last review and the state it is of
let running = null; // {stop: boolean} while a review runs

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const nameOf = (player) => t("player.name", { player });

function say(text) {
  $("review-status").textContent = text;
}

// One request, tried again while the server's search slots are all taken.
async function request(params) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await rpc("review", params);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== SERVER_BUSY) throw error;
      if (attempt >= BUSY_RETRIES || running?.stop) throw error;
      await sleep(BUSY_RETRY_MS);
    }
  }
}

async function run() {
  const stawvs = window.stawvs;
  const state = stawvs.state();
  running = { stop: false };
  const mine = running;
  $("review-button").hidden = true;
  $("review-stop").hidden = false;
  $("review-stop").focus();
  const progress = $("review-progress");
  progress.hidden = false;
  let appraised = [];
  let answer = null;
  try {
    do {
      answer = await request({
        state,
        seconds: SECONDS_PER_POSITION,
        count: POSITIONS_PER_REQUEST,
        appraised,
        locale: language(),
      });
      appraised = answer.appraised;
      progress.max = answer.total;
      progress.value = answer.done;
      say(t("page.review.progress", { done: answer.done, total: answer.total }));
      show(state, answer);
    } while (!mine.stop && answer.done < answer.total);
    say(
      answer.done < answer.total
        ? t("page.review.stopped", { done: answer.done, total: answer.total })
        : t("page.review.done"),
    );
    $("retry-button").hidden = !(answer.done === answer.total && judgedPlies().length);
  } catch (error) {
    say(error.message);
  } finally {
    running = null;
    progress.hidden = true;
    $("review-stop").hidden = true;
    $("review-button").hidden = false;
  }
}

// Shows the review so far: the graph, each player's line, the marks.
function show(state, answer) {
  reviewed = { state, review: answer.review };
  const figure = $("review-graph");
  figure.innerHTML = answer.graph;
  const svg = figure.querySelector("svg");
  if (svg) {
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("aria-labelledby", "review-graph-title review-graph-desc");
    svg.querySelector("title")?.setAttribute("id", "review-graph-title");
    svg.querySelector("desc")?.setAttribute("id", "review-graph-desc");
  }
  $("review-players").replaceChildren(
    ...answer.review.players.map((player) => {
      const item = document.createElement("li");
      item.textContent = t("page.review.accuracy", {
        name: nameOf(player.player),
        accuracy: player.accuracy === null ? "–" : Math.round(player.accuracy),
        inaccuracies: player.inaccuracies,
        mistakes: player.mistakes,
        blunders: player.blunders,
      });
      return item;
    }),
  );
  $("review-section").hidden = false;
  markMoves();
}

// Marks the ply shown on the graph: a dashed line over its column (the start:
// the graph's left edge); none when the game shown is not the one reviewed.
function markShownPly() {
  const svg = $("review-graph").querySelector("svg");
  if (!svg) return;
  const first = svg.querySelector('.ply-column[data-ply="1"]');
  const view = window.stawvs.view();
  let line = svg.querySelector(".shown-ply");
  if (!first || !view || !reviewed || window.stawvs.state() !== reviewed.state) {
    line?.remove();
    return;
  }
  const column = Number(first.getAttribute("width"));
  const x = Number(first.getAttribute("x")) + column / 2 + (view.ply - 1) * column;
  const top = Number(first.getAttribute("y"));
  if (!line) {
    line = document.createElementNS("http://www.w3.org/2000/svg", "line");
    const look = { class: "shown-ply", stroke: "#3e2723", "stroke-width": "1.5", "stroke-dasharray": "3 3" };
    for (const [key, value] of Object.entries(look)) line.setAttribute(key, value);
    line.setAttribute("pointer-events", "none");
    svg.append(line);
  }
  const at = { x1: x, x2: x, y1: top, y2: top + Number(first.getAttribute("height")) };
  for (const [key, value] of Object.entries(at)) line.setAttribute(key, String(value));
  line.dataset.ply = String(view.ply);
}

// Puts the judgement's sign after each judged move of the move list.
function markMoves() {
  markShownPly();
  const list = $("moves");
  const current = reviewed && window.stawvs.state() === reviewed.state;
  for (const button of list.querySelectorAll("button[data-ply]")) {
    const ply = current ? reviewed.review.plies[Number(button.dataset.ply) - 1] : null;
    const sign = ply?.judgement ? MARKS[ply.judgement] : "";
    let mark = button.querySelector(".review-mark");
    if (!sign) {
      mark?.remove();
      continue;
    }
    if (!mark) {
      mark = document.createElement("span");
      mark.className = "review-mark";
      button.append(mark);
    }
    mark.textContent = sign;
    mark.dataset.judgement = ply.judgement;
  }
}

// Shows the position before ply `number`, its move played and the better one as arrows.
function showPly(number) {
  if (!reviewed || window.stawvs.state() !== reviewed.state) return;
  const ply = reviewed.review.plies[number - 1];
  if (!ply) return;
  const arrows = [{ move: ply.move, label: t("page.review.played") }];
  if (ply.best && ply.best !== ply.move) {
    arrows.push({ move: ply.best, label: t("page.review.better") });
  }
  window.stawvs.showArrows(number - 1, arrows);
}

// -- retry mistakes: each judged move again, blunders first ---------------------------------

const SEVERITY = { blunder: 0, mistake: 1, inaccuracy: 2 };
let retrying = null; // {state, queue, at, found, best}

function judgedPlies() {
  if (!reviewed) return [];
  return reviewed.review.plies
    .filter((ply) => ply.judgement in SEVERITY)
    .sort((a, b) => SEVERITY[a.judgement] - SEVERITY[b.judgement] || a.ply - b.ply);
}

function startRetry() {
  if (!reviewed || window.stawvs.state() !== reviewed.state) return;
  const queue = judgedPlies();
  if (!queue.length) return;
  retrying = { state: reviewed.state, queue, at: 0, found: 0, best: null };
  $("retry-panel").hidden = false;
  askRetry("");
}

// Shows the position before the judged move and asks for a better one, after `said`.
function askRetry(said) {
  const ply = retrying.queue[retrying.at];
  retrying.best = null;
  window.stawvs.showArrows(ply.ply - 1, []);
  $("retry-input").value = "";
  $("retry-input").focus();
  say(`${said}${t("page.retry.prompt", { ply: ply.ply, move: ply.move })}`);
}

async function tryRetry(move) {
  if (!retrying || !move.trim()) return;
  const ply = retrying.queue[retrying.at];
  let verdict;
  try {
    verdict = await rpc("retry", {
      state: retrying.state,
      ply: ply.ply - 1,
      move: move.trim(),
      seconds: 1,
      locale: language(),
    });
  } catch (error) {
    say(error.message);
    return;
  }
  if (verdict.found) {
    retrying.found += 1;
    nextRetry(`${t("page.retry.found", { move: verdict.tried })} `);
    return;
  }
  retrying.best = verdict.best;
  say(t("page.retry.loss", { move: verdict.tried, loss: Math.round(100 * verdict.loss) }));
}

function showBest() {
  if (!retrying) return;
  const ply = retrying.queue[retrying.at];
  const best = retrying.best ?? ply.best;
  if (!best) return;
  window.stawvs.showArrows(ply.ply - 1, [{ move: best, label: t("page.review.better") }]);
  say(t("page.retry.best", { move: best }));
}

function nextRetry(said = "") {
  if (!retrying) return;
  retrying.at += 1;
  if (retrying.at < retrying.queue.length) {
    askRetry(said);
    return;
  }
  say(`${said}${t("page.retry.done", { found: retrying.found, total: retrying.queue.length })}`);
  retrying = null;
  $("retry-panel").hidden = true;
}

function wire() {
  $("retry-button").addEventListener("click", startRetry);
  $("retry-panel").addEventListener("submit", (event) => {
    event.preventDefault();
    tryRetry($("retry-input").value);
  });
  $("retry-best").addEventListener("click", showBest);
  $("retry-next").addEventListener("click", () => nextRetry());
  $("review-button").addEventListener("click", () => {
    if (!running) run();
  });
  $("review-stop").addEventListener("click", () => {
    if (running) running.stop = true;
  });
  $("review-graph").addEventListener("click", (event) => {
    const target = event.target.closest?.("[data-ply]");
    if (target) showPly(Number(target.dataset.ply));
  });
  // A marked move of the list shows its arrows (the list's own click shows the
  // position after it; this comes after and shows the one before, with arrows).
  $("moves").addEventListener("click", (event) => {
    const button = event.target.closest?.("button[data-ply]");
    if (button?.querySelector(".review-mark")) showPly(Number(button.dataset.ply));
  });
  // The list is drawn afresh with every position shown: mark it again; a
  // game that changed is no longer the one reviewed.
  new MutationObserver(() => {
    if (reviewed && window.stawvs.state() !== reviewed.state && !running) {
      reviewed = null;
      retrying = null;
      $("review-section").hidden = true;
      $("retry-panel").hidden = true;
    }
    markMoves();
  }).observe($("moves"), { childList: true });
  // Another ply shown moves the step marked in the list: mark it on the graph.
  new MutationObserver(markShownPly).observe($("moves"), {
    subtree: true,
    attributeFilter: ["aria-current"],
  });
}

window.stawvs?.ready.then(wire, () => {});
