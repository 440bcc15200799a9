// The Stawvs playground: a page over the engine's JSON-RPC service (POST rpc).
//
// The page holds the game (the serialized state) and sends it with every
// request; the server keeps nothing, so two tabs never meet, and the tab's
// session storage brings the game back after a reload. Every word shown comes
// from one message table (GET messages/LANG), so the page speaks whatever
// language the server has a table for. The board is the engine's own SVG
// (method svg), with a data-square element over each square to click on;
// clicks go through the engine's handle_click (method click).
//
// For checks from outside: window.stawvs.state() is the serialized state as
// text, window.stawvs.load(text) loads a state or a record given as text.

const STORE = "stawvs-playground";
const SEATS = ["human", "random", "greedy", "uct", "mcts"];
const FILES = "abcdefgh";
const BOT_RETRY_MS = 400;

// -- words ----------------------------------------------------------------------

let words = {};

function t(id, args = {}) {
  const text = words[id] ?? id;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in args ? String(args[key]) : whole));
}

function localise(root = document) {
  for (const el of root.querySelectorAll("[data-msg]")) el.textContent = t(el.dataset.msg);
  for (const el of root.querySelectorAll("[data-msg-label]")) {
    el.setAttribute("aria-label", t(el.dataset.msgLabel));
  }
  for (const el of root.querySelectorAll("[data-msg-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.msgPlaceholder));
  }
  document.documentElement.lang = words["page.lang"] || "en";
  document.title = t("page.title");
}

// -- the service ----------------------------------------------------------------

class ServiceError extends Error {
  constructor(error) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

let nextId = 1;

// Calls [[method, params], ...] in one request (a JSON-RPC batch); the results
// in order, or the first error thrown as a ServiceError.
async function batch(calls) {
  const requests = calls.map(([method, params]) => ({
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params,
  }));
  let response;
  try {
    response = await fetch("rpc", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(requests),
    });
  } catch {
    throw new ServiceError({ code: 0, message: t("error.offline") });
  }
  const answers = await response.json().catch(() => null);
  if (!Array.isArray(answers)) {
    throw new ServiceError(answers?.error ?? { code: response.status, message: t("error.server") });
  }
  const byId = new Map(answers.map((a) => [a.id, a]));
  return requests.map((request) => {
    const answer = byId.get(request.id);
    if (!answer) throw new ServiceError({ code: 0, message: t("error.server") });
    if (answer.error) throw new ServiceError(answer.error);
    return answer.result;
  });
}

async function rpc(method, params = {}) {
  return (await batch([[method, params]]))[0];
}

// -- what the page holds ----------------------------------------------------------

const game = {
  state: null, // the serialized state, text
  names: null, // players' names from a record, or null
  seats: ["human", "mcts", "mcts", "mcts"],
  think: 1,
  paused: false,
  marks: true,
  ply: null, // the ply shown; null: the latest
  redo: [], // moves taken back, the next to redo last
};
let partial = ""; // the move being built by clicks
let hints = []; // the candidates of the last hint
let view = null; // the last summary
let svgText = "";
let version = 0; // changes with every new state: late answers about older ones are dropped
let cursor = "d4";
let pending = 0;
let idleWaiters = [];
let gameinfo = null;

function save() {
  try {
    sessionStorage.setItem(STORE, JSON.stringify(game));
  } catch {
    // storage full or off: the game goes on, only a reload forgets it
  }
}

function restore() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(STORE) || "null");
    if (kept && typeof kept.state === "string") Object.assign(game, kept);
  } catch {
    // a damaged entry: start afresh
  }
}

function busy(promise) {
  pending += 1;
  document.getElementById("board").setAttribute("aria-busy", "true");
  return promise.finally(() => {
    pending -= 1;
    if (pending === 0) {
      document.getElementById("board").removeAttribute("aria-busy");
      setTimeout(checkIdle, 0);
    }
  });
}

