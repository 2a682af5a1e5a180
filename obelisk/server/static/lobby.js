// The lobby: a card per game, a form that sets up a table in the reader's words, the links after creation,
// *My tables* (where this browser is awaited first) and the open tables to join.
import {
  api, el, replace, mySeats, saveSeat, forgetSeat, playerName, savePlayerName, copyText, errorText, statusText,
  csrfToken, agoText, spanText,
} from "/static/common.js";
import { t, lang, chooseLanguage, loadMessages, translatePage, languageSwitch, withLanguage } from "/static/i18n.js";

/** The bots' strengths the form offers, each the bot spec the server gets (docs/web.md "Lobby"). */
const STRENGTHS = { easy: "greedy", normal: "ismcts:200", strong: "ismcts:1000" };
const DEFAULT_STRENGTH = "normal";
/** Every bot spec "Advanced" offers: the strengths' and the lobby's other ones. */
const SPECS = ["random", "greedy", "ismcts:200", "ismcts:1000", "ismcts:2s"];
/** The turn clock's choices, in seconds ("" = none). */
const CLOCKS = ["", "60", "300", "900", "3600", "86400", "259200", "604800", "1209600"];
/** How many table summaries *My tables* asks for at once. */
const PARALLEL = 4;

/** The seat choices a table without a person may have: the server seats only the quickest search there
 * (docs/server.md, "Bots at tables"), so the lobby says so before asking it. */
const BOTS_ALONE = new Set(["random", "greedy", "ismcts:200"]);

const errorLine = document.getElementById("lobby-error");
let games = [];
let chosenGame = null;
let lastCreated = null;

function showError(message) {
  errorLine.textContent = message;
  errorLine.hidden = !message;
}

function nameInput() {
  return document.getElementById("player-name");
}

function strengthName(strength) {
  switch (strength) {
    case "easy": return t("Bot (easy)");
    case "normal": return t("Bot (normal)");
    default: return t("Bot (strong)");
  }
}

function strengthHelp(strength) {
  switch (strength) {
    case "easy": return t("Looks one move ahead and plays at once.");
    case "normal": return t("Thinks a little before each move.");
    default: return t("Thinks longer and plays best.");
  }
}

/** A bot in words: its strength where its spec is one of the strengths', else the spec itself. */
function botText(spec) {
  const strength = Object.keys(STRENGTHS).find((key) => STRENGTHS[key] === spec);
  return strength ? strengthName(strength) : t("Bot ({spec})", { spec });
}

function defaultName(seat) {
  return t("Player {n}", { n: seat + 1 });
}

/** How a seat reads in the lists: a person's name, a bot's strength, or "free". */
function seatWho(seat) {
  if (seat.kind === "bot") return botText(seat.bot);
  if (!seat.claimed) return t("free seat");
  return seat.name || defaultName(seat.seat);
}

function clockText(seconds) {
  const value = Number(seconds);
  return value ? spanText(value) : t("No limit");
}

/** What a card says about a game: the players, and its length in the rulebook's minutes where it gives them
 * and in turns each player takes. */
function facts(game) {
  const parts = [t("{min}–{max} players", { min: game.min_players, max: game.max_players })];
  if (game.minutes) {
    const [low, high] = game.minutes;
    parts.push(low === high ? t.n("about {n} minute", "about {n} minutes", low)
      : t("{low}–{high} minutes", { low, high }));
  }
  if (game.turns) {
    const [low, high] = game.turns;
    parts.push(low === high ? t.n("{n} turn each", "{n} turns each", low)
      : t("{low}–{high} turns each", { low, high }));
  }
  return parts;
}

