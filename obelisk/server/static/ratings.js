// A game's leaderboard (`/ratings/{game}`): the accounts with a rated game, best displayed rating first.
import { api, el, replace, errorText, ApiError } from "/static/common.js";
import { t, chooseLanguage, loadMessages, translatePage, languageSwitch, withLanguage } from "/static/i18n.js";

const parts = window.location.pathname.split("/").filter(Boolean);
const gameId = decodeURIComponent(parts[parts.length - 1] || "");
const $ = (id) => document.getElementById(id);

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

/** A player's name as a link to their profile. */
function playerLink(name) {
  return el("a", { href: `/players/${encodeURIComponent(name)}` }, name);
}

function boardTable(board) {
  const head = [t("Rank"), t("Player"), t("Rating"), t("Rated games"), t("Wins")];
  return el("table", {},
    el("caption", {}, t("Leaderboard: {game}", { game: board.game_name })),
    el("thead", {}, el("tr", {}, head.map((text) => el("th", { scope: "col" }, text)))),
    el("tbody", {}, board.players.map((row) => el("tr", {},
      el("td", { class: "number" }, String(row.rank)),
      el("th", { scope: "row" }, playerLink(row.name)),
      el("td", { class: "number" }, String(row.rating)),
      el("td", { class: "number" }, String(row.games)),
      el("td", { class: "number" }, String(row.wins))))));
}

async function show() {
  translatePage();
  showError("");
  try {
    const board = await api("GET", withLanguage(`/api/ratings/${encodeURIComponent(gameId)}`));
    const title = t("Ratings: {game}", { game: board.game_name });
    $("title").textContent = title;
    document.title = `Obelisk: ${title}`;
    replace($("board"), board.players.length ? boardTable(board)
      : el("p", { class: "muted" }, t("Nobody has finished a rated game of {game} yet.", { game: board.game_name })));
  } catch (error) {
    replace($("board"));
    showError(error instanceof ApiError && error.code === "not_found" ? t("There is no such game.")
      : t("Cannot load the ratings: {reason}", { reason: errorText(error) }));
  }
}

async function start() {
  await loadMessages(chooseLanguage(), ["obelisk"]);
  languageSwitch($("language"), async (code) => {
    await loadMessages(code, ["obelisk"]);
    await show();
  });
  await show();
}

start();