function checkIdle() {
  if (pending === 0 && !botTimer) {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function say(text, isError = false) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}

function fail(error) {
  if (error instanceof ServiceError) say(error.message, true);
  else {
    say(t("error.page"), true);
    console.error(error);
  }
}

function nameOf(player) {
  return game.names?.[player - 1] || t("player.name", { n: player });
}

function latest() {
  return game.ply === null || (view && game.ply >= view.plies);
}

// -- drawing ------------------------------------------------------------------------

async function draw() {
  const asked = version;
  const shown = { state: game.state };
  if (game.ply !== null) shown.ply = game.ply;
  const picture = { ...shown, marks: game.marks, names: [1, 2, 3, 4].map(nameOf) };
  if (partial) picture.move = partial;
  if (hints.length) {
    picture.hints = hints.map((c) => ({ move: c.move, label: c.value.toFixed(2) }));
  }
  const [svg, summary] = await busy(batch([["svg", picture], ["summary", shown]]));
  if (asked !== version) return;
  view = summary;
  svgText = svg.svg;
  showBoard(svg.svg);
  showPanel(summary);
  showMoves(summary);
  showButtons();
  save();
  scheduleBot();
}

function showBoard(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  svg.setAttribute("aria-hidden", "true");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const squares = svg.querySelector("g.squares");
  if (squares) {
    const mark = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    mark.setAttribute("class", "cursor");
    mark.setAttribute("fill", "none");
    mark.setAttribute("stroke", "#1565c0");
    mark.setAttribute("stroke-width", "4");
    mark.setAttribute("pointer-events", "none");
    squares.append(mark);
  }
  document.getElementById("board").replaceChildren(svg);
  placeCursor();
}

function placeCursor() {
  const square = document.querySelector(`#board [data-square="${cursor}"]`);
  const mark = document.querySelector("#board .cursor");
  if (!square || !mark) return;
  for (const key of ["x", "y", "width", "height"]) mark.setAttribute(key, square.getAttribute(key));
}

function showPanel(summary) {
  const line = summary.variants.length
    ? t("panel.variants", { variants: summary.variants.join(", ") })
    : t("panel.no_variants");
  document.getElementById("variants-line").textContent = line;
  const list = document.getElementById("players");
  list.replaceChildren(
    ...summary.players.map((p) => {
      const item = document.createElement("li");
      const toMove = !summary.gameover && p.player === summary.currplayer;
      if (toMove) item.setAttribute("aria-current", "true");
      const who = document.createElement("div");
      who.className = "who";
      const cap = document.createElement("span");
      cap.className = `cap cap-${p.player}`;
      cap.textContent = String(p.player);
      cap.setAttribute("aria-hidden", "true");
      const name = document.createElement("span");
      const notes = [];
      if (toMove) notes.push(t("panel.to_move"));
      if (p.passed) notes.push(t("panel.passed"));
      if (game.seats[p.player - 1] !== "human") notes.push(t(`seat.${game.seats[p.player - 1]}`));
      name.textContent = notes.length ? `${nameOf(p.player)} (${notes.join(", ")})` : nameOf(p.player);
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = t(p.score === 1 ? "panel.point" : "panel.points", { n: p.score });
      who.append(cap, name, score);
      const stacks = document.createElement("div");
      stacks.className = "stacks";
      for (const stack of p.stacks) {
        const chip = document.createElement("span");
        chip.className = stack.pyramids.length === 3 ? "stack tree" : "stack";
        for (const code of stack.pyramids) {
          const pyramid = document.createElement("span");
          pyramid.className = `pyr pyr-${code.slice(0, 2)}`;
          pyramid.textContent = code;
          chip.append(pyramid, " ");
        }
        if (stack.pyramids.length === 3) chip.append(`= ${stack.points}`);
        stacks.append(chip);
      }
      item.append(who, stacks);
      return item;
    }),
  );
  const result = document.getElementById("result");
  if (summary.gameover) {
    const winners = summary.winner.map(nameOf).join(", ");
    result.textContent = summary.winner.length
      ? t(summary.winner.length > 1 ? "result.winners" : "result.winner", { names: winners })
      : t("result.nobody");
  } else {
    result.textContent = "";
  }
  if (!partial) say(statusLine(summary));
}

function statusLine(summary) {
  if (summary.gameover) return t("status.over");
  const who = nameOf(summary.currplayer);
  if (!latest()) return t("status.history", { ply: summary.ply, plies: summary.plies });
  if (game.seats[summary.currplayer - 1] !== "human") {
    return game.paused ? t("status.paused", { player: who }) : t("status.thinking", { player: who });
  }
  if (summary.must_pass) return t("status.must_pass", { player: who });
  return t(summary.mode === "place" ? "status.place" : "status.collect", { player: who });
}

function showMoves(summary) {
  const shown = summary.ply;
  const slider = document.getElementById("ply-slider");
  slider.max = String(summary.plies);
  slider.value = String(shown);
  slider.setAttribute("aria-valuetext", t("moves.ply", { ply: shown, plies: summary.plies }));
  document.getElementById("ply-line").textContent = t("moves.ply", {
    ply: shown,
    plies: summary.plies,
  });
  const list = document.getElementById("moves");
  const rounds = [];
  summary.history.forEach((entry, index) => {
    const round = Math.floor(index / summary.numplayers);
    (rounds[round] ??= []).push({ ...entry, ply: index + 1 });
  });
  const start = document.createElement("li");
  start.value = 0;
  start.append(plyButton(0, t("moves.start"), shown));
  list.replaceChildren(
    start,
    ...rounds.map((round, index) => {
      const item = document.createElement("li");
      item.value = index + 1;
      for (const entry of round) item.append(plyButton(entry.ply, entry.move, shown, entry.player));
      return item;
    }),
  );
  list.querySelector('[aria-current="step"]')?.scrollIntoView({ block: "nearest" });
}

function plyButton(ply, text, shown, player) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  button.dataset.ply = String(ply);
  if (player) button.title = t("moves.by", { player: nameOf(player), ply });
  if (ply === shown) button.setAttribute("aria-current", "step");
  return button;
}

