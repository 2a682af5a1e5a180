// A player's public profile (`/players/{name}`): statistics per game and the latest finished games.
import { api, el, replace, errorText, ApiError } from "/static/common.js";
import { t, lang, chooseLanguage, loadMessages, translatePage, languageSwitch, withLanguage } from "/static/i18n.js";

const parts = window.location.pathname.split("/").filter(Boolean);
const playerName = decodeURIComponent(parts[parts.length - 1] || "");
const $ = (id) => document.getElementById(id);

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

function number(value) {
  return el("td", { class: "number" }, value === null || value === undefined ? "–" : String(value));
}

function dateText(stamp) {
  return new Date(stamp).toLocaleDateString(lang === "cs" ? "cs-CZ" : "en-GB", { dateStyle: "medium" });
}

function placeText(place, players) {
  return t("{place} of {players}", { place, players });
}

function changeCell(game) {
  if (!game.rated) return el("td", { class: "number" }, t("unrated"));
  const { change } = game;
  const text = change > 0 ? `+${change}` : String(change);
  return el("td", { class: `number ${change > 0 ? "up" : change < 0 ? "down" : ""}` },
    t("{change} (to {rating})", { change: text, rating: game.rating_after }));
}

function perGameTable(profile) {
  const head = [t("Game"), t("Games"), t("Wins"), t("Average place"), t("Rating")];
  return el("table", {},
    el("caption", {}, t("Statistics per game")),
    el("thead", {}, el("tr", {}, head.map((text) => el("th", { scope: "col" }, text)))),
    el("tbody", {}, profile.games.map((game) => el("tr", {},
      el("th", { scope: "row" }, el("a", { href: `/ratings/${encodeURIComponent(game.game)}` }, game.game_name)),
      number(game.games), number(game.wins), number(game.average_place.toLocaleString(lang)),
      number(game.rating)))));
}

function recentTable(profile) {
  const head = [t("Date"), t("Game"), t("Place"), t("Rating change"), t("Replay")];
  return el("table", {},
    el("caption", {}, t("Latest games")),
    el("thead", {}, el("tr", {}, head.map((text) => el("th", { scope: "col" }, text)))),
    el("tbody", {}, profile.recent.map((game) => el("tr", {},
      el("td", {}, dateText(game.finished)),
      el("th", { scope: "row" }, game.game_name),
      el("td", {}, placeText(game.place, game.players)),
      changeCell(game),
      el("td", {}, el("a", { href: game.replay_url }, t("Replay the game")))))));
}

async function show() {
  translatePage();
  showError("");
  $("title").textContent = playerName;
  document.title = `Obelisk: ${playerName}`;
  try {
    const profile = await api("GET", withLanguage(`/api/players/${encodeURIComponent(playerName)}`));
    $("title").textContent = profile.name;
    document.title = `Obelisk: ${profile.name}`;
    $("since").textContent = t("Playing since {date}.", { date: dateText(profile.since) });
    if (!profile.games.length) {
      replace($("per-game"), el("p", { class: "muted" }, t("No finished game yet.")));
      replace($("recent"));
      return;
    }
    replace($("per-game"), perGameTable(profile));
    replace($("recent"), recentTable(profile));
  } catch (error) {
    replace($("per-game"));
    replace($("recent"));
    $("since").textContent = "";
    showError(error instanceof ApiError && error.code === "not_found"
      ? t("There is no player called {name}.", { name: playerName })
      : t("Cannot load the player: {reason}", { reason: errorText(error) }));
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