function sentence(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

// ---- The game cards --------------------------------------------------------------------------------

function gameCard(game) {
  const titleId = `card-${game.id}-title`;
  const choose = el("button", { type: "button", "aria-expanded": String(chosenGame === game.id) }, t("Set up a table"));
  choose.addEventListener("click", () => chooseGame(game.id));
  return el("article", { class: "game-card", "aria-labelledby": titleId },
    el("img", {
      src: `/static/games/${encodeURIComponent(game.id)}-${lang}.webp`, width: "360", height: "240",
      alt: t("The board of {game} in the middle of a game", { game: game.name }),
    }),
    el("h3", { id: titleId }, game.name),
    el("p", { class: "facts" }, facts(game).flatMap((fact, index) => [index ? " · " : "", el("span", {}, fact)])),
    el("p", {}, sentence(game.description)),
    choose, " ", ratingsLink(game));
}

function showCards() {
  replace(document.getElementById("games"), games.map(gameCard));
}

function chooseGame(id) {
  chosenGame = id;
  showCards();
  const game = games.find((g) => g.id === id);
  const box = document.getElementById("game-form");
  replace(box, game ? gameForm(game) : null);
  if (game) box.scrollIntoView({ block: "start", behavior: "smooth" });
}

// ---- The form --------------------------------------------------------------------------------------

/** A form control for one game option: a choice of named values, or a number with its unit. */
function optionField(game, option) {
  const id = `opt-${game.id}-${option.name}`;
  const about = el("small", { class: "muted", id: `${id}-about` }, option.help || null);
  const explain = el("small", { class: "muted", id: `${id}-explain` });
  let control;
  if (option.allowed) {
    control = el("select", { id, "aria-describedby": `${id}-about ${id}-explain` });
    option.allowed.forEach((value, index) => {
      const label = (option.value_labels || [])[index] || String(value);
      control.appendChild(el("option", { value: String(index), selected: value === option.default }, label));
    });
    const update = () => { explain.textContent = (option.value_help || [])[Number(control.value)] || ""; };
    control.addEventListener("change", update);
    update();
    control.readValue = () => option.allowed[Number(control.value)];
  } else if (option.type === "int" || option.type === "float") {
    control = el("input", {
      id, type: "number", value: String(option.default), step: option.type === "int" ? "1" : "any",
      min: option.min ?? undefined, max: option.max ?? undefined, "aria-describedby": `${id}-about`, inputmode: "numeric",
    });
    control.readValue = () => (control.value.trim() === "" ? option.default : Number(control.value));
  } else if (option.type === "bool") {
    control = el("input", { id, type: "checkbox", checked: option.default === true, "aria-describedby": `${id}-about` });
    control.readValue = () => control.checked;
  } else {
    control = el("input", { id, type: "text", value: String(option.default ?? ""), "aria-describedby": `${id}-about` });
    control.readValue = () => control.value;
  }
  const row = el("div", { class: "field option" },
    el("label", { for: id }, option.label || option.name), control,
    option.unit ? el("span", { class: "unit" }, option.unit) : null, about, explain);
  return { option, control, row };
}

/** Why a number field cannot be sent, or "" when it can. */
function numberProblem({ option, control }) {
  if (control.type !== "number" || control.checkValidity()) return "";
  return t("{label}: enter a whole number from {min} to {max}", {
    label: option.label || option.name, min: option.min, max: option.max,
  });
}

/** One seat's row: who plays it (you, a person or a bot and its strength), a name for a person, advanced spec. */
function seatRow(game, seat) {
  const kindId = `seat-${game.id}-${seat}`;
  const kind = el("select", { id: kindId });
  const choices = seat === 0 ? [["you", t("You")]] : [["human", t("A person (invite link)")]];
  for (const strength of Object.keys(STRENGTHS)) choices.push([strength, strengthName(strength)]);
  for (const [value, label] of choices) kind.appendChild(el("option", { value }, label));
  kind.value = seat === 0 ? "you" : DEFAULT_STRENGTH;
  const name = el("input", {
    maxlength: "40", placeholder: defaultName(seat), autocomplete: "off",
    "aria-label": t("Name of player {n} (optional)", { n: seat + 1 }),
  });
  const help = el("small", { class: "muted" });
  const label = seat === 0 ? t("Player {n} (you)", { n: 1 }) : defaultName(seat);
  const item = el("li", { class: "seat-row" }, el("label", { for: kindId }, label), kind, name, help);
  const spec = el("select", { id: `${kindId}-spec` },
    el("option", { value: "" }, t("As its strength says")),
    SPECS.map((value) => el("option", { value, translate: "no" }, value)));
  const advanced = el("div", { class: "field" },
    el("label", { for: spec.id }, t("Bot for player {n}", { n: seat + 1 })), spec);
  const row = {
    item, advanced, kind, name, seat,
    isBot: () => kind.value in STRENGTHS,
    isPerson: () => kind.value === "human",
    bot: () => spec.value || STRENGTHS[kind.value],
  };
  row.sync = () => {
    name.hidden = !row.isPerson();
    advanced.hidden = !row.isBot();
    help.textContent = row.isBot() ? strengthHelp(kind.value)
      : row.isPerson() ? t("You get a link to send to this player.") : "";
  };
  kind.addEventListener("change", row.sync);
  row.sync();
  return row;
}

function seatSpecs(seats) {
  return seats.map((row) => {
    if (row.isBot()) return { kind: "bot", bot: row.bot() };
    // A seat nobody names stays unnamed, so every page says "Player N" in its reader's language.
    const name = (row.seat === 0 ? nameInput() : row.name).value.trim();
    return name ? { kind: "human", name } : { kind: "human" };
  });
}

function gameForm(game) {
  const prefix = `form-${game.id}`;
  const players = el("select", { id: `${prefix}-players` });
  for (let n = game.min_players; n <= game.max_players; n += 1) {
    players.appendChild(el("option", { value: String(n), selected: n === game.default_players },
      t.n("{n} player", "{n} players", n)));
  }
  const options = game.options.map((option) => optionField(game, option));
  const common = options.filter((o) => !o.option.rare);
  const rare = options.filter((o) => o.option.rare);
  const seatList = el("ol", { class: "seat-list" });
  const advancedBox = el("div", {});
  const publicBox = el("input", { type: "checkbox", id: `${prefix}-public` });
  const ratedBox = el("input", { type: "checkbox", id: `${prefix}-rated`, "aria-describedby": `${prefix}-rated-about` });
  let publicTouched = false;
  publicBox.addEventListener("change", () => { publicTouched = true; });
  let seats = [];
  const syncPublic = () => {
    if (!publicTouched) publicBox.checked = seats.some((row) => row.seat > 0 && row.isPerson());
  };
  const layOutSeats = () => {
    seats = Array.from({ length: Number(players.value) }, (_, seat) => seatRow(game, seat));
    for (const row of seats) row.kind.addEventListener("change", syncPublic);
    replace(seatList, seats.map((row) => row.item));
    replace(advancedBox, seats.map((row) => row.advanced));
    syncPublic();
  };
  players.addEventListener("change", layOutSeats);
  layOutSeats();
  const clock = el("select", { id: `${prefix}-clock`, "aria-describedby": `${prefix}-clock-about` },
    CLOCKS.map((seconds) => el("option", { value: seconds }, clockText(seconds))));
  const status = el("span", { class: "muted", role: "status" });
  const submit = el("button", { type: "submit", class: "primary" }, t("Create table"));
  const titleId = `${prefix}-title`;

  const form = el("form", { class: "game-form panel", "aria-labelledby": titleId, novalidate: true },
    el("h3", { id: titleId }, t("New table: {game}", { game: game.name })),
    el("div", { class: "field" }, el("label", { for: players.id }, t("Players")), players),
    el("fieldset", {}, el("legend", {}, t("Who plays")), seatList),
    common.map((o) => o.row),
    rare.length ? el("details", { class: "options" }, el("summary", {}, t("More options")), rare.map((o) => o.row)) : null,
    el("div", { class: "field" }, publicBox, el("label", { for: publicBox.id }, t("List in open tables")),
      el("small", { class: "muted" }, t("Anyone may then take a free seat."))),
    ratedField(ratedBox, `${prefix}-rated-about`),
    el("div", { class: "field" }, el("label", { for: clock.id }, t("Time for a move")), clock,
      el("small", { class: "muted", id: `${prefix}-clock-about` },
        t("After it, the other players may let a bot play for the late player."))),
    el("details", { class: "options" }, el("summary", {}, t("Advanced")),
      el("p", { class: "muted" }, t("The bot program each bot seat runs (see the bots' documentation).")),
      advancedBox),
    el("div", { class: "actions" }, submit, status));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    const problem = options.map(numberProblem).find(Boolean);
    if (problem) {
      showError(problem);
      return;
    }
    const chosen = {};
    for (const { option, control } of options) {
      const value = control.readValue();
      if (value !== option.default) chosen[option.name] = value;
    }
    const body = {
      game: game.id, players: Number(players.value), options: chosen, seats: seatSpecs(seats), public: publicBox.checked,
    };
    if (clock.value) body.turn_seconds = Number(clock.value);
    if (ratedBox.checked) {
      if (Object.keys(chosen).length) {
        showError(t("A rated table plays the game's default options: set the options back, or untick Rated."));
        return;
      }
      body.rated = true;
    }
    if (body.seats.every((spec) => spec.kind === "bot") && body.seats.some((spec) => !BOTS_ALONE.has(spec.bot))) {
      showError(t("A table of bots alone plays the quick search at most: seat a person, or choose quicker bots."));
      return;
    }
    submit.disabled = true;
    status.textContent = t("creating…");
    try {
      const created = await api("POST", withLanguage("/api/tables"), body);
      await takeMySeat(created, body.seats[0]);
      showCreated(created);
      loadOpenTables();
      loadMyTables();
    } catch (error) {
      showError(t("Cannot create the table: {reason}", { reason: errorText(error) }));
    } finally {
      status.textContent = "";
      submit.disabled = false;
    }
  });
  return form;
}