function showButtons() {
  const human = view && !view.gameover && latest() && game.seats[view.currplayer - 1] === "human";
  document.getElementById("pass-button").disabled = !human;
  document.getElementById("random-button").disabled = !human;
  document.getElementById("hint-button").disabled = !(view && !view.gameover && latest());
  document.getElementById("undo-button").disabled = !(view && view.plies > 0);
  document.getElementById("redo-button").disabled = game.redo.length === 0;
  document.getElementById("save-record").disabled = !(view && view.gameover);
}

// -- changing the game ------------------------------------------------------------

function setState(state, { keepRedo = false } = {}) {
  game.state = state;
  game.ply = null;
  if (!keepRedo) game.redo = [];
  partial = "";
  hints = [];
  version += 1;
  document.getElementById("hint-list").replaceChildren();
}

// Moves made while an earlier position is shown continue from it: the later
// moves are taken back (and can be redone).
async function branch() {
  if (latest()) return;
  const drop = view.plies - game.ply;
  const dropped = view.history.slice(game.ply).map((entry) => entry.move);
  const after = await busy(rpc("undo", { state: game.state, plies: drop }));
  setState(after.state);
  game.redo = dropped.reverse();
}

async function play(move) {
  try {
    await branch();
    const after = await busy(rpc("move", { state: game.state, move }));
    setState(after.state);
    document.getElementById("move-message").textContent = "";
    await draw();
  } catch (error) {
    fail(error);
  }
}

function squareAt(name) {
  return { row: 8 - Number(name[1]), col: FILES.indexOf(name[0]) };
}

