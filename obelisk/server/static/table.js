// The table page: claims the seat of an invite link, follows the table over a websocket, sends this seat's moves.
import {
  api, el, replace, loadSeat, saveSeat, forgetSeat, playerName, places, seatLabel, errorText, statusText, ApiError, BoardSlot,
} from "/static/common.js";
import { t, lang, chooseLanguage, loadMessages, translatePage, languageSwitch, withLanguage } from "/static/i18n.js";

const CHANCE = -1;
const FILTER_FROM = 10;
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10000;
const PING_MS = 20000;
/** The bot that stands in for a person (`POST /api/tables/{id}/seats/{i}/bot`). */
const STAND_IN = "greedy";
/** Errors after which the frame on screen may be out of date: it is fetched again. */
const REFRESH_AFTER = new Set(["stale_version", "illegal_action", "not_your_turn", "finished", "nothing_to_undo"]);

const tableId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

let token = null;
let frame = null;
let socket = null;
let attempts = 0;
let retryTimer = null;
let pingTimer = null;
let sentVersion = null;
/** The version of the frame whose log is on screen: a frame whose log starts beyond it missed one. */
let logVersion = 0;
/** The version this seat had seen when it last looked (`localStorage`); what is newer is highlighted. */
let since = null;
let sinceKey = null;
let stopped = false;
let clockTimer = null;
const board = new BoardSlot($("board-box"), $("board"), () => {
  const ctx = { t, lang, play: sendMove };
  Object.defineProperty(ctx, "since", { get: () => since, enumerable: true });
  return ctx;
}, () => frame, showError);

function showError(message) {
  $("table-error").textContent = message;
  $("table-error").hidden = !message;
}

function setConnection(state, text) {
  const node = $("connection");
  node.dataset.state = state;
  node.textContent = text;
  $("reconnect").hidden = state !== "offline";
}