/** Seats the creator at once when player 1 is a person, so the table is in *My tables* straight away. */
async function takeMySeat(created, first) {
  const token = created.tokens && created.tokens["0"];
  if (!token || first.kind !== "human") return;
  try {
    const table = created.table.id;
    const answer = await api("POST", `/api/tables/${encodeURIComponent(table)}/claim`, { token, name: first.name });
    saveSeat(table, { token: answer.token, seat: answer.seat, claimed: true });
    created.seated = true;
  } catch {
    created.seated = false;  // the invite link below still holds the seat
  }
}

// ---- After creation --------------------------------------------------------------------------------

function linkRow(label, url) {
  const input = el("input", { type: "text", readonly: true, value: url, class: "link", "aria-label": label });
  const status = el("span", { class: "muted", role: "status" });
  const copy = el("button", { type: "button", class: "small", "aria-label": t("Copy: {what}", { what: label }) },
    t("Copy"));
  copy.addEventListener("click", () => copyText(url, input, status));
  return el("li", {}, el("span", { class: "link-label" }, label), input, copy, status);
}

/** The table just made: a link to your seat, an invite link for each other person (each holds its seat's secret
 * token) and the spectators' link. */
function showCreated(created) {
  lastCreated = created;
  const table = created.table;
  const url = (path) => new URL(path, window.location.origin).href;
  const invites = table.seats.filter((seat) => created.invite_urls[String(seat.seat)] && !(seat.seat === 0 && created.seated));
  replace(document.getElementById("created-summary"),
    t.n("{game}, {n} player.", "{game}, {n} players.", table.players, { game: table.game_name }), " ",
    invites.length ? t("Send each invite link to one player only: whoever opens it takes that seat.") : "");
  const rows = [];
  if (created.seated) {
    rows.push(el("li", {}, el("a", { href: `/table/${encodeURIComponent(table.id)}`, class: "button primary" },
      t("Go to your table"))));
  }
  for (const seat of invites) {
    const label = seat.seat === 0 ? t("Your seat (player 1)")
      : t("Invite for player {n} ({name})", { n: seat.seat + 1, name: seat.name || defaultName(seat.seat) });
    rows.push(linkRow(label, url(created.invite_urls[String(seat.seat)])));
  }
  rows.push(linkRow(t("For spectators"), url(created.spectator_url)));
  replace(document.getElementById("created-links"), rows);
  const box = document.getElementById("created");
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

// ---- My tables -------------------------------------------------------------------------------------

/** Runs `work` on every item, at most `limit` at once; resolves to the results in order. */
async function bounded(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function fetchMine(entry) {
  try {
    const table = await api("GET", withLanguage(`/api/tables/${encodeURIComponent(entry.table)}`));
    const mine = table.status === "playing" && typeof entry.seat === "number" && table.to_act === entry.seat;
    return { entry, table, mine, updated: Date.parse(table.updated) || 0 };
  } catch (error) {
    return { entry, gone: error.status === 404, error, mine: false, updated: entry.saved || 0 };
  }
}

function forgetButton(entry, what) {
  const forget = el("button", { type: "button", class: "small", "aria-label": t("Forget {what}", { what }) },
    t("Forget"));
  forget.addEventListener("click", () => { forgetSeat(entry.table); loadMyTables(); });
  return forget;
}

function playersText(table, mySeat) {
  return table.seats.map((seat) => (seat.seat === mySeat ? t("{who} (you)", { who: seatWho(seat) }) : seatWho(seat)))
    .join(", ");
}

function myRow({ entry, table, mine, gone, error }) {
  if (!table) {
    const what = t("table {table}", { table: entry.table });
    return el("li", { class: "table-row" },
      el("span", { class: "table-title" }, gone ? t("A table that is gone") : what),
      el("span", { class: "muted" }, gone ? t("It is no longer on the server.") : errorText(error)),
      el("span", { class: "row-actions" }, forgetButton(entry, what)));
  }
  const status = table.status === "waiting" ? t("waiting for players") : statusText(table.status);
  return el("li", { class: "table-row", "data-mine": mine ? "" : null },
    el("a", { class: "table-title", href: `/table/${encodeURIComponent(table.id)}` }, table.game_name, ratedMark(table)),
    mine ? el("strong", { class: "your-move" }, t("Your move")) : null,
    el("span", {}, playersText(table, entry.seat)),
    el("span", { class: "muted" }, status, " · ", t("last change {when}", { when: agoText(table.updated) })),
    entry.account ? null : el("span", { class: "row-actions" }, forgetButton(entry, table.game_name)));
}

let mineRequest = 0;

async function loadMyTables() {
  const box = document.getElementById("my-tables");
  const seats = mySeats();
  const request = ++mineRequest;
  const [rows, accountRows] = await Promise.all([bounded(seats, PARALLEL, fetchMine), accountTables()]);
  if (request !== mineRequest) return;
  const held = new Set(seats.map((entry) => entry.table));
  rows.push(...accountRows.filter((row) => !held.has(row.entry.table)));
  if (!rows.length) {
    replace(box, el("p", { class: "muted" }, t("None yet.")));
    return;
  }
  rows.sort((a, b) => Number(b.mine) - Number(a.mine) || b.updated - a.updated);
  replace(box, el("ul", { class: "table-list", "aria-label": t("My tables") }, rows.map(myRow)));
}

// ---- The account ------------------------------------------------------------------------------------

/** The signed-in account's tables as *My tables* rows (none when nobody is signed in here). */
async function accountTables() {
  if (!csrfToken()) return [];
  try {
    const { tables } = await api("GET", withLanguage("/api/account/tables"));
    return tables.map((found) => ({
      entry: { table: found.table.id, seat: found.seat, account: true },
      table: found.table, mine: found.your_move, updated: Date.parse(found.table.updated) || 0,
    }));
  } catch {
    return [];
  }
}

/** The header's link to the account page: "Sign in", or the signed-in account's name. */
async function showAccountLink() {
  const link = document.getElementById("account-link");
  if (!csrfToken()) return;
  try {
    const { account } = await api("GET", "/api/account");
    link.removeAttribute("data-i18n");
    link.textContent = account.name;
    link.setAttribute("aria-label", t("Your account: {name}", { name: account.name }));
    // A person who never typed a name here sits down under their account's name.
    if (!nameInput().value.trim()) nameInput().value = account.name;
  } catch {
    // The session expired: the link keeps saying "Sign in".
  }
}

// ---- Open tables -----------------------------------------------------------------------------------

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

function openRow(table) {
  const free = freeSeats(table);
  const waiting = table.seats.filter((seat) => seat.kind === "human" && seat.claimed).map(seatWho);
  const bots = table.seats.filter((seat) => seat.kind === "bot").map(seatWho);
  return el("li", { class: "table-row" },
    el("span", { class: "table-title" }, table.game_name, ratedMark(table)),
    el("span", {}, t.n("{n} free seat of {total}", "{n} free seats of {total}", free.length, { total: table.players })),
    el("span", { class: "muted" },
      waiting.length ? t("Waiting: {names}", { names: waiting.join(", ") }) : t("Nobody has sat down yet"),
      bots.length ? ` · ${t("Also at the table: {bots}", { bots: bots.join(", ") })}` : ""),
    el("span", { class: "row-actions" },
      free.map((seat) => {
        const button = el("button", { type: "button", class: "small" }, t("Join as player {n}", { n: seat.seat + 1 }));
        button.addEventListener("click", () => join(table, seat, button));
        return button;
      }),
      el("a", { href: `/table/${encodeURIComponent(table.id)}`, class: "button small" }, t("Watch"))));
}

async function loadOpenTables() {
  const box = document.getElementById("open-tables");
  try {
    const { tables } = await api("GET", withLanguage("/api/tables?status=waiting"));
    const mine = new Set(mySeats().map((entry) => entry.table));
    const open = tables.filter((table) => freeSeats(table).length > 0 && !mine.has(table.id));
    replace(box, open.length ? el("ul", { class: "table-list", "aria-label": t("Open tables") }, open.map(openRow))
      : el("p", { class: "muted" }, t("No table is waiting for players.")));
  } catch (error) {
    replace(box, el("p", { class: "error" }, t("Cannot list the open tables: {reason}", { reason: errorText(error) })));
  }
}

// ---- The page --------------------------------------------------------------------------------------

async function loadGames() {
  const box = document.getElementById("games");
  try {
    games = await api("GET", withLanguage("/api/games"));
    showCards();
    if (chosenGame) replace(document.getElementById("game-form"), gameForm(games.find((g) => g.id === chosenGame)));
  } catch (error) {
    replace(box, el("p", { class: "error" }, t("Cannot load the games: {reason}", { reason: errorText(error) })));
  }
}

/** Everything the lobby shows, in the page's language. */
function showAll() {
  translatePage();
  showError("");
  if (lastCreated) showCreated(lastCreated);
  return Promise.all([loadGames(), loadOpenTables(), loadMyTables(), showAccountLink()]);
}

async function start() {
  nameInput().value = playerName();
  nameInput().addEventListener("change", () => savePlayerName(nameInput().value));
  document.getElementById("refresh-open").addEventListener("click", loadOpenTables);
  document.getElementById("refresh-mine").addEventListener("click", loadMyTables);
  window.addEventListener("focus", () => { loadMyTables(); loadOpenTables(); });
  await loadMessages(chooseLanguage(), ["obelisk"]);
  languageSwitch(document.getElementById("language"), async (code) => {
    await loadMessages(code, ["obelisk"]);
    await showAll();
  });
  await showAll();
}


// ---- Ratings -----------------------------------------------------------------------------------------

/** The link from a game's card to its leaderboard. */
function ratingsLink(game) {
  return el("a", { href: `/ratings/${encodeURIComponent(game.id)}`, class: "button" },
    t("Ratings: {game}", { game: game.name }));
}

/** The form's "Rated" checkbox: a rated table plays the default options and moves the accounts' ratings. */
function ratedField(box, aboutId) {
  return el("div", { class: "field" }, box, el("label", { for: box.id }, t("Rated")),
    el("small", { class: "muted", id: aboutId },
      t("The result moves the ratings of the players signed in to an account; the game's default options only.")));
}

/** " · rated" after a rated table's game name in a list. */
function ratedMark(table) {
  return table.rated ? ` · ${t("rated")}` : "";
}

start();