async function clickSquare(name) {
  if (!view || view.gameover) return;
  try {
    if (!latest()) await branch();
    if (game.seats[view.currplayer - 1] !== "human") {
      say(t("status.not_yours"));
      return;
    }
    const { row, col } = squareAt(name);
    if (partial && partial === name) {
      partial = ""; // a second click on the selected cap lets it go
      await draw();
      return;
    }
    let result = await busy(rpc("click", { state: game.state, move: partial, row, col }));
    if (!result.valid && partial) {
      // Not a way on for the move being built: perhaps the start of another.
      const fresh = await busy(rpc("click", { state: game.state, move: "", row, col }));
      if (fresh.valid) result = fresh;
    }
    if (!result.valid) {
      say(result.message, true);
      return;
    }
    partial = result.move;
    if (result.complete === 1) {
      await play(partial);
      return;
    }
    say(result.message);
    await draw();
  } catch (error) {
    fail(error);
  }
}

async function typed(text) {
  const move = text.trim();
  if (!move) return;
  const message = document.getElementById("move-message");
  try {
    await branch();
    const verdict = await busy(rpc("validate", { state: game.state, move }));
    if (!verdict.valid) {
      message.textContent = verdict.message;
      return;
    }
    if (verdict.complete === 1) {
      document.getElementById("move-input").value = "";
      await play(move);
      return;
    }
    message.textContent = verdict.message;
    partial = move;
    await draw();
  } catch (error) {
    fail(error);
  }
}

async function undo() {
  if (!view || view.plies === 0) return;
  try {
    const humans = game.seats.slice(0, view.numplayers).some((seat) => seat === "human");
    // Take back to a human's turn, so that a bot does not at once play again.
    let plies = 1;
    if (humans) {
      while (
        plies < view.plies &&
        game.seats[view.history[view.plies - plies].player - 1] !== "human"
      ) {
        plies += 1;
      }
    }
    const dropped = view.history.slice(view.plies - plies).map((entry) => entry.move);
    const after = await busy(rpc("undo", { state: game.state, plies }));
    const redo = [...game.redo, ...dropped.reverse()];
    setState(after.state);
    game.redo = redo;
    await draw();
  } catch (error) {
    fail(error);
  }
}

async function redo() {
  const move = game.redo.at(-1);
  if (move === undefined) return;
  try {
    const after = await busy(rpc("move", { state: game.state, move }));
    const rest = game.redo.slice(0, -1);
    setState(after.state);
    game.redo = rest;
    await draw();
  } catch (error) {
    game.redo = [];
    fail(error);
  }
}

async function randomMove() {
  if (!view || view.gameover) return;
  try {
    await branch();
    const after = await busy(rpc("bot_move", { state: game.state, bot: "random" }));
    setState(after.state);
    await draw();
  } catch (error) {
    fail(error);
  }
}

async function hint() {
  if (!view || view.gameover || !latest()) return;
  const asked = version;
  say(t("status.hinting"));
  try {
    const answer = await busy(
      rpc("hint", { state: game.state, bot: "mcts", seconds: game.think, top: 3 }),
    );
    if (asked !== version) return;
    hints = answer.candidates;
    const list = document.getElementById("hint-list");
    list.replaceChildren(
      ...hints.map((c) => {
        const item = document.createElement("li");
        item.textContent = t("hint.line", { move: c.move, value: c.value.toFixed(2), visits: c.visits });
        return item;
      }),
    );
    await draw();
    say(t("status.hint", { move: answer.best }));
  } catch (error) {
    fail(error);
  }
}

async function show(ply) {
  if (!view) return;
  const target = Math.max(0, Math.min(view.plies, ply));
  game.ply = target >= view.plies ? null : target;
  partial = "";
  hints = [];
  version += 1;
  try {
    await draw();
  } catch (error) {
    fail(error);
  }
}

// -- bots ---------------------------------------------------------------------------

let botTimer = null;

