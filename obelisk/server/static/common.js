// Shared by the lobby and the table page: the JSON API, safe element building, the seats kept in this browser.
import { t, lang, loadMessages } from "/static/i18n.js";

/** An error answered by the server ({"error": {"code", "message"}}) or by the network. */
export class ApiError extends Error {
  constructor(code, message, status, retryAfter = null) {
    super(message);
    this.code = code;
    this.status = status;
    /** Seconds after which the same request may succeed (a rate limit's `retry_after`), else null. */
    this.retryAfter = retryAfter;
  }
}

/**
 * What to show the reader for an `ApiError`: the server's own one-line message in English (the API speaks
 * English), else the page's text for the error's code.
 */
export function errorText(error) {
  if (lang === "en" || !(error instanceof ApiError)) return error.message;
  switch (error.code) {
    case "network": return t("the server cannot be reached");
    case "http": return t("the server answered with an error ({status})", { status: error.status });
    case "bad_request": return t("the server refused the request as incomplete or wrong");
    case "illegal_action": return t("that move is not allowed now");
    case "bad_token": return t("this seat key opens no seat at this table");
    case "signed_out": return t("you signed out, so this page no longer shows your seat");
    case "not_claimed": return t("this is an invite link: open it to take its seat first");
    case "invite_used": return t("this invite link was already used to take its seat");
    case "expired": return t("this table waited too long for its players and has closed");
    case "too_many_tables": return t("you already have too many tables waiting for players");
    case "too_many_sockets": return t("too many tables are open from your address; close some");
    case "cross_origin": return t("the request came from another site and was refused");
    case "not_json": return t("the server refused the request as incomplete or wrong");
    case "not_public": return t("only public tables can be joined; ask for an invite link");
    case "not_found": return t("there is no such table");
    case "stale_version": return t("the table has moved on; here it is as it is now");
    case "not_your_turn": return t("it is not your turn");
    case "waiting": return t("the game starts when every seat is taken");
    case "finished": return t("the game is over");
    case "not_finished": return t("the game is not over yet");
    case "seat_taken": return t("that seat is taken");
    case "too_large": return t("the request is too large");
    case "rate_limited": return t("too many requests; wait a moment");
    case "chat_empty": return t("write something first");
    case "chat_too_long": return t("a message may have at most 300 characters");
    case "chat_control": return t("a message may not contain control characters");
    case "chat_full": return t("this table's chat is full");
    case "internal": return t("the server failed; the table is unchanged");
    case "bad_name": return t("a name has 2 to 40 letters, digits, spaces or - _ .");
    case "name_taken": return t("that name is taken");
    case "bad_password": return t("a password has 10 to 200 characters");
    case "bad_credentials": return t("that name and password do not match an account");
    case "too_many_sign_ins": return t("too many sign-in attempts; try again in {seconds} s", { seconds: error.retryAfter });
    case "not_signed_in": return t("you are not signed in");
    case "csrf_failed": return t("your sign-in has changed; reload the page");
    case "seat_of_another_account": return t("this seat belongs to another account");
    case "account_seated": return t("your account already holds a seat at this table");
    case "bad_email": return t("an e-mail address looks like name@example.org");
    case "email_needed": return t("turn e-mails need an e-mail address");
    default: return error.message;
  }
}

/**
 * The value a change asked while signed in carries in `X-CSRF-Token` (from the cookie the server sets for the
 * pages to read), or null when nobody is signed in here.
 */
export function csrfToken() {
  const found = document.cookie.split("; ").find((pair) => pair.startsWith("obelisk_csrf="));
  return found ? found.slice("obelisk_csrf=".length) : null;
}

/** Calls the JSON API; resolves to the parsed body, rejects with an ApiError (`errorText` words it for the reader). */
export async function api(method, path, body = undefined, token = null) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const csrf = csrfToken();
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError("network", "the server cannot be reached", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 204) return null;
  if (!response.ok) {
    const error = data && data.error;
    if (error && typeof error.message === "string") {
      throw new ApiError(String(error.code), error.message, response.status,
        Number.isInteger(error.retry_after) ? error.retry_after : null);
    }
    throw new ApiError("http", `the server answered ${response.status}`, response.status);
  }
  return data;
}

/**
 * Builds an element. Strings and numbers among the children become text nodes, so data is never parsed as
 * HTML; attributes are set one by one (`class`, `for`, `hidden`, `disabled`, `data-*`, ...), events as
 * `on: {click: fn}`.
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "on") {
      for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    } else if (name === "text") {
      node.textContent = String(value);
    } else if (value === true) {
      node.setAttribute(name, "");
    } else {
      node.setAttribute(name, String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces every child of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

const SEAT_PREFIX = "obelisk.seat.";
const NAME_KEY = "obelisk.name";

/** The seat this browser holds at a table: `{token, seat, claimed}` or null. */
export function loadSeat(tableId) {
  try {
    const entry = JSON.parse(localStorage.getItem(SEAT_PREFIX + tableId) || "null");
    if (entry && typeof entry.token === "string") return entry;
  } catch {
    // A damaged entry is treated as absent and overwritten by the next claim.
  }
  return null;
}

