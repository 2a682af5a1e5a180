// The account page: sign up or sign in when signed out; when signed in, the account's name, signing out, its
// tables (those waiting for its move first, each a link that opens it on this device) and its settings.
import { api, el, replace, errorText, seatName, statusText, csrfToken } from "/static/common.js";
import { t, lang, chooseLanguage, loadMessages, translatePage, languageSwitch, withLanguage } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
let account = null;

function formError(form, message) {
  const line = form.querySelector(".error");
  line.textContent = message;
  line.hidden = !message;
}

/** Sends `form`'s request with its button disabled; shows the refusal in the form, in the page's words. */
async function submit(form, work) {
  const button = form.querySelector("button[type=submit]");
  formError(form, "");
  button.disabled = true;
  try {
    await work();
  } catch (error) {
    formError(form, errorText(error));
  } finally {
    button.disabled = false;
  }
}

async function signIn(event, path, prefix) {
  event.preventDefault();
  const form = event.target;
  await submit(form, async () => {
    const answer = await api("POST", path, { name: $(`${prefix}-name`).value, password: $(`${prefix}-password`).value });
    $(`${prefix}-password`).value = "";
    account = answer.account;
    await show();
  });
}

async function signOut() {
  try {
    await api("DELETE", "/api/session");
  } catch {
    // Signed out already (elsewhere, or the session expired): the page shows the forms either way.
  }
  account = null;
  await show();
}

function tableRow(entry) {
  const summary = entry.table;
  const others = summary.seats.map((seat) => (seat.seat === entry.seat ? t("{who} (you)", { who: seatName(seat) })
    : seatName(seat))).join(", ");
  const status = summary.status === "waiting" ? t("waiting for players") : statusText(summary.status);
  const changed = new Date(summary.updated).toLocaleString(lang);
  return el("li", { class: "table-row", "data-mine": entry.your_move ? "" : null },
    el("a", { class: "table-title", href: entry.url }, summary.game_name),
    entry.your_move ? el("strong", { class: "your-move" }, t("Your move")) : null,
    el("span", {}, others),
    el("span", { class: "muted" }, status, " · ", t("last change {when}", { when: changed })));
}

async function loadTables() {
  const box = $("account-tables");
  try {
    const { tables } = await api("GET", withLanguage("/api/account/tables"));
    replace(box, tables.length ? el("ul", { class: "table-list", "aria-label": t("My tables") }, tables.map(tableRow))
      : el("p", { class: "muted" }, t("None yet.")));
  } catch (error) {
    replace(box, el("p", { class: "error" }, errorText(error)));
  }
}

async function saveSettings(event) {
  event.preventDefault();
  const form = event.target;
  $("settings-status").textContent = "";
  await submit(form, async () => {
    const email = $("email").value.trim();
    const answer = await api("PUT", "/api/account/settings", { email: email || null, notify_email: $("notify").checked });
    account = answer.account;
    $("settings-status").textContent = t("Settings saved.");
  });
}

/** Shows the forms or the account, as the server says who is signed in. */
async function show() {
  translatePage();
  if (account === null && csrfToken()) {
    try {
      account = (await api("GET", "/api/account")).account;
    } catch {
      account = null;
    }
  }
  $("signed-out").hidden = account !== null;
  $("signed-in").hidden = account === null;
  if (account === null) return;
  $("account-title").textContent = t("Signed in as {name}", { name: account.name });
  $("email").value = account.email || "";
  $("notify").checked = account.notify_email;
  await loadTables();
}

async function start() {
  await loadMessages(chooseLanguage(), ["obelisk"]);
  languageSwitch($("language"), async (code) => {
    await loadMessages(code, ["obelisk"]);
    await show();
  });
  $("sign-in-form").addEventListener("submit", (event) => signIn(event, "/api/session", "sign-in"));
  $("sign-up-form").addEventListener("submit", (event) => signIn(event, "/api/accounts", "sign-up"));
  $("sign-out").addEventListener("click", signOut);
  $("settings-form").addEventListener("submit", saveSettings);
  await show();
}

start();