// What the player to move does by themselves, if anything: a bot's move, or the
// pass of a human who has already passed (each of their turns is a pass).
function botDue() {
  if (!view || view.gameover || !latest() || game.redo.length) return null;
  const seat = game.seats[view.currplayer - 1];
  if (seat === "human") {
    const passed = view.must_pass && view.players[view.currplayer - 1].passed;
    return passed ? { seat, pass: true } : null;
  }
  return game.paused ? null : { seat, pass: false };
}

function scheduleBot(delay = 30) {
  if (botTimer || !botDue()) return;
  botTimer = setTimeout(runBot, delay);
}

async function runBot() {
  const due = botDue();
  let retry = false;
  try {
    if (due) retry = await busy(botMove(due));
  } finally {
    botTimer = null;
  }
  scheduleBot(retry ? BOT_RETRY_MS : 30);
  setTimeout(checkIdle, 0);
}

// Plays the due move; true when the server was busy and it should be tried again.
async function botMove({ seat, pass }) {
  const asked = version;
  try {
    const after = pass
      ? await rpc("move", { state: game.state, move: "pass" })
      : await rpc("bot_move", { state: game.state, bot: seat, seconds: game.think });
    if (asked !== version) return false;
    setState(after.state);
    await draw();
    return false;
  } catch (error) {
    if (error instanceof ServiceError && error.code === -32000) return true;
    game.paused = true;
    document.getElementById("pause-bots").checked = true;
    fail(error);
    return false;
  }
}

// -- loading and saving -------------------------------------------------------------

async function load(text) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ServiceError({ code: 0, message: t("load.not_json") });
  }
  // A golden fixture file wraps its game's record.
  if (doc && !doc.header && doc.record && typeof doc.record === "object") doc = doc.record;
  if (doc && typeof doc === "object" && doc.header && Array.isArray(doc.moves)) {
    const { state } = await busy(rpc("replay", { record: doc }));
    setState(state);
    const players = doc.header.players;
    game.names = Array.isArray(players) ? players.map((p) => String(p?.name ?? "")) : null;
    game.seats = game.seats.map(() => "human");
    game.ply = 0; // a record is shown from its start, to be replayed
  } else {
    const state = typeof doc === "string" ? doc : text.trim();
    await busy(rpc("summary", { state }));
    setState(state);
    game.names = null;
  }
  showSeats();
  await draw();
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function saveRecord() {
  try {
    const players = Array.from({ length: view.numplayers }, (_, i) => ({
      name: nameOf(i + 1),
      is_ai: game.seats[i] !== "human",
    }));
    const { record } = await busy(rpc("record", { state: game.state, players }));
    download("stawvs-record.json", "application/json", `${JSON.stringify(record, null, 2)}\n`);
  } catch (error) {
    fail(error);
  }
}

// -- new games and seats -----------------------------------------------------------

function variantChoice(variant, type) {
  const id = `variant-${variant.uid.replace(/[^a-z0-9-]/gi, "")}`;
  const label = document.createElement("label");
  const input = document.createElement("input");
  input.type = type;
  input.name = type === "radio" ? "setup" : "option";
  input.value = variant.uid;
  input.id = id;
  label.htmlFor = id;
  label.textContent = ` ${variant.name}`;
  const description = document.createElement("span");
  description.className = "description";
  description.textContent = variant.description;
  const line = document.createElement("div");
  line.append(input, label, description);
  return line;
}

function buildNewForm() {
  const setup = document.getElementById("new-setup");
  const options = document.getElementById("new-options");
  for (const variant of gameinfo.variants) {
    if (variant.group === "setup") setup.append(variantChoice(variant, "radio"));
    else options.append(variantChoice(variant, "checkbox"));
  }
  setup.querySelector("input").checked = true;
}

async function startNew(players, variants, seed) {
  const params = { players, variants };
  if (seed !== "") params.seed = /^-?\d+$/.test(seed) ? Number(seed) : seed;
  const { state } = await busy(rpc("new", params));
  setState(state);
  game.names = null;
  showSeats();
  await draw();
}