/** The seed as sent, digit for digit: a 63-bit seed does not fit a JavaScript number. */
function revealedSeed(raw, reveal) {
  const match = /"reveal"\s*:\s*\{[^}]*?"seed"\s*:\s*"?(\d+)/.exec(raw);
  return match ? match[1] : String(reveal.seed);
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function seatName(seats, index) {
  if (index === CHANCE) return t("chance");
  const seat = seats.find((s) => s.seat === index);
  return seat && seat.name ? t("seat {seat} ({name})", { seat: index, name: seat.name }) : t("seat {seat}", { seat: index });
}

/** A seat's presence, as its `data-presence` names it, in words. */
function presenceText(presence) {
  switch (presence) {
    case "bot standing in": return t("bot standing in");
    case "bot": return t("bot");
    case "open": return t("open");
    case "online": return t("online");
    default: return t("offline");
  }
}

function renderSeats(current) {
  const summary = current.table;
  const mySeat = current.seat;
  const acting = toAct(current);
  replace($("seats"), summary.seats.map((seat) => {
    const standIn = seat.human && seat.kind === "bot";
    const presence = standIn ? "bot standing in" : seat.kind === "bot" ? "bot"
      : !seat.claimed ? "open" : seat.connected ? "online" : "offline";
    return el("li", { class: "seat", "data-seat": seat.seat, "data-presence": presence, "data-turn": seat.seat === acting },
      el("span", { class: "presence", "aria-hidden": "true" }),
      seatLabel(seat),
      ` · ${presenceText(presence)}`,
      seat.timed_out ? el("strong", { class: "error" }, ` · ${t("out of time")}`) : null,
      seat.seat === mySeat ? el("strong", {}, ` · ${t("you")}`) : null,
      seat.seat === acting ? el("strong", { class: "to-act" }, ` · ${t("to act")}`) : null);
  }));
}

/** Hands seat `index` to a bot, or (`back`) takes this browser's seat back from its stand-in. */
async function standIn(index, back, button) {
  button.disabled = true;
  try {
    const path = `/api/tables/${encodeURIComponent(tableId)}/seats/${index}/${back ? "human" : "bot"}`;
    await api("POST", path, back ? {} : { bot: STAND_IN }, token);
    showError("");
  } catch (error) {
    showError(errorText(error));
    button.disabled = false;
  }
}

/** What this seat may do about who plays: a stand-in bot for itself, or for a seat out of time. */
function renderSeatControls(current) {
  const summary = current.table;
  const buttons = [];
  if (token && current.seat !== null && summary.status === "playing") {
    for (const seat of summary.seats) {
      if (!seat.human) continue;
      const mine = seat.seat === current.seat;
      if (mine && seat.kind === "bot") {
        buttons.push(el("button", { type: "button", "data-stand-in": "back" }, t("Take my seat back")));
      } else if (mine) {
        buttons.push(el("button", { type: "button", "data-stand-in": "mine" }, t("Let a bot play for me")));
      } else if (seat.kind === "human" && seat.timed_out) {
        buttons.push(el("button", { type: "button", "data-stand-in": String(seat.seat) },
          t("Let a bot play seat {seat}", { seat: seat.seat })));
      }
    }
  }
  for (const button of buttons) {
    const which = button.dataset.standIn;
    const index = which === "back" || which === "mine" ? current.seat : Number(which);
    button.addEventListener("click", () => standIn(index, which === "back", button));
  }
  replace($("seat-controls"), buttons);
}

/** The turn clock, when the table has one: the time left to the seat to act, counted down each second. */
function renderClock(current) {
  clearInterval(clockTimer);
  const summary = current.table;
  const clock = $("clock");
  const acting = toAct(current);
  clock.hidden = !summary.turn_seconds || summary.status !== "playing" || acting === null;
  if (clock.hidden) return;
  const due = Date.parse(summary.turn_started) + summary.turn_seconds * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((due - Date.now()) / 1000));
    if (left === 0) {
      clearInterval(clockTimer);
      if (!summary.seats.some((seat) => seat.timed_out)) refresh();
    }
    const minutes = Math.floor(left / 60);
    const text = `${minutes}:${String(left % 60).padStart(2, "0")}`;
    clock.textContent = left > 0
      ? t("Turn clock: {time} left for {seat}", { time: text, seat: seatName(summary.seats, acting) })
      : t("Turn clock: {seat} is out of time", { seat: seatName(summary.seats, acting) });
  };
  tick();
  clockTimer = setInterval(tick, 1000);
}

function focusedAction() {
  const active = document.activeElement;
  return active && ($("actions").contains(active) || active === $("filter"));
}

function applyFilter() {
  const words = $("filter").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  for (const button of $("actions").children) {
    const label = button.textContent.toLowerCase();
    button.hidden = !words.every((word) => label.includes(word));
  }
}

function sendMove(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN || !frame) return;
  sentVersion = frame.version;
  for (const button of $("actions").children) button.disabled = true;
  $("undo").disabled = true;
  socket.send(JSON.stringify({ type: "move", version: frame.version, action }));
}

/** Takes back this seat's last decision (one; the button repeats), on the version on screen. */
function sendUndo() {
  if (!socket || socket.readyState !== WebSocket.OPEN || !frame || !frame.undo) return;
  sentVersion = frame.version;
  for (const button of $("actions").children) button.disabled = true;
  $("undo").disabled = true;
  socket.send(JSON.stringify({ type: "undo", version: frame.version }));
}

/** The seat to act: the summary says it; a view's `current_player` is the fallback. */
function toAct(current) {
  const fromSummary = current.table.to_act;
  if (fromSummary !== undefined) return fromSummary;
  return current.view ? current.view.current_player : null;
}

