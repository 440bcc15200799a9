// The page's words: one message table per language, keyed by message id,
// with named placeholders ("{player} to move"). The server sends the table
// (GET messages/LANG); nothing else on the page holds a word.

let words = {};

export async function loadWords(lang) {
  const response = await fetch(`messages/${encodeURIComponent(lang)}`);
  words = await response.json();
}

export function t(id, args = {}) {
  const text = words[id] ?? id;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in args ? String(args[key]) : whole));
}

// Fills every element that names a message: its text (data-msg), its
// aria-label (data-msg-label) or its placeholder (data-msg-placeholder).
export function localise(root = document) {
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