function showSeats() {
  const box = document.getElementById("seats");
  const count = view?.numplayers ?? 2;
  const rows = [];
  for (let player = 1; player <= 4; player += 1) {
    const label = document.createElement("label");
    label.htmlFor = `seat-${player}`;
    label.textContent = t("seats.player", { n: player });
    const select = document.createElement("select");
    select.id = `seat-${player}`;
    select.dataset.player = String(player);
    for (const seat of SEATS) {
      const option = document.createElement("option");
      option.value = seat;
      option.textContent = t(`seat.${seat}`);
      select.append(option);
    }
    select.value = game.seats[player - 1];
    label.hidden = select.hidden = player > count;
    rows.push(label, select);
  }
  box.replaceChildren(...rows);
}

// -- keys and wiring ------------------------------------------------------------

const KEYS = [
  ["←  →", "keys.plies"],
  ["Home  End", "keys.ends"],
  ["p", "keys.pass"],
  ["z", "keys.undo"],
  ["y", "keys.redo"],
  ["r", "keys.random"],
  ["h", "keys.hint"],
  ["m", "keys.move"],
  ["b", "keys.board"],
  ["Esc", "keys.escape"],
  ["n", "keys.new"],
  ["l", "keys.load"],
  ["?", "keys.help"],
];

function showKeys() {
  const list = document.getElementById("help-keys");
  list.replaceChildren(
    ...KEYS.flatMap(([key, id]) => {
      const term = document.createElement("dt");
      term.textContent = key;
      const text = document.createElement("dd");
      text.textContent = t(id);
      return [term, text];
    }),
  );
}

function boardKeys(event) {
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  if (event.key in moves) {
    const [df, dr] = moves[event.key];
    const file = Math.max(0, Math.min(7, FILES.indexOf(cursor[0]) + df));
    const rank = Math.max(1, Math.min(8, Number(cursor[1]) + dr));
    cursor = `${FILES[file]}${rank}`;
    placeCursor();
    document.getElementById("board-help").textContent = t("board.cursor", { square: cursor });
    event.preventDefault();
    return true;
  }
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    clickSquare(cursor);
    return true;
  }
  return false;
}

function pageKeys(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest("input, textarea, select, dialog")) {
    if (event.key === "Escape" && target.id === "move-input") target.blur();
    return;
  }
  if (target.id === "board" && boardKeys(event)) return;
  const actions = {
    ArrowLeft: () => show((view?.ply ?? 0) - 1),
    ArrowRight: () => show((view?.ply ?? 0) + 1),
    Home: () => show(0),
    End: () => show(Infinity),
    p: () => document.getElementById("pass-button").click(),
    z: () => undo(),
    y: () => redo(),
    r: () => document.getElementById("random-button").click(),
    h: () => hint(),
    m: () => document.getElementById("move-input").focus(),
    b: () => document.getElementById("board").focus(),
    n: () => document.getElementById("new-button").click(),
    l: () => document.getElementById("load-button").click(),
    "?": () => document.getElementById("help-dialog").showModal(),
    Escape: () => {
      partial = "";
      hints = [];
      document.getElementById("hint-list").replaceChildren();
      draw().catch(fail);
    },
  };
  const action = actions[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}