function renderTurn(current) {
  const hadFocus = focusedAction();
  const legal = current.legal || [];
  const title = $("turn-title");
  if (current.status === "finished") {
    title.textContent = t("Game over");
  } else if (legal.length) {
    title.textContent = t("Your move");
  } else if (toAct(current) !== null && toAct(current) >= 0 && current.status === "playing") {
    title.textContent = t("Waiting for {seat}", { seat: seatName(current.table.seats, toAct(current)) });
  } else if (current.status === "waiting") {
    title.textContent = t("Waiting for players to take their seats");
  } else {
    title.textContent = t("Waiting");
  }
  const online = socket && socket.readyState === WebSocket.OPEN;
  const undo = $("undo");
  undo.hidden = !token || !(current.undo > 0) || current.status !== "playing";
  undo.disabled = !online;
  undo.title = t("Take back your last move (key u)");
  replace($("actions"), legal.map(([action, label]) => el("button", {
    type: "button", class: "action", "data-action": action, disabled: !online,
    on: { click: () => sendMove(action) },
  }, label)));
  $("filter-box").hidden = legal.length <= FILTER_FROM;
  if (legal.length <= FILTER_FROM) $("filter").value = "";
  applyFilter();
  if (hadFocus || (legal.length && document.activeElement === document.body)) {
    const target = !$("filter-box").hidden ? $("filter") : $("actions").querySelector("button:not([hidden])");
    (target || title).focus();
  }
}

/**
 * Puts the frame's log entries in place of those from `log_from` on (docs/server.md): a socket sends each
 * entry once, and after an undo `log_from` goes back to the first entry taken back. A `log_from` beyond the
 * version whose log is on screen means a frame was missed: the whole frame is fetched.
 */
function renderLog(current) {
  const from = current.log_from || 0;
  if (from > logVersion) {
    refresh();
    return;
  }
  const log = $("log");
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  while (log.lastElementChild && Number(log.lastElementChild.dataset.seq) >= from) log.lastElementChild.remove();
  for (const entry of current.log || []) {
    log.appendChild(el("li", { "data-seq": entry.seq },
      el("span", { class: "actor" }, `${seatName(current.table.seats, entry.actor)}: `), entry.text));
  }
  logVersion = current.version;
  markNew();
  if (atBottom) log.scrollTop = log.scrollHeight;
}

function seenStoreKey(seat) {
  return `obelisk.seen.${tableId}.${seat === null ? "spectator" : seat}`;
}

/** The version this seat had seen on its last look, from `localStorage` (null: never, or no storage). */
function loadSeen(seat) {
  try {
    const stored = localStorage.getItem(seenStoreKey(seat));
    return stored !== null && /^\d+$/.test(stored) ? Number(stored) : null;
  } catch {
    return null;
  }
}

/** Remembers the version on screen as seen, while the page is looked at. */
function rememberSeen(current) {
  if (document.visibilityState !== "visible") return;
  try {
    localStorage.setItem(seenStoreKey(current.seat), String(current.version));
  } catch {
    // Private windows may refuse storage: nothing is highlighted next time.
  }
}

/** Highlights the log entries newer than the version this seat had seen on its last look. */
function markNew() {
  for (const item of $("log").children) {
    const fresh = since !== null && Number(item.dataset.seq) >= since;
    item.classList.toggle("new", fresh);
    if (fresh) item.title = t("New since your last look");
    else item.removeAttribute("title");
  }
}

/** The page was looked away from and back at: what came meanwhile is what is new. */
function lookedAgain() {
  if (document.visibilityState !== "visible" || !frame) return;
  since = loadSeen(frame.seat);
  markNew();
  board.refresh();
  rememberSeen(frame);
}

/** The final result's tie lines: seats with equal points either share a place or the game's tie-break ordered them. */
function tieLines(current, place) {
  const { scores } = current.result;
  const totals = (scores || []).map((score) => (score || {}).total);
  const lines = [];
  for (const total of new Set(totals)) {
    const seats = totals.map((value, seat) => (value === total ? seat : null)).filter((seat) => seat !== null);
    if (seats.length < 2 || total === undefined) continue;
    const names = seats.map((seat) => seatName(current.table.seats, seat)).join(", ");
    const shared = new Set(seats.map((seat) => place[seat])).size === 1;
    lines.push(shared
      ? t("{seats} tied on {points} points and share place {place}.", { seats: names, points: total, place: place[seats[0]] })
      : t("{seats} have {points} points each; the tie-break decided: {order}.", {
        seats: names, points: total,
        order: [...seats].sort((a, b) => place[a] - place[b])
          .map((seat) => t("{seat} in place {place}", { seat: seatName(current.table.seats, seat), place: place[seat] }))
          .join(", "),
      }));
  }
  return lines;
}