export function saveSeat(tableId, entry) {
  localStorage.setItem(SEAT_PREFIX + tableId, JSON.stringify({ ...entry, saved: Date.now() }));
}

export function forgetSeat(tableId) {
  localStorage.removeItem(SEAT_PREFIX + tableId);
}

/** Every table this browser holds a seat at, newest first. */
export function mySeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(SEAT_PREFIX)) {
      const table = key.slice(SEAT_PREFIX.length);
      const entry = loadSeat(table);
      if (entry) seats.push({ table, ...entry });
    }
  }
  return seats.sort((a, b) => (b.saved || 0) - (a.saved || 0));
}

export function playerName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function savePlayerName(name) {
  const clean = name.trim();
  if (clean) localStorage.setItem(NAME_KEY, clean);
}

/** Copies text to the clipboard; falls back to selecting `input` so the user can copy it by hand. */
export async function copyText(text, input, status) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = t("copied");
  } catch {
    input.focus();
    input.select();
    status.textContent = t("press Ctrl+C to copy");
  }
}

/**
 * How a page calls a seat (a summary's `seats` entry): the player's name, else "Player N" counted from 1 in the
 * reader's language (the API counts seats from 0). A bot's own kind is no name: it is "Player N" too.
 */
export function seatName(seat) {
  const named = seat.name && !(seat.kind === "bot" && seat.name === seat.bot);
  return named ? seat.name : t("Player {n}", { n: seat.seat + 1 });
}

/** The label of a seat as the lobby and the replay list it: "Player 2: Ann", "Player 3: bot greedy". */
export function seatLabel(seat) {
  let who = seat.name || (seat.claimed ? t("taken") : t("open seat"));
  if (seat.kind === "bot") {
    who = !seat.name || seat.name === seat.bot
      ? t("bot {bot}", { bot: seat.bot }) : t("{name} (bot {bot})", { name: seat.name, bot: seat.bot });
  }
  return t("Player {n}: {who}", { n: seat.seat + 1, who });
}

/** A table's status (`waiting`, `playing`, `finished`, `expired`) in words. */
/** "5 minutes ago" in the page's language (the browser's own wording of relative times). */
export function agoText(stamp) {
  const then = Date.parse(stamp);
  if (Number.isNaN(then)) return "";
  const seconds = Math.round((then - Date.now()) / 1000);
  const format = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  const units = [["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, "minute");
}

/** A length of time as a turn clock's choice reads: "1 minute", "3 hours", "14 days". */
export function spanText(seconds) {
  if (seconds < 3600) return t.n("{n} minute", "{n} minutes", Math.round(seconds / 60));
  if (seconds < 86400) return t.n("{n} hour", "{n} hours", Math.round(seconds / 3600));
  return t.n("{n} day", "{n} days", Math.round(seconds / 86400));
}

export function statusText(status) {
  switch (status) {
    case "waiting": return t("waiting");
    case "playing": return t("playing");
    case "finished": return t("finished");
    case "expired": return t("expired");
    default: return status;
  }
}

/**
 * The game's own board on a page (`obelisk/games/<id>/web/board.js`, docs/web.md "Boards"): loaded with the
 * game's catalog on the first frame that names one, then given every frame. `ctx()` makes the board's
 * context; `latest()` is the frame to draw once the script has loaded; `failed(message)` says it did not.
 */
export class BoardSlot {
  constructor(box, root, ctx, latest, failed) {
    Object.assign(this, { box, root, ctx, latest, failed, board: null, loading: null });
  }

  render(current) {
    const url = current.table.board;
    if (!url) return;
    this.box.hidden = false;
    if (this.board) {
      this.board.update(current);
      return;
    }
    if (this.loading) return;
    this.loading = loadMessages(lang, [current.table.game, "obelisk"]).then(() => import(url)).then((module) => {
      this.board = module.mount(this.root, this.ctx());
      const frame = this.latest();
      if (frame) this.board.update(frame);
    }, () => {
      this.box.hidden = true;
      this.failed(t("The board could not be loaded; the table is shown in words below."));
    });
  }

  /** Draws the latest frame again (e.g. when what counts as new has changed). */
  refresh() {
    const frame = this.latest();
    if (this.board && frame) this.board.update(frame);
  }

  /** Drops the board, so the next frame loads it again (in a new language). */
  reset() {
    if (this.board && this.board.destroy) this.board.destroy();
    this.board = null;
    this.loading = null;
    this.root.replaceChildren();
  }
}
