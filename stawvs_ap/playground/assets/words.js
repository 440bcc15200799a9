// The page's words, in the player's language. The server sends one language's
// table (GET messages/LANG, made from the same gettext catalogues as the
// engine's words): the language chosen, its plural rule, the templates by
// message id with named placeholders ("{player} to move", a list of forms
// for a plural) and the installed languages by their own names. Nothing
// else on the page holds a word.

import { pluralRule } from "./plural.js";

const ENGLISH_RULE = pluralRule("nplurals=2; plural=(n != 1);");
let table = { language: "en", messages: {}, languages: [] };
let rule = ENGLISH_RULE;

// Loads the words of the first language of `preferences` (tags, best first)
// the server has, else English; resolves to the language's tag.
export async function loadWords(preferences) {
  const wanted = preferences.filter((tag) => typeof tag === "string" && tag).join(",") || "en";
  const response = await fetch(`messages/${encodeURIComponent(wanted.slice(0, 200))}`);
  const loaded = await response.json();
  if (!response.ok || typeof loaded?.messages !== "object") throw new Error("no message table");
  rule = pluralRule(loaded.plural_forms);
  table = loaded;
  return table.language;
}

export const language = () => table.language;
// [{tag, name}]: every language the server speaks, by its own name.
export const languages = () => table.languages ?? [];

// `template` with its placeholders filled ("{{" and "}}" are braces, as in Python).
function fill(template, args) {
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, key) => {
    if (key === undefined) return whole[0];
    return key in args ? String(args[key]) : whole;
  });
}

export function t(id, args = {}) {
  const template = table.messages[id];
  return typeof template === "string" ? fill(template, args) : id;
}

// A message with plural forms: the form for the whole number `count`.
export function tn(id, count, args = {}) {
  const forms = table.messages[id];
  if (!Array.isArray(forms)) return id;
  return fill(forms[rule.form(count)] ?? forms.at(-1), args);
}

// "a", "a and b", "a, b and c", as the engine joins a list.
export function listing(items) {
  if (items.length <= 1) return items.join("");
  const head = items.slice(0, -1).join(t("list.separator"));
  return t("list.and", { items: head, last: items.at(-1) });
}

// Fills every element that names a message: its text (data-msg), its
// aria-label (data-msg-label), its placeholder (data-msg-placeholder) or its
// aria-roledescription (data-msg-role); and says the page's language.
export function localise(root = document) {
  for (const el of root.querySelectorAll("[data-msg]")) el.textContent = t(el.dataset.msg);
  const attributes = {
    msgLabel: "aria-label",
    msgPlaceholder: "placeholder",
    msgRole: "aria-roledescription",
  };
  for (const [key, attribute] of Object.entries(attributes)) {
    const selector = `[data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    for (const el of root.querySelectorAll(selector)) el.setAttribute(attribute, t(el.dataset[key]));
  }
  document.documentElement.lang = table.language;
  document.title = t("page.title");
}
