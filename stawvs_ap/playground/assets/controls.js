// The page's controls: the keys, the forms (new game, seats) and the wiring
// of every button, field and click to the actions of playground.js, which
// hands them over as `app`. The keyboard's cursor on the board lives here.

import { rove } from "./grid.js";
import { t } from "./words.js";

export const SEATS = ["human", "random", "greedy", "uct", "mcts"];
export const FILES = "abcdefgh";
export const KEYS = [
  [["←", "→"], "page.keys.plies"],
  [["page.key.home", "page.key.end"], "page.keys.ends"],
  [["p"], "page.keys.pass"],
  [["z"], "page.keys.undo"],
  [["y"], "page.keys.redo"],
  [["r"], "page.keys.random"],
  [["h"], "page.keys.hint"],
  [["m"], "page.keys.move"],
  [["b"], "page.keys.board"],
  [["d"], "page.keys.describe"],
  [["page.key.escape"], "page.keys.escape"],
  [["n"], "page.keys.new"],
  [["l"], "page.keys.load"],
  [["?"], "page.keys.help"],
];

const $ = (id) => document.getElementById(id);
let cursor = "d4";

export function cursorSquare() {
  return cursor;
}

// Draws the cursor's mark and makes its cell the board's one tab stop; with
// `focus`, or when the keyboard is on the board, focuses that cell.
export function placeCursor(focus = false) {
  const board = $("board");
  rove(board, cursor, focus || board.contains(document.activeElement));
  const square = board.querySelector(`[data-square="${cursor}"]`);
  const mark = board.querySelector(".cursor");
  if (!square || !mark) return;
  for (const key of ["x", "y", "width", "height"]) mark.setAttribute(key, square.getAttribute(key));
}

export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// -- new games and seats -----------------------------------------------------------

function variantChoice(variant, type) {
  const input = Object.assign(document.createElement("input"), {
    type,
    name: type === "radio" ? "setup" : "option",
    value: variant.uid,
    id: `variant-${variant.uid.replace(/[^a-z0-9-]/gi, "")}`,
  });
  const label = Object.assign(document.createElement("label"), {
    htmlFor: input.id,
    textContent: ` ${variant.name}`,
  });
  const description = Object.assign(document.createElement("span"), {
    className: "description",
    textContent: variant.description,
  });
  const line = document.createElement("div");
  line.append(input, label, description);
  return line;
}

// The variants' choices of the new game's form, in the language of `gameinfo`;
// built again for another language, with the same choices checked.
export function buildNewForm(gameinfo) {
  const fieldsets = [$("new-setup"), $("new-options")];
  const checked = new Set(
    fieldsets.flatMap((set) => [...set.querySelectorAll("input:checked")].map((input) => input.value)),
  );
  for (const set of fieldsets) set.replaceChildren(set.querySelector("legend"));
  for (const variant of gameinfo.variants) {
    const setup = variant.group === "setup";
    const choice = variantChoice(variant, setup ? "radio" : "checkbox");
    choice.querySelector("input").checked = checked.has(variant.uid);
    $(setup ? "new-setup" : "new-options").append(choice);
  }
  if (!$("new-setup").querySelector("input:checked")) $("new-setup").querySelector("input").checked = true;
}

// The menu of the page's languages, each by its own name.
export function showLanguages(languages, chosen) {
  const menu = $("language");
  menu.replaceChildren(
    ...languages.map(({ tag, name }) =>
      Object.assign(document.createElement("option"), { value: tag, lang: tag, textContent: name }),
    ),
  );
  menu.value = chosen;
}

export function showSeats(count, seatOf) {
  const rows = [];
  for (let player = 1; player <= 4; player += 1) {
    const label = Object.assign(document.createElement("label"), {
      htmlFor: `seat-${player}`,
      textContent: t("player.name", { player }),
    });
    const select = Object.assign(document.createElement("select"), { id: `seat-${player}` });
    select.dataset.player = String(player);
    for (const seat of SEATS) {
      select.append(Object.assign(document.createElement("option"), { value: seat, textContent: t(`page.seat.${seat}`) }));
    }
    select.value = seatOf(player);
    label.hidden = select.hidden = player > count;
    rows.push(label, select);
  }
  $("seats").replaceChildren(...rows);
}

// -- keys and wiring ------------------------------------------------------------

function boardKeys(app, event) {
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  if (event.key in steps) {
    const [df, dr] = steps[event.key];
    const file = Math.max(0, Math.min(7, FILES.indexOf(cursor[0]) + df));
    const rank = Math.max(1, Math.min(8, Number(cursor[1]) + dr));
    cursor = `${FILES[file]}${rank}`;
    $("board").dataset.input = "keys"; // the cursor's frame shows again
    placeCursor(true);
    $("board-help").textContent = t("page.board.cursor", { square: cursor });
    return true;
  }
  if (event.key === "Enter" || event.key === " ") {
    app.user(() => app.clickSquare(cursor))();
    return true;
  }
  return false;
}