function renderResult(current, raw) {
  const summary = current.table;
  const finished = current.status === "finished";
  $("result").hidden = !current.result;
  if (current.result) {
    const { returns, scores } = current.result;
    const place = places(returns);
    const categories = [];
    for (const score of scores || []) {
      for (const name of Object.keys((score && score.breakdown) || {})) if (!categories.includes(name)) categories.push(name);
    }
    const order = returns.map((_, seat) => seat).sort((a, b) => place[a] - place[b] || a - b);
    replace($("scores"),
      el("thead", {}, el("tr", {},
        el("th", { scope: "col" }, t("Place")), el("th", { scope: "col" }, t("Seat")), el("th", { scope: "col" }, t("Points")),
        categories.map((name) => el("th", { scope: "col" }, (current.result.headings || {})[name] || name.replaceAll("_", " "))))),
      el("tbody", {}, order.map((seat) => {
        const score = (scores && scores[seat]) || {};
        return el("tr", { "data-seat": seat, class: seat === current.seat ? "mine" : null },
          el("td", {}, String(place[seat])),
          el("th", { scope: "row" }, seatName(summary.seats, seat)),
          el("td", {}, score.total ?? ""),
          categories.map((name) => el("td", {}, (score.breakdown || {})[name] ?? "")));
      })));
    replace($("ties"), tieLines(current, place).map((line) => el("p", {}, line)));
  }
  if (current.reveal) {
    const seed = revealedSeed(raw, current.reveal);
    const salt = String(current.reveal.salt);
    replace($("reveal"), t("Seed"), " ", el("code", { id: "seed" }, seed), ", ", t("salt"), " ", el("code", {}, salt), " ",
      el("span", { id: "verified" }, t("(checking the commitment…)")));
    sha256Hex(`obelisk-seed:${seed}:${salt}`).then((hex) => {
      const node = $("verified");
      if (node) node.textContent = `sha256:${hex}` === summary.commitment
        ? t("— matches the commitment published at the start.")
        : t("— does NOT match the commitment published at the start!");
    }, () => {
      const node = $("verified");
      if (node) node.textContent = "";
    });
  } else {
    replace($("reveal"));
  }
  const record = $("record");
  record.hidden = !finished;
  if (finished) {
    record.href = `/api/tables/${encodeURIComponent(summary.id)}/record`;
    record.setAttribute("download", `${summary.game}-${summary.id}.json`);
  }
  const replay = $("replay");
  replay.hidden = !finished;
  replay.textContent = t("Replay the game");
  if (finished) replay.href = `/table/${encodeURIComponent(summary.id)}/replay`;
  const rematch = $("rematch");
  rematch.hidden = !finished || current.seat === null || !token;
  rematch.textContent = summary.rematch ? t("Join the rematch") : t("Rematch");
}

/** Marked once, when the first frame is on screen: `benchmarks/page_load.py` times the page up to it. */
const FIRST_FRAME_MARK = "obelisk-first-frame";

function render(current, raw) {
  const summary = current.table;
  const first = frame === null;
  frame = current;
  sentVersion = null;
  const key = seenStoreKey(current.seat);
  if (key !== sinceKey) {
    sinceKey = key;
    since = loadSeen(current.seat);
  }
  const yourMove = (current.legal || []).length > 0;
  const title = t("Obelisk: {game}", { game: summary.game_name });
  document.title = yourMove ? `${t("(your move)")} ${title}` : title;
  $("game-name").textContent = `· ${summary.game_name}`;
  $("table-status").textContent = statusText(summary.status);
  $("whoami").textContent = current.seat === null ? t("spectating") : t("you are seat {seat}", { seat: current.seat });
  $("version").textContent = String(current.version);
  $("commitment").textContent = summary.commitment;
  renderSeats(current);
  renderSeatControls(current);
  renderClock(current);
  $("view").textContent = current.text;
  board.render(current);
  renderTurn(current);
  renderLog(current);
  renderResult(current, raw);
  rememberSeen(current);
  if (first) performance.mark(FIRST_FRAME_MARK);
}

