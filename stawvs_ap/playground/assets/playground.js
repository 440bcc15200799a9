// The Stawvs playground: a page over the engine's JSON-RPC service.
//
// The page holds the game (the serialized state) and sends it with every
// request; the server keeps nothing, so two tabs never meet, and the tab's
// session storage brings the game back after a reload. The board is the
// engine's own SVG (method svg) with a data-square element over each square;
// clicks go through the engine's handle_click (method click). Every action
// (a click, a typed move, a bot's move…) waits for the one before, so clicks
// as fast as a test makes them are read in order.
//
// The page speaks the player's language: the one of ?lang=, else the one
// chosen before (local storage), else the browser's (navigator.languages),
// negotiated by the server; the language menu changes it. Every call whose
// answer has words (verdicts, instructions, the picture's labels, refusals)
// carries it as `locale`; states and records are the same in every language.
//
// For checks from outside: window.stawvs.state() is the serialized state as
// text, window.stawvs.load(text) loads a state or a record given as text.

import {
  buildNewForm,
  download,
  FILES,
  KEYS,
  placeCursor,
  showLanguages,
  showSeats,
  wire,
} from "./controls.js";
import { describePosition, nameCells, showPicture } from "./grid.js";
import { showKeys, showMoves, showPanel } from "./panel.js";
import { batch, rpc, SERVER_BUSY, ServiceError } from "./service.js";
import { language, languages, loadWords, localise, t, tn } from "./words.js";

const STORE = "stawvs-playground";
const LANGUAGE_STORE = "stawvs-playground-language";
const BOT_DELAY_MS = 30;
const BOT_RETRY_MS = 400;
const $ = (id) => document.getElementById(id);

// -- what the page holds ----------------------------------------------------------

// The seats a new visitor gets: one person against the MCTS bot, as the
// README's picture shows; once changed, the visitor's own choice (kept in
// localStorage, for every tab and later visits).
const SEATS_STORE = "stawvs-playground-seats";
function preferredSeats() {
  try {
    const kept = JSON.parse(localStorage.getItem(SEATS_STORE) || "null");
    if (Array.isArray(kept) && kept.length === 4 && kept.every((s) => typeof s === "string")) return kept;
  } catch {
    // storage off or a damaged entry: the default
  }
  return ["human", "mcts", "mcts", "mcts"];
}

const game = {
  state: null, // the serialized state, text
  names: null, // the players' names from a record, or null
  seats: preferredSeats(),
  think: 1,
  paused: false,
  marks: true,
  ply: null, // the ply shown; null: the latest
  redo: [], // moves taken back, the next to redo last
};
let partial = ""; // the move being built by clicks
let hints = []; // the candidates of the last hint
let analysis = null; // the last analysis of the position shown (its lines and claim map)
let arrows = []; // [{move, label}]: a reviewed move and the better one, drawn as arrows
let view = null; // the last summary
let svgText = "";
let variantNames = new Map(); // variant uid -> its name, in the page's language

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

const nameOf = (player) => game.names?.[player - 1] || t("player.name", { player });
const variantOf = (uid) => variantNames.get(uid) ?? uid;
// The parameters of a call whose answer has words, in the page's language.
const worded = (params) => ({ ...params, locale: language() });
const seatOf = (player) => game.seats[player - 1];
const latest = () => game.ply === null || (view !== null && game.ply >= view.plies);
const humanToMove = () => view && !view.gameover && latest() && seatOf(view.currplayer) === "human";

// -- one action at a time -----------------------------------------------------------

let queue = Promise.resolve();
let pending = 0;
let idleWaiters = [];
let botTimer = null;

// Runs `action` after every action before it; the promise of its result.
function act(action) {
  pending += 1;
  $("board").setAttribute("aria-busy", "true");
  const run = queue.then(action);
  queue = run.catch(() => {});
  return run.finally(() => {
    pending -= 1;
    if (pending === 0) $("board").removeAttribute("aria-busy");
    setTimeout(checkIdle, 0);
  });
}

