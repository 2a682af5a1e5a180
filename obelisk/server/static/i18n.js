// Messages in the page's language, from the server's catalogs (`GET /api/messages/{lang}/{domain}`).
// A message id is its English text, so English needs no catalog and a missing translation reads as English.
export const LANGUAGES = ["en", "cs"];
const DEFAULT_LANGUAGE = "en";
const STORE_KEY = "obelisk.lang";

let catalogs = [];
let forms = ["one", "other"];
let rules = new Intl.PluralRules("en");
export let lang = "en";

/** The language chosen on the switcher, else the first of the browser's languages that we speak. */
export function chooseLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORE_KEY);
  } catch {
    stored = null;
  }
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const primary = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return "en";
}

/** Remembers the reader's choice; the caller reloads what it shows. */
export function rememberLanguage(code) {
  if (!LANGUAGES.includes(code)) return;
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // Private windows may refuse storage; the choice then lasts for this page only.
  }
}

/** Loads the catalogs of `domains` (a game's first, then `obelisk`) for `code`. */
export async function loadMessages(code, domains) {
  lang = LANGUAGES.includes(code) ? code : "en";
  document.documentElement.lang = lang;
  rules = new Intl.PluralRules(lang);
  if (lang === "en") {
    catalogs = [];
    forms = ["one", "other"];
    return;
  }
  const loaded = await Promise.all(domains.map(async (domain) => {
    const response = await fetch(`/api/messages/${lang}/${encodeURIComponent(domain)}`, { headers: { Accept: "application/json" } });
    return response.ok ? response.json() : { messages: {}, terms: {}, plural: forms };
  }));
  catalogs = loaded;
  forms = (loaded.find((c) => c.plural) || {}).plural || forms;
}

function format(text, params) {
  if (!params) return text;
  return text.replace(/\{\{|\}\}|\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (match, name) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    return name in params ? String(params[name]) : match;
  });
}

function lookup(table, key) {
  for (const catalog of catalogs) {
    const found = catalog[table] && catalog[table][key];
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The text of message `id` in the page's language, with `{name}` fields filled from `params`. */
export function t(id, params) {
  const found = lang === "en" ? undefined : lookup("messages", id);
  return format(typeof found === "string" ? found : id, params);
}

/** The plural form for `n` (Czech has three), with `{n}` and `params` filled. */
t.n = (singular, plural, n, params) => {
  const found = lang === "en" ? undefined : lookup("messages", singular);
  let text;
  if (Array.isArray(found)) {
    const index = forms.indexOf(rules.select(n));
    text = found[index >= 0 ? index : found.length - 1];
  } else {
    text = n === 1 ? singular : plural;
  }
  return format(text, { n, ...(params || {}) });
};

/** The name of a component of `kind` (card, tile, item…) in the page's language. */
t.term = (kind, name) => {
  const found = lang === "en" ? undefined : lookup("terms", `${kind}\u0004${name}`);
  return typeof found === "string" ? found : name;
};

const TRANSLATED_ATTRIBUTES = ["placeholder", "title", "aria-label"];

/**
 * Puts the page's static texts in the page's language: an element with `data-i18n="id"` gets `t(id)` as its
 * text, one with `data-i18n-placeholder`, `data-i18n-title` or `data-i18n-aria-label` that attribute.
 */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const name of TRANSLATED_ATTRIBUTES) {
    for (const node of root.querySelectorAll(`[data-i18n-${name}]`)) {
      node.setAttribute(name, t(node.getAttribute(`data-i18n-${name}`)));
    }
  }
}

/**
 * The header's language select: shows the page's language; a choice is remembered and handed to
 * `onSwitch(code)`, which loads the catalogs again and re-renders without leaving the page.
 */
export function languageSwitch(select, onSwitch) {
  select.value = lang;
  select.addEventListener("change", async () => {
    const code = select.value;
    if (!LANGUAGES.includes(code) || code === lang) return;
    rememberLanguage(code);
    select.disabled = true;
    try {
      await onSwitch(code);
    } finally {
      select.disabled = false;
      select.value = lang;
    }
  });
}

/** `path` asking the API for its texts in the page's language (English, the API's default, needs no `lang`). */
export function withLanguage(path) {
  if (lang === DEFAULT_LANGUAGE) return path;
  return `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;
}