function wire() {
  const on = (id, type, handler) => document.getElementById(id).addEventListener(type, handler);
  on("board", "click", (event) => {
    const square = event.target.closest("[data-square]");
    if (square) {
      cursor = square.dataset.square;
      placeCursor();
      clickSquare(cursor);
    }
  });
  on("move-form", "submit", (event) => {
    event.preventDefault();
    typed(document.getElementById("move-input").value);
  });
  on("pass-button", "click", () => play("pass"));
  on("undo-button", "click", () => undo());
  on("redo-button", "click", () => redo());
  on("random-button", "click", () => randomMove());
  on("hint-button", "click", () => hint());
  on("ply-slider", "input", (event) => show(Number(event.target.value)));
  on("moves", "click", (event) => {
    const button = event.target.closest("[data-ply]");
    if (button) show(Number(button.dataset.ply));
  });
  on("seats", "change", (event) => {
    const player = Number(event.target.dataset.player);
    game.seats[player - 1] = event.target.value;
    save();
    if (view) showPanel(view);
    showButtons();
    scheduleBot();
  });
  on("think", "change", (event) => {
    const seconds = Number(event.target.value);
    game.think = Number.isFinite(seconds) ? Math.max(0.1, Math.min(5, seconds)) : 1;
    event.target.value = String(game.think);
    save();
  });
  on("pause-bots", "change", (event) => {
    game.paused = event.target.checked;
    save();
    if (view) showPanel(view);
    scheduleBot();
  });
  on("marks", "change", (event) => {
    game.marks = event.target.checked;
    draw().catch(fail);
  });
  on("new-button", "click", () => {
    document.getElementById("new-players").value = String(view?.numplayers ?? 2);
    document.getElementById("new-dialog").showModal();
  });
  on("new-form", "submit", (event) => {
    if (event.submitter?.value !== "start") return;
    const form = event.target;
    const players = Number(form.players.value);
    const setup = form.querySelector('input[name="setup"]:checked')?.value;
    const variants = [...form.querySelectorAll('input[name="option"]:checked')].map((i) => i.value);
    if (setup && !setup.startsWith("#")) variants.unshift(setup);
    startNew(players, variants, form.seed.value.trim()).catch(fail);
  });
  on("load-button", "click", () => {
    document.getElementById("load-message").textContent = "";
    document.getElementById("load-dialog").showModal();
  });
  const loadFrom = async (text) => {
    const message = document.getElementById("load-message");
    try {
      await load(text);
      message.textContent = t("load.done");
      document.getElementById("load-dialog").close();
    } catch (error) {
      message.textContent = error.message;
    }
  };
  on("load-go", "click", () => loadFrom(document.getElementById("load-text").value));
  on("load-file", "change", async (event) => {
    const file = event.target.files?.[0];
    if (file) loadFrom(await file.text());
  });
  on("save-state", "click", () => download("stawvs-state.json", "application/json", `${game.state}\n`));
  on("save-record", "click", () => saveRecord());
  on("save-svg", "click", () => download("stawvs.svg", "image/svg+xml", svgText));
  document.addEventListener("keydown", pageKeys);
}

async function start() {
  const lang = new URLSearchParams(location.search).get("lang") || navigator.language || "en";
  words = await (await fetch(`messages/${encodeURIComponent(lang)}`)).json();
  localise();
  showKeys();
  wire();
  gameinfo = (await rpc("info")).gameinfo;
  buildNewForm();
  restore();
  document.getElementById("think").value = String(game.think);
  document.getElementById("pause-bots").checked = game.paused;
  document.getElementById("marks").checked = game.marks;
  if (game.state === null) {
    const { state } = await rpc("new", { players: 2 });
    setState(state);
  } else {
    version += 1;
  }
  try {
    await draw();
  } catch (error) {
    // A kept game the server no longer reads: start afresh.
    fail(error);
    const { state } = await rpc("new", { players: 2 });
    setState(state);
    await draw();
  }
  showSeats();
}

const ready = start();

window.stawvs = {
  ready,
  state: () => game.state,
  load: (text) => load(String(text)),
  ply: () => view?.ply ?? null,
  view: () => view,
  partial: () => partial,
  setSeats: (seats, think) => {
    game.seats = [...seats, ...game.seats.slice(seats.length)].slice(0, 4);
    if (think !== undefined) game.think = think;
    showSeats();
    save();
    if (view) showPanel(view);
    showButtons();
    scheduleBot();
  },
  idle: () => new Promise((resolve) => {
    idleWaiters.push(resolve);
    setTimeout(checkIdle, 0);
  }),
};
document.body.dataset.ready = "";
ready.then(
  () => {
    document.body.dataset.ready = "yes";
  },
  (error) => {
    say(t("error.page"), true);
    console.error(error);
  },
);
