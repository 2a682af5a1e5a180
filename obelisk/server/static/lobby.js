// The lobby: create a table for any registered game, share its invite links, join open tables, find my tables.
import {
  api, el, replace, mySeats, saveSeat, forgetSeat, playerName, savePlayerName, copyText, seatLabel, errorText,
  statusText,
} from "/static/common.js";
import { t, chooseLanguage, loadMessages, translatePage, languageSwitch, withLanguage } from "/static/i18n.js";

/** Seat choices: a human, or a bot spec as `obelisk.bots.make_bot` reads it. */
function seatKinds() {
  return [
    ["human", t("Human")],
    ["random", t("Bot: random")],
    ["greedy", t("Bot: greedy")],
    ["ismcts:200", t("Bot: ISMCTS, quick (200 iterations)")],
    ["ismcts:1000", t("Bot: ISMCTS, strong (1000 iterations)")],
    ["ismcts:2s", t("Bot: ISMCTS, strongest (2 s a move)")],
  ];
}

const errorLine = document.getElementById("lobby-error");

function showError(message) {
  errorLine.textContent = message;
  errorLine.hidden = !message;
}

function tableUrl(path) {
  return new URL(path, window.location.origin).href;
}

function nameInput() {
  return document.getElementById("player-name");
}

/** A form control for one game option, built from its type, allowed values and default. */
function optionControl(game, option) {
  const id = `opt-${game.id}-${option.name}`;
  let control;
  if (option.allowed) {
    control = el("select", { id, name: option.name });
    option.allowed.forEach((value, index) => {
      control.appendChild(el("option", { value: String(index), selected: value === option.default }, String(value)));
    });
    control.readValue = () => option.allowed[Number(control.value)];
  } else if (option.type === "bool") {
    control = el("input", { id, name: option.name, type: "checkbox", checked: option.default === true });
    control.readValue = () => control.checked;
  } else if (option.type === "int" || option.type === "float") {
    control = el("input", {
      id, name: option.name, type: "number", value: String(option.default), step: option.type === "int" ? "1" : "any",
    });
    control.readValue = () => (control.value.trim() === "" ? option.default : Number(control.value));
  } else {
    control = el("input", { id, name: option.name, type: "text", value: String(option.default ?? "") });
    control.readValue = () => control.value;
  }
  const row = el("div", { class: "field" },
    el("label", { for: id }, option.name),
    control,
    option.description ? el("small", { class: "muted" }, option.description) : null);
  return { option, control, row };
}

/** The seat rows of a game's form: a kind for each seat, and a name for human seats. */
function seatRows(game, count, container) {
  const rows = [];
  const items = [];
  for (let seat = 0; seat < count; seat += 1) {
    const kindId = `seat-${game.id}-${seat}-kind`;
    const kind = el("select", { id: kindId, class: "seat-kind", "data-seat": seat });
    for (const [value, label] of seatKinds()) kind.appendChild(el("option", { value }, label));
    if (seat > 0) kind.value = "greedy";
    const name = el("input", {
      class: "seat-name", maxlength: "40", "aria-label": t("Name for player {n}", { n: seat + 1 }),
      placeholder: seat === 0 ? t("your name") : t("player's name (optional)"),
      value: seat === 0 ? playerName() : "",
    });
    const syncName = () => { name.hidden = kind.value !== "human"; };
    kind.addEventListener("change", syncName);
    syncName();
    items.push(el("li", { class: "seat-row" }, el("label", { for: kindId }, t("Player {n}", { n: seat + 1 })), kind, name));
    rows.push({ kind, name });
  }
  replace(container, el("ol", { class: "seat-list" }, items));
  return rows;
}