function accept(current, raw) {
  if (frame && current.table.id === frame.table.id && current.version < frame.version) return;
  render(current, raw);
}

/** Fetches the frame over HTTP after an error that may have left the screen behind the table. */
async function refresh() {
  try {
    const response = await fetch(withLanguage(`/api/tables/${encodeURIComponent(tableId)}/frame`), {
      headers: token ? { Authorization: `Bearer ${token}`, Accept: "application/json" } : { Accept: "application/json" },
    });
    if (response.ok) {
      const raw = await response.text();
      accept(JSON.parse(raw), raw);
      return;
    }
  } catch {
    // The socket's next frame brings the table up to date.
  }
  if (frame) render(frame, "");
}

function handleError(message) {
  showError(errorText(new ApiError(String(message.code), message.message || message.code || "error", 0)));
  if (message.code === "bad_token") {
    forgetSeat(tableId);
    token = null;
    if (socket) socket.close();
    return;
  }
  if (REFRESH_AFTER.has(message.code) || sentVersion !== null) refresh();
}

function onMessage(event) {
  let message;
  try {
    message = JSON.parse(event.data);
  } catch {
    return;
  }
  if (message.type === "frame") {
    attempts = 0;
    if (sentVersion !== null && message.version > sentVersion) showError("");
    accept(message, event.data);
  } else if (message.type === "error") {
    handleError(message);
  }
}

function scheduleReconnect() {
  clearTimeout(retryTimer);
  const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** attempts) * (0.75 + Math.random() * 0.5);
  attempts += 1;
  const due = Date.now() + delay;
  const tick = () => {
    const left = Math.max(0, due - Date.now());
    if (left <= 0) {
      connect();
      return;
    }
    setConnection("offline", t("connection lost; retrying in {seconds} s", { seconds: Math.ceil(left / 1000) }));
    retryTimer = setTimeout(tick, Math.min(left, 1000));
  };
  tick();
}

function connect() {
  clearTimeout(retryTimer);
  if (stopped) return;
  if (socket) {
    socket.onclose = null;
    socket.close();
  }
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${window.location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  socket = ws;
  setConnection("connecting", t("connecting…"));
  ws.onopen = () => {
    setConnection("online", t("connected"));
    ws.send(JSON.stringify(lang === "en" ? { type: "hello", token } : { type: "hello", token, lang }));
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
    }, PING_MS);
  };
  ws.onmessage = onMessage;
  ws.onclose = () => {
    clearInterval(pingTimer);
    if (socket !== ws) return;
    socket = null;
    if (frame) renderTurn(frame);
    if (!stopped) scheduleReconnect();
  };
}

async function rematch() {
  const next = frame && frame.table.rematch;
  if (next && loadSeat(next)) {
    window.location.assign(`/table/${encodeURIComponent(next)}`);
    return;
  }
  const button = $("rematch");
  button.disabled = true;
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/rematch`, {}, token);
    saveSeat(answer.table.id, { token: answer.token, seat: answer.seat ?? null, claimed: true });
    window.location.assign(`/table/${encodeURIComponent(answer.table.id)}`);
  } catch (error) {
    showError(t("Cannot start a rematch: {reason}", { reason: errorText(error) }));
    button.disabled = false;
  }
}

/**
 * Claims the seat of the address's `#token=` and takes the token out of the address (so it is not bookmarked
 * or shared by accident); the seat's token to use from then on. An invite claims its seat once, and the claim
 * answers the seat's own token: that is what this browser keeps. A link opened again here (its invite used)
 * gives way to the token kept for the table; a claim the network lost leaves the link in place to try again.
 */