// The same, for the page's own controls: errors are shown, not thrown.
const user = (action) => () => act(action).catch(fail);

function checkIdle() {
  if (pending > 0 || botTimer) return;
  const waiters = idleWaiters;
  idleWaiters = [];
  for (const resolve of waiters) resolve();
}

function say(text, isError = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", isError);
}

function fail(error) {
  if (error instanceof ServiceError) {
    say(error.code === SERVER_BUSY ? t("page.error.busy") : error.message, true);
  } else {
    say(t("page.error.page"), true);
    console.error(error);
  }
}

// -- drawing ------------------------------------------------------------------------

// Redraws the board, and unless only the move being built or the hint changed
// (`board: true`: the same position), the panel and the move list too. With
// `click` ({row, col}), the click on the move being built goes in the same
// request: the picture shows the move it makes, which becomes the move being
// built, and the engine's answer to the click is returned. A click that
// completes a move has it made in that request too (`play`): the picture is of
// the position after it, and the panel follows.
async function draw({ board = false, click = null } = {}) {
  const shown = { state: game.state };
  if (game.ply !== null) shown.ply = game.ply;
  const picture = { ...shown, marks: game.marks, names: [1, 2, 3, 4].map(nameOf) };
  if (partial) picture.move = partial;
  if (click) Object.assign(picture, { click, play: true });
  if (hints.length) {
    picture.hints = hints.map((c) => ({
      move: c.move,
      label: c.label ?? `${Math.round(100 * c.share)}%`,
    }));
  }
  if (arrows.length) picture.hints = [...(picture.hints ?? []), ...arrows];
  if (analysis && $("claims-toggle").checked) picture.claims = analysis.claims;
  const calls = [["svg", worded(picture)]];
  if (!board || !view) calls.push(["summary", worded({ ...shown, names: picture.names })]);
  let [svg, summary] = await batch(calls);
  if (svg.state) {
    setState(svg.state);
    $("move-message").textContent = "";
    [summary] = await batch([["summary", worded({ state: game.state, names: picture.names })]]);
  } else if (svg.click?.valid) {
    partial = svg.click.move;
  }
  svgText = svg.svg;
  showBoard(svg.svg);
  if (summary) {
    // A move just made (by a person or a bot) is said before whose turn it is.
    const grew = view && summary.plies === view.plies + 1 && summary.ply === summary.plies;
    const moved = grew ? summary.history.at(-1) : null;
    const said = moved ? `${t("page.said.move", { said: moved.words, move: moved.move })} ` : "";
    view = summary;
    showPanel(summary, { nameOf, seatOf, variantOf });
    showMoves(summary, { nameOf });
    showButtons();
    if (!partial && !hints.length) say(said + statusLine(summary));
    save();
    scheduleBot();
  }
  const claims = analysis && $("claims-toggle").checked ? analysis.claims : null;
  nameCells($("board"), view, { selected: partial.split(/[-,]/).filter(Boolean), nameOf, claims });
  return svg.click;
}

// The engine's picture, with the keyboard's cursor over the square it is on.
function showBoard(text) {
  const board = $("board");
  const focused = board.contains(document.activeElement); // kept on the board through a redraw
  showPicture(board, text);
  placeCursor(focused);
}

function statusLine(summary) {
  if (summary.gameover) return t("page.status.over");
  if (!latest()) return t("page.status.history", { ply: summary.ply, plies: summary.plies });
  const player = nameOf(summary.currplayer);
  if (seatOf(summary.currplayer) !== "human") {
    return t(game.paused ? "page.status.paused" : "page.status.thinking", { player });
  }
  if (summary.must_pass) return t("page.status.must-pass", { player });
  return t(summary.mode === "place" ? "page.status.place" : "page.status.collect", { player });
}

function showButtons() {
  $("pass-button").disabled = !humanToMove();
  $("random-button").disabled = !humanToMove();
  $("hint-button").disabled = !(view && !view.gameover && latest());
  $("undo-button").disabled = !(view && view.plies > 0);
  $("redo-button").disabled = game.redo.length === 0;
  $("save-record").disabled = !(view && view.gameover);
}