function pageKeys(app, event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest("input, textarea, select, dialog")) {
    if (event.key === "Escape" && target.id === "move-input") target.blur();
    return;
  }
  if (target.closest("#board") && boardKeys(app, event)) {
    event.preventDefault();
    return;
  }
  const click = (id) => () => $(id).click();
  const actions = {
    ArrowLeft: app.user(() => app.show((app.view()?.ply ?? 0) - 1)),
    ArrowRight: app.user(() => app.show((app.view()?.ply ?? 0) + 1)),
    Home: app.user(() => app.show(0)),
    End: app.user(() => app.show(Infinity)),
    p: click("pass-button"),
    z: click("undo-button"),
    y: click("redo-button"),
    r: click("random-button"),
    h: click("hint-button"),
    m: () => $("move-input").focus(),
    b: () => placeCursor(true),
    d: () => app.describe(),
    n: click("new-button"),
    l: click("load-button"),
    "?": () => $("help-dialog").showModal(),
    Escape: app.user(app.escape),
  };
  const action = actions[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}

// Keeps Tab and Shift+Tab inside an open dialog: a modal dialog makes the page
// behind it inert, but the browser would still let the focus leave the page.
function keepFocusInDialog(event) {
  if (event.key !== "Tab") return;
  const dialog = document.querySelector("dialog[open]");
  if (!dialog) return;
  const focusable = [...dialog.querySelectorAll("button, input, select, textarea, a[href], [tabindex]")].filter(
    (el) => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0,
  );
  if (!focusable.length) return;
  const [first, last] = [focusable[0], focusable[focusable.length - 1]];
  const inside = dialog.contains(document.activeElement);
  if (event.shiftKey && (!inside || document.activeElement === first)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || document.activeElement === last)) {
    event.preventDefault();
    first.focus();
  }
}

export function wire(app) {
  document.addEventListener("keydown", keepFocusInDialog);
  const on = (id, type, handler) => $(id).addEventListener(type, handler);
  on("board", "click", (event) => {
    const square = event.target.closest("[data-square]");
    if (!square) return;
    cursor = square.dataset.square;
    // A mouse's click: no keyboard frame left on the square (it would look like a
    // selection once the pyramid is claimed), and the keys' help line back.
    if (event.detail > 0) {
      $("board").dataset.input = "pointer";
      $("board-help").textContent = t("page.board.help");
    }
    placeCursor();
    const name = cursor;
    app.user(() => app.clickSquare(name))();
  });
  on("move-form", "submit", (event) => {
    event.preventDefault();
    const text = $("move-input").value;
    app.user(() => app.typed(text))();
  });
  on("pass-button", "click", app.user(() => app.play("pass")));
  on("undo-button", "click", app.user(app.undo));
  on("redo-button", "click", app.user(app.redo));
  on("random-button", "click", app.user(app.randomMove));
  on("hint-button", "click", app.user(app.hint));
  on("analyse-button", "click", app.user(app.analyse));
  on("claims-toggle", "change", app.user(() => app.draw({ board: true })));
  on("ply-slider", "input", (event) => app.user(() => app.show(Number(event.target.value)))());
  for (const id of ["moves", "start-button"]) {
    on(id, "click", (event) => {
      const button = event.target.closest("[data-ply]");
      if (button) app.user(() => app.show(Number(button.dataset.ply)))();
    });
  }
  on("seats", "change", (event) => {
    app.game.seats[Number(event.target.dataset.player) - 1] = event.target.value;
    app.seatsChanged();
  });
  on("think", "change", (event) => {
    const seconds = Number(event.target.value);
    app.game.think = Number.isFinite(seconds) ? Math.max(0.1, Math.min(5, seconds)) : 1;
    event.target.value = String(app.game.think);
    app.save();
  });
  on("pause-bots", "change", (event) => {
    app.game.paused = event.target.checked;
    app.seatsChanged();
  });
  on("language", "change", (event) => app.user(() => app.speak(event.target.value))());
  on("marks", "change", (event) => {
    app.game.marks = event.target.checked;
    app.user(() => app.draw({ board: true }))();
  });
  on("new-button", "click", () => {
    $("new-players").value = String(app.view()?.numplayers ?? 2);
    $("new-dialog").showModal();
  });
  on("new-form", "submit", (event) => {
    if (event.submitter?.value !== "start") return;
    const form = event.target;
    const setup = form.querySelector('input[name="setup"]:checked')?.value;
    const variants = [...form.querySelectorAll('input[name="option"]:checked')].map((i) => i.value);
    if (setup && !setup.startsWith("#")) variants.unshift(setup);
    const players = Number(form.players.value);
    const seed = form.seed.value.trim();
    app.user(() => app.startNew(players, variants, seed))();
  });
  on("help-button", "click", () => $("help-dialog").showModal());
  on("load-button", "click", () => {
    $("load-message").textContent = "";
    $("load-dialog").showModal();
  });
  // Reading the text is part of the action, so that the page is busy (not idle)
  // from the moment a file is chosen until its game is shown.
  const loadFrom = (read) =>
    app.act(async () => app.load(await read())).then(
      () => $("load-dialog").close(),
      (error) => {
        $("load-message").textContent = error.message;
      },
    );
  on("load-go", "click", () => loadFrom(() => $("load-text").value));
  on("load-file", "change", (event) => {
    const file = event.target.files?.[0];
    if (file) loadFrom(() => file.text());
  });
  on("save-state", "click", () => download("stawvs-state.json", "application/json", `${app.game.state}\n`));
  on("save-record", "click", app.user(app.saveRecord));
  on("save-svg", "click", () => download("stawvs.svg", "image/svg+xml", app.svg()));
  document.addEventListener("keydown", (event) => pageKeys(app, event));
}