async function claimFromFragment() {
  const fresh = new URLSearchParams(window.location.hash.slice(1)).get("token");
  const stored = loadSeat(tableId);
  let kept = stored ? stored.token : null;
  if (fresh && fresh !== kept) {
    try {
      const name = playerName();
      const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/claim`,
        name ? { token: fresh, name } : { token: fresh });
      saveSeat(tableId, { token: answer.token, seat: answer.seat, claimed: true });
      kept = answer.token;
    } catch (error) {
      if (!(kept && error.code === "invite_used")) showError(t("Cannot take the seat: {reason}", { reason: errorText(error) }));
      if (!(error.status >= 400 && error.status < 500)) return kept;
    }
  }
  if (window.location.hash) window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return kept;
}

/** Whether a key press goes to something the reader types in: shortcuts never fire there. */
function typing(target) {
  return Boolean(target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)));
}

function showHelp(open) {
  const help = $("help");
  if (open) {
    replace($("help-title"), t("Keyboard shortcuts"));
    replace($("help-keys"), [
      ["u", t("Take back your last move")],
      ["?", t("Show these shortcuts")],
      ["Esc", t("Close this help")],
      ["Tab", t("Go to the next button or field; Enter or Space uses it")],
    ].map(([key, what]) => [el("dt", {}, el("kbd", {}, key)), el("dd", {}, what)]));
    $("help-close").textContent = t("Close");
    help.hidden = false;
    $("help-close").focus();
  } else if (!help.hidden) {
    help.hidden = true;
    $("help-open").focus();
  }
}

/**
 * `u` takes back a move, `?` lists the shortcuts, Escape closes the list (which keeps the focus while open);
 * never while typing or with a modifier.
 */
function onShortcut(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
  if (event.key === "Escape" && !$("help").hidden) {
    event.preventDefault();
    showHelp(false);
  } else if (event.key === "Tab" && !$("help").hidden) {
    event.preventDefault();
    $("help-close").focus();
  } else if (event.key === "?") {
    event.preventDefault();
    showHelp($("help").hidden);
  } else if ((event.key === "u" || event.key === "U") && $("help").hidden) {
    const undo = $("undo");
    if (!undo.hidden && !undo.disabled) {
      event.preventDefault();
      sendUndo();
    }
  }
}

function bindKeys() {
  document.addEventListener("keydown", onShortcut);
  $("undo").addEventListener("click", sendUndo);
  $("help-open").addEventListener("click", () => showHelp(true));
  $("help-close").addEventListener("click", () => showHelp(false));
  document.addEventListener("visibilitychange", lookedAgain);
  $("filter").addEventListener("input", applyFilter);
  $("filter").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      const first = $("actions").querySelector("button:not([hidden]):not([disabled])");
      if (first) first.click();
    }
  });
  $("reconnect").addEventListener("click", () => { attempts = 0; connect(); });
  $("rematch").addEventListener("click", rematch);
  window.addEventListener("online", () => { if (!socket) { attempts = 0; connect(); } });
  window.addEventListener("pagehide", () => {
    stopped = true;
    if (socket) socket.close();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) {
      stopped = false;
      attempts = 0;
      connect();
    }
  });
}

/** Speaks `code` from now on: the page's texts at once, then the table worded again by a fresh socket. */
async function switchLanguage(code) {
  await loadMessages(code, frame ? [frame.table.game, "obelisk"] : ["obelisk"]);
  translatePage();
  board.reset();
  $("log").replaceChildren();
  logVersion = 0;
  attempts = 0;
  connect();
}

async function start() {
  bindKeys();
  await loadMessages(chooseLanguage(), ["obelisk"]);
  translatePage();
  languageSwitch($("language"), switchLanguage);
  if (!tableId) {
    showError(t("No table in the address."));
    return;
  }
  token = await claimFromFragment();
  connect();
}

start();