// -- changing the game ------------------------------------------------------------

function setState(state) {
  arrows = [];
  game.state = state;
  game.ply = null;
  game.redo = [];
  partial = "";
  hints = [];
  $("hint-list").replaceChildren();
  forgetAnalysis();
}

// A move made while an earlier position is shown continues from it: the later
// moves are taken back, and can be redone.
async function branch() {
  if (latest()) return;
  const dropped = view.history.slice(game.ply).map((entry) => entry.move);
  const after = await rpc("undo", worded({ state: game.state, plies: view.plies - game.ply }));
  setState(after.state);
  game.redo = dropped.reverse();
}

async function play(move) {
  await branch();
  const after = await rpc("move", worded({ state: game.state, move }));
  setState(after.state);
  $("move-message").textContent = "";
  await draw();
}

async function clickSquare(name) {
  if (!view || view.gameover) return;
  await branch();
  if (seatOf(view.currplayer) !== "human") {
    say(t("page.status.not-yours"), true);
    return;
  }
  if (partial && partial === name) {
    partial = ""; // a second click on the chosen cap lets it go
    await draw({ board: true });
    say(statusLine(view));
    return;
  }
  const square = { row: 8 - Number(name[1]), col: FILES.indexOf(name[0]) };
  let result = await draw({ board: true, click: square });
  if (result.valid && result.complete === 1) return; // made in that request, and said
  if (!result.valid && partial) {
    // No way on for the move being built: perhaps the start of another one.
    const fresh = await rpc("click", worded({ state: game.state, ...square, move: "" }));
    if (fresh.valid) {
      result = fresh;
      partial = fresh.move;
      if (fresh.complete === 1) {
        await play(partial);
        return;
      }
      await draw({ board: true });
    }
  }
  if (!result.valid) {
    say(result.message, true);
    return;
  }
  say(result.message);
}

async function typed(text) {
  const move = text.trim();
  if (!move) return;
  await branch();
  const verdict = await rpc("validate", worded({ state: game.state, move }));
  $("move-message").textContent = verdict.message;
  if (!verdict.valid) return;
  if (verdict.complete === 1) {
    $("move-input").value = "";
    await play(move);
    return;
  }
  partial = move;
  await draw({ board: true });
}

async function undo() {
  if (!view || view.plies === 0) return;
  // Back to a human's turn, so that a bot does not at once play again.
  const humans = game.seats.slice(0, view.numplayers).includes("human");
  let plies = 1;
  while (humans && plies < view.plies && seatOf(view.history[view.plies - plies].player) !== "human") {
    plies += 1;
  }
  const dropped = view.history.slice(view.plies - plies).map((entry) => entry.move);
  const redo = [...game.redo, ...dropped.reverse()];
  const after = await rpc("undo", worded({ state: game.state, plies }));
  setState(after.state);
  game.redo = redo;
  await draw();
}

async function redo() {
  const move = game.redo.at(-1);
  if (move === undefined) return;
  const rest = game.redo.slice(0, -1);
  const after = await rpc("move", worded({ state: game.state, move }));
  setState(after.state);
  game.redo = rest;
  await draw();
}

async function randomMove() {
  if (!humanToMove()) return;
  const after = await rpc("bot_move", worded({ state: game.state, bot: "random" }));
  setState(after.state);
  await draw();
}

async function hint() {
  if (!view || view.gameover || !latest()) return;
  say(t("page.status.hinting"));
  // The endgame solver first, briefly: a proven position needs no estimate.
  const solved = await rpc("solve", worded({ state: game.state, seconds: Math.min(game.think, 1) }));
  if (solved.proven) return showProven(solved);
  const answer = await rpc("hint", worded({ state: game.state, bot: "mcts", seconds: game.think, top: 3 }));
  if (answer.proven && game.think > 1) {
    // The bot's own solver proved it with more time: ask for the verdict with as much.
    const exact = await rpc("solve", worded({ state: game.state, seconds: Math.min(game.think, 5) }));
    if (exact.proven) return showProven(exact);
  }
  hints = answer.candidates;
  $("hint-list").replaceChildren(
    ...hints.map((c) => {
      // The service words each candidate as every door does: choice first, share, lead.
      const item = document.createElement("li");
      item.textContent = c.words;
      return item;
    }),
  );
  await draw({ board: true });
  const best = t("page.status.hint", { move: hints[0].words });
  say(answer.note ? `${best} (${answer.note})` : best);
}