function gameForm(game) {
  const playersId = `players-${game.id}`;
  const players = el("select", { id: playersId, name: "players" });
  for (let n = game.min_players; n <= game.max_players; n += 1) {
    players.appendChild(el("option", { value: String(n), selected: n === game.default_players }, String(n)));
  }
  const options = game.options.map((option) => optionControl(game, option));
  const seatsBox = el("div", { class: "seats" });
  let seats = seatRows(game, Number(players.value), seatsBox);
  players.addEventListener("change", () => { seats = seatRows(game, Number(players.value), seatsBox); });
  const publicBox = el("input", { type: "checkbox", id: `public-${game.id}`, checked: true });
  const clock = el("input", { type: "number", id: `clock-${game.id}`, min: "10", step: "1", placeholder: t("none") });
  const status = el("span", { class: "muted", role: "status" });
  const submit = el("button", { type: "submit" }, t("Create table"));

  const form = el("form", { class: "game", "data-game": game.id, "aria-label": game.name },
    el("h3", {}, game.name),
    el("p", { class: "muted" }, game.description, " ",
      t("({min}–{max} players)", { min: game.min_players, max: game.max_players })),
    el("div", { class: "field" }, el("label", { for: playersId }, t("Players")), players),
    options.length ? el("details", { class: "options" }, el("summary", {}, t("Options")), options.map((o) => o.row)) : null,
    el("fieldset", {}, el("legend", {}, t("Seats")), seatsBox),
    el("div", { class: "field" }, publicBox, el("label", { for: publicBox.id }, t("List in open tables"))),
    el("div", { class: "field" }, el("label", { for: clock.id }, t("Turn clock (seconds)")), clock,
      el("small", { class: "muted" }, t("after it, the other players may let a bot play the late seat"))),
    el("div", { class: "actions" }, submit, status));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    const chosen = {};
    for (const { option, control } of options) {
      const value = control.readValue();
      if (value !== option.default) chosen[option.name] = value;
    }
    const seatSpecs = seats.map(({ kind, name }) => {
      if (kind.value !== "human") return { kind: "bot", bot: kind.value };
      const spec = { kind: "human" };
      if (name.value.trim()) spec.name = name.value.trim();
      return spec;
    });
    submit.disabled = true;
    status.textContent = t("creating…");
    try {
      const body = {
        game: game.id, players: Number(players.value), options: chosen, seats: seatSpecs, public: publicBox.checked,
      };
      if (clock.value.trim()) body.turn_seconds = Number(clock.value);
      const created = await api("POST", withLanguage("/api/tables"), body);
      status.textContent = "";
      showCreated(created);
      loadOpenTables();
    } catch (error) {
      status.textContent = "";
      showError(t("Cannot create the table: {reason}", { reason: errorText(error) }));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function linkRow(label, path, testName) {
  const url = tableUrl(path);
  const input = el("input", { type: "text", readonly: true, value: url, class: "link", "aria-label": label,
    "data-link": testName });
  const status = el("span", { class: "muted", role: "status" });
  const copy = el("button", { type: "button", class: "small", on: { click: () => copyText(url, input, status) } }, t("Copy"));
  const open = el("a", { href: url, class: "button small" }, t("Open"));
  return el("li", {}, el("span", { class: "link-label" }, label), input, copy, open, status);
}

let lastCreated = null;

/** After creation: the invite link of every human seat (each holds its seat's secret token) and the spectator link. */
function showCreated(created) {
  lastCreated = created;
  const table = created.table;
  const box = document.getElementById("created");
  replace(document.getElementById("created-summary"),
    t.n("{game}, {n} player, table {table}.", "{game}, {n} players, table {table}.", table.players,
      { game: table.game_name, table: table.id }), " ",
    t("Send each invite link to one player only: whoever opens it takes that seat."));
  const rows = [];
  for (const seat of table.seats) {
    const path = created.invite_urls[String(seat.seat)];
    const label = seat.name ? t("Invite, player {n} ({name})", { n: seat.seat + 1, name: seat.name })
      : t("Invite, player {n}", { n: seat.seat + 1 });
    if (path) rows.push(linkRow(label, path, `seat-${seat.seat}`));
  }
  rows.push(linkRow(t("Spectators"), created.spectator_url, "spectator"));
  replace(document.getElementById("created-links"), rows);
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

function freeSeats(table) {
  return table.seats.filter((seat) => seat.kind === "human" && !seat.claimed);
}

async function join(table, seat, button) {
  showError("");
  button.disabled = true;
  try {
    const name = nameInput().value.trim();
    const body = name ? { seat: seat.seat, name } : { seat: seat.seat };
    const answer = await api("POST", `/api/tables/${encodeURIComponent(table.id)}/join`, body);
    saveSeat(table.id, { token: answer.token, seat: answer.seat, claimed: true });
    window.location.assign(`/table/${encodeURIComponent(table.id)}`);
  } catch (error) {
    showError(t("Cannot join: {reason}", { reason: errorText(error) }));
    button.disabled = false;
    loadOpenTables();
  }
}

async function loadOpenTables() {
  const box = document.getElementById("open-tables");
  try {
    const { tables } = await api("GET", withLanguage("/api/tables?status=waiting"));
    const open = tables.filter((table) => freeSeats(table).length > 0);
    if (!open.length) {
      replace(box, el("p", { class: "muted" }, t("No table is waiting for players.")));
      return;
    }
    replace(box, el("ul", { class: "tables" }, open.map((table) => el("li", { "data-table": table.id },
      el("strong", {}, table.game_name), " · ", t.n("{n} player", "{n} players", table.players), " · ",
      el("span", { class: "muted" }, table.seats.map(seatLabel).join(" · ")), " ",
      freeSeats(table).map((seat) => {
        const button = el("button", { type: "button", class: "small" }, t("Join as player {n}", { n: seat.seat + 1 }));
        button.addEventListener("click", () => join(table, seat, button));
        return button;
      }),
      " ",
      el("a", { href: `/table/${encodeURIComponent(table.id)}`, class: "small" }, t("Watch"))))));
  } catch (error) {
    replace(box, el("p", { class: "error" }, t("Cannot list the open tables: {reason}", { reason: errorText(error) })));
  }
}

async function loadMyTables() {
  const box = document.getElementById("my-tables");
  const seats = mySeats();
  if (!seats.length) {
    replace(box, el("p", { class: "muted" }, t("None yet.")));
    return;
  }
  const items = await Promise.all(seats.map(async (entry) => {
    const link = el("a", { href: `/table/${encodeURIComponent(entry.table)}` }, t("table {table}", { table: entry.table }));
    const forget = el("button", { type: "button", class: "small" }, t("Forget"));
    forget.addEventListener("click", () => { forgetSeat(entry.table); loadMyTables(); });
    let about;
    try {
      const table = await api("GET", withLanguage(`/api/tables/${encodeURIComponent(entry.table)}`));
      about = t("{game}, player {n}, {status}", { game: table.game_name, n: entry.seat + 1, status: statusText(table.status) });
    } catch (error) {
      about = error.status === 404 ? t("no longer on the server") : errorText(error);
    }
    return el("li", {}, link, ` · ${about} `, forget);
  }));
  replace(box, el("ul", { class: "tables" }, items));
}

async function loadGames() {
  const box = document.getElementById("games");
  try {
    const games = await api("GET", withLanguage("/api/games"));
    replace(box, games.map(gameForm));
  } catch (error) {
    replace(box, el("p", { class: "error" }, t("Cannot load the games: {reason}", { reason: errorText(error) })));
  }
}

/** Everything the lobby shows, in the page's language. */
function showAll() {
  translatePage();
  showError("");
  if (lastCreated) showCreated(lastCreated);
  return Promise.all([loadGames(), loadOpenTables(), loadMyTables()]);
}

async function start() {
  nameInput().value = playerName();
  nameInput().addEventListener("change", () => savePlayerName(nameInput().value));
  document.getElementById("refresh-open").addEventListener("click", loadOpenTables);
  await loadMessages(chooseLanguage(), ["obelisk"]);
  languageSwitch(document.getElementById("language"), async (code) => {
    await loadMessages(code, ["obelisk"]);
    await showAll();
  });
  await showAll();
}

start();