// The solver's best moves as the hint, and its verdict "(proven)" on the status line.
async function showProven(solved) {
  const label = solved.margin > 0 ? `+${solved.margin}` : String(solved.margin);
  hints = solved.best.slice(0, 3).map((move) => ({ move, label }));
  $("hint-list").replaceChildren(
    ...hints.map((c) => {
      const item = document.createElement("li");
      item.textContent = c.move;
      return item;
    }),
  );
  await draw({ board: true });
  say(provenWords(solved));
}

// -- analysis: several lines and the claim map ---------------------------------------

// The analysis of the position shown: its lines as buttons (each previews its
// principal variation as numbered arrows) and, with the toggle, its claim map.
async function analyse() {
  if (!view || view.gameover) return;
  say(t("page.status.analysing"));
  const asked = { state: game.state, seconds: Math.min(game.think, 5), lines: 3 };
  if (game.ply !== null) asked.ply = game.ply;
  analysis = await rpc("analyse", worded(asked));
  const items = analysis.lines.map((line) => {
    const item = document.createElement("li");
    const button = Object.assign(document.createElement("button"), { type: "button" });
    button.textContent = lineWords(line);
    button.addEventListener("click", user(() => preview(line)));
    item.append(button);
    return item;
  });
  $("analysis-lines").replaceChildren(...items);
  $("claims-toggle").disabled = false;
  await draw({ board: true });
  say(t("page.status.analysed", { line: lineWords(analysis.lines[0]) }));
}

// "d5: 43% win share — d5 f4 e7", or with the solver's proof its exact margin.
function lineWords(line) {
  const moves = line.pv.join(" ");
  if (line.exact) {
    const margin = line.margin > 0 ? `+${line.margin}` : String(line.margin);
    return t("page.analysis.exact", { move: line.move, margin, moves });
  }
  return t("page.analysis.line", { move: line.move, percent: Math.round(100 * line.share), moves });
}

// A line's moves drawn on the board as arrows numbered in their order.
async function preview(line) {
  arrows = line.pv
    .map((move, index) => ({ move, label: String(index + 1) }))
    .filter((arrow) => arrow.move !== "pass");
  await draw({ board: true });
  say(lineWords(line));
}

function forgetAnalysis() {
  if (!analysis) return;
  analysis = null;
  $("analysis-lines").replaceChildren();
  $("claims-toggle").checked = false;
  $("claims-toggle").disabled = true;
}

// "Player 2 wins by 3 points (proven)": the solver's verdict for the player to move.
function provenWords(solved) {
  const player = nameOf(solved.player);
  if (solved.margin > 0) return tn("page.hint.proven-win", solved.margin, { player, margin: solved.margin });
  if (solved.margin < 0) return tn("page.hint.proven-loss", -solved.margin, { player, margin: -solved.margin });
  return t("page.hint.proven-shared", { player });
}

async function show(ply, drawn = []) {
  if (!view) return;
  const target = Math.max(0, Math.min(view.plies, ply));
  game.ply = target >= view.plies ? null : target;
  partial = "";
  hints = [];
  arrows = drawn;
  $("hint-list").replaceChildren();
  forgetAnalysis();
  await draw();
}

// -- bots ---------------------------------------------------------------------------

// What the player to move does by themselves, if anything: a bot's move, or the
// pass of a human who has passed before (each of their turns is a pass).
function botDue() {
  if (!view || view.gameover || !latest() || game.redo.length) return null;
  const seat = seatOf(view.currplayer);
  if (seat === "human") {
    return view.must_pass && view.players[view.currplayer - 1].passed ? { pass: true } : null;
  }
  return game.paused ? null : { seat };
}

function scheduleBot(delay = BOT_DELAY_MS) {
  if (botTimer || !botDue()) return;
  botTimer = setTimeout(() => {
    act(botMove)
      .catch((error) => {
        game.paused = true;
        $("pause-bots").checked = true;
        fail(error);
        return false;
      })
      .then((retry) => {
        botTimer = null;
        scheduleBot(retry ? BOT_RETRY_MS : BOT_DELAY_MS);
        setTimeout(checkIdle, 0);
      });
  }, delay);
}

// Plays the move due; true when the server's searches were all taken (try again).
async function botMove() {
  const due = botDue();
  if (!due) return false;
  try {
    const after = due.pass
      ? await rpc("move", worded({ state: game.state, move: "pass" }))
      : await rpc("bot_move", worded({ state: game.state, bot: due.seat, seconds: game.think }));
    setState(after.state);
  } catch (error) {
    if (error instanceof ServiceError && error.code === SERVER_BUSY) return true;
    throw error;
  }
  await draw();
  return false;
}

// -- loading and saving -------------------------------------------------------------

async function load(text) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ServiceError({ code: 0, message: t("page.load.not-json") });
  }
  // A golden fixture file wraps its game's record.
  if (doc && !doc.header && doc.record && typeof doc.record === "object") doc = doc.record;
  let state;
  let names = null;
  let ply = null;
  if (doc && typeof doc === "object" && doc.header && Array.isArray(doc.moves)) {
    // A game in progress is loaded too: the page plays on from its last move.
    state = (await rpc("replay", { record: doc, unfinished: true })).state;
    const players = doc.header.players;
    names = Array.isArray(players) ? players.map((p) => String(p?.name ?? "")) : null;
    ply = 0; // a record is shown from its start, to be replayed
  } else {
    state = typeof doc === "string" ? doc : text.trim();
    await rpc("summary", { state }); // refused here if it is no state
  }
  setState(state);
  game.names = names;
  game.ply = ply;
  game.seats = game.seats.map(() => "human"); // a loaded game is for people to go through
  await draw();
  showSeats(view?.numplayers ?? 2, seatOf);
}

// A record's players keep the names a loaded record gave them; the others are
// the engine's "Player N", the same in every language (a record is data).
async function saveRecord() {
  const players = Array.from({ length: view.numplayers }, (_, i) => ({
    ...(game.names?.[i] ? { name: game.names[i] } : {}),
    is_ai: seatOf(i + 1) !== "human",
  }));
  const { record } = await rpc("record", { state: game.state, players });
  download("stawvs-record.json", "application/json", `${JSON.stringify(record, null, 2)}\n`);
}

// A seed is a whole number from 0 to 2^63-1 and goes as a JSON number, written
// digit for digit (a JS number is exact only to 2^53); any other text goes as
// it is typed, for the service to refuse naming the range, as it refuses it
// from every host.
function seedParam(text) {
  if (!/^\d{1,19}$/.test(text)) return text;
  const digits = BigInt(text).toString();
  return typeof JSON.rawJSON === "function" ? JSON.rawJSON(digits) : Number(digits);
}

async function startNew(players, variants, seed) {
  const params = { players, variants };
  if (seed !== "") params.seed = seedParam(seed);
  const { state } = await rpc("new", params);
  setState(state);
  game.names = null;
  await draw();
  showSeats(view?.numplayers ?? 2, seatOf);
}

// Reads the position aloud (in the polite status): players, then the rows.
function describe() {
  const pointsOf = (points) => tn("page.panel.points", points, { points });
  // Its own live region, out of sight: the position is long, the status is not.
  $("said").textContent = describePosition($("board"), view, { nameOf, pointsOf });
}

function seatsChanged() {
  save();
  try {
    localStorage.setItem(SEATS_STORE, JSON.stringify(game.seats));
  } catch {
    // storage off: the choice lasts as long as the tab
  }
  if (view) {
    showPanel(view, { nameOf, seatOf, variantOf });
    say(statusLine(view));
  }
  showButtons();
  scheduleBot();
}

// The languages the player asks for, best first.
function preferences() {
  const asked = new URLSearchParams(location.search).get("lang");
  let kept = null;
  try {
    kept = localStorage.getItem(LANGUAGE_STORE);
  } catch {
    // storage off: the browser's languages
  }
  const browser = navigator.languages?.length ? [...navigator.languages] : [navigator.language];
  return [asked, kept, ...browser].filter(Boolean);
}

function showWords(info) {
  variantNames = new Map(info.gameinfo.variants.map((v) => [v.uid, v.name]));
  localise();
  showKeys(KEYS);
  showLanguages(languages(), language());
  buildNewForm(info.gameinfo);
}

// Speaks `tag` from now on: every word of the page, the engine's included.
async function speak(tag) {
  await loadWords([tag]);
  try {
    localStorage.setItem(LANGUAGE_STORE, language());
  } catch {
    // storage off: the choice lasts as long as the page
  }
  const address = new URL(location.href);
  if (address.searchParams.has("lang")) {
    address.searchParams.set("lang", language());
    history.replaceState(history.state, "", address);
  }
  showWords(await rpc("info", worded({})));
  showSeats(view?.numplayers ?? 2, seatOf);
  $("move-message").textContent = "";
  partial = "";
  hints = [];
  $("hint-list").replaceChildren();
  await draw();
}

async function start() {
  const wanted = preferences();
  // The words, the variants and (in a new tab) a game to start with, at once
  // (the server negotiates the same language from the same preferences).
  const [, [info, fresh]] = await Promise.all([
    loadWords(wanted),
    batch([
      ["info", { locale: wanted.join(",").slice(0, 200) }],
      ["new", { players: 2 }],
    ]),
  ]);
  showWords(info);
  wire({
    game,
    view: () => view,
    svg: () => svgText,
    act,
    user,
    clickSquare,
    typed,
    play,
    undo,
    redo,
    randomMove,
    hint,
    analyse,
    show,
    draw,
    load,
    startNew,
    saveRecord,
    seatsChanged,
    describe,
    save,
    speak,
    escape: () => {
      partial = "";
      hints = [];
      $("hint-list").replaceChildren();
      return draw();
    },
  });
  restore();
  $("think").value = String(game.think);
  $("pause-bots").checked = game.paused;
  $("marks").checked = game.marks;
  if (game.state === null) setState(fresh.state);
  try {
    await draw();
  } catch (error) {
    // A kept game that no longer loads: start afresh.
    fail(error);
    setState(fresh.state);
    await draw();
  }
  showSeats(view?.numplayers ?? 2, seatOf);
}

const ready = act(start);

window.stawvs = {
  ready,
  state: () => game.state,
  load: (text) => act(() => load(String(text))),
  ply: () => view?.ply ?? null,
  language: () => language(),
  view: () => view,
  partial: () => partial,
  // Seats by player ("human", "random", "greedy", "uct", "mcts"), and the think time.
  setSeats: (seats, think) => {
    game.seats = [...seats, ...game.seats.slice(seats.length)].slice(0, 4);
    if (think !== undefined) game.think = think;
    showSeats(view?.numplayers ?? 2, seatOf);
    seatsChanged();
  },
  // Shows stack entry `ply` with `drawn` ([{move, label}]) as arrows (the review's).
  showArrows: (ply, drawn) => act(() => show(ply, drawn)),
  // Resolves once no action runs and no bot is about to move.
  idle: () =>
    new Promise((resolve) => {
      idleWaiters.push(resolve);
      setTimeout(checkIdle, 0);
    }),
};
ready.then(
  () => {
    document.body.dataset.ready = "yes";
  },
  (error) => {
    say(t("page.error.page"), true);
    console.error(error);
  },
);
