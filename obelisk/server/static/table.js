// The table page: claims the seat of an invite link, follows the table over a websocket, shows the board first
// with what the seat may do now, and sends this seat's moves (docs/web.md "The table page").
import {
  api, el, replace, loadSeat, saveSeat, forgetSeat, playerName, seatName as nameOfSeat, errorText,
  ApiError, BoardSlot, agoText, spanText,
} from "/static/common.js";
import { t, lang, chooseLanguage, loadMessages, translatePage, languageSwitch, withLanguage } from "/static/i18n.js";
import { confirmFinal, isFinal, loadHelp, previewOf } from "/static/boardkit.js";
import { CHANCE, LogModel, renderMoves } from "/static/tablelog.js";
import { Chat } from "/static/chat.js";
import { settings, loadSettings, bindSettings, announceTurn, renderRules, Guide } from "/static/panels.js";

const FILTER_FROM = 10;
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10000;
const PING_MS = 20000;
/** The bot that stands in for a person (`POST /api/tables/{id}/seats/{i}/bot`). */
const STAND_IN = "greedy";
/** Errors after which the frame on screen may be out of date: it is fetched again. */
const REFRESH_AFTER = new Set(["stale_version", "illegal_action", "not_your_turn", "finished", "nothing_to_undo"]);
/** Marked once, when the first frame is on screen, and when the board has first drawn one: `benchmarks/page_load.py`
 * times the page up to them. */
const FIRST_FRAME_MARK = "obelisk-first-frame";
const BOARD_DRAWN_MARK = "obelisk-board-drawn";
/** Set once the player has made a move on a board (`localStorage`): the hint on how to is no longer shown. */
const HINT_KEY = "obelisk.board-hint";

const tableId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

let token = null;
let frame = null;
let socket = null;
let attempts = 0;
let retryTimer = null;
let pingTimer = null;
/** The version a move or undo was sent from, until a newer frame (or an error) answers it. */
let inFlight = null;
const log = new LogModel();
/** The version this seat had seen when it last looked (`localStorage`); what is newer is highlighted. */
let since = null;
let sinceKey = null;
let stopped = false;
let clockTimer = null;
/** The actions the board offers (the bar shows the rest), for the frame version it drew. */
let placed = { ids: new Set(), version: null };
/** The version whose only choice was played for this seat (never twice), and whether an undo holds that back. */
let autoplayedAt = null;
let autoplayHeld = false;
let wasMyTurn = false;
const chat = new Chat(tableId, {
  lines: $("chat-lines"), muted: $("chat-muted"), form: $("chat-form"), text: $("chat-text"), name: $("chat-name"),
  error: $("chat-error"),
}, { seatName: (seat) => seatName(seat), token: () => token, mine: () => (frame ? frame.seat : null) });
const guide = new Guide({ box: $("guide"), title: $("guide-title"), step: $("guide-step"), back: $("guide-back"),
  next: $("guide-next"), done: $("guide-done") });

const board = new BoardSlot($("board-box"), $("board"), () => {
  const ctx = {
    t, lang, game: frame.table.game, play: playOnBoard, placed: boardPlaced, busy: () => inFlight !== null,
    seatName: (seat) => seatName(seat),
    actors: (from, to) => log.actors(from, to),
  };
  Object.defineProperty(ctx, "since", { get: () => since, enumerable: true });
  return ctx;
}, () => frame, (message) => {
  showError(message);
  $("moves").open = true;
});

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

/** How the page calls seat `index` (0-based): the player's name, else "Player N" from 1. */
function seatName(index, current = frame) {
  if (index === CHANCE) return t("chance");
  const seat = current && current.table.seats.find((s) => s.seat === index);
  return seat ? nameOfSeat(seat) : t("Player {n}", { n: index + 1 });
}

/** A place as the reader says it: 1st, 2nd… in English, "1." in Czech. */
function ordinal(n) {
  if (lang !== "en") return `${n}.`;
  const suffix = { one: "st", two: "nd", few: "rd", other: "th" }[new Intl.PluralRules("en", { type: "ordinal" }).select(n)];
  return `${n}${suffix}`;
}

/** The seat to act: the summary says it; a view's `current_player` is the fallback. */
function toAct(current) {
  const fromSummary = current.table.to_act;
  if (fromSummary !== undefined) return fromSummary;
  return current.view ? current.view.current_player : null;
}

// ---- the players ----------------------------------------------------------------------------------

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
  const acting = toAct(current);
  replace($("seats"), current.table.seats.map((seat) => {
    const standIn = seat.human && seat.kind === "bot";
    const presence = standIn ? "bot standing in" : seat.kind === "bot" ? "bot"
      : !seat.claimed ? "open" : seat.connected ? "online" : "offline";
    const named = nameOfSeat(seat);
    const number = t("Player {n}", { n: seat.seat + 1 });
    return el("li", { class: "seat", "data-seat": seat.seat, "data-presence": presence, "data-turn": seat.seat === acting },
      el("span", { class: "presence", "aria-hidden": "true" }),
      el("strong", {}, named), named === number ? null : ` (${number})`,
      ` · ${presenceText(presence)}`,
      seat.timed_out ? el("strong", { class: "error" }, ` · ${t("out of time")}`) : null,
      seat.seat === current.seat ? el("strong", {}, ` · ${t("you")}`) : null,
      seat.seat === acting ? el("strong", { class: "to-act" }, ` · ${t("to act")}`) : null);
  }));
  $("whoami").textContent = current.seat === null ? t("You are watching this table.")
    : t("You play as {player}.", { player: seatName(current.seat, current) });
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
  if (current.seat !== null && summary.status === "playing") {
    for (const seat of summary.seats) {
      if (!seat.human) continue;
      const mine = seat.seat === current.seat;
      if (mine && seat.kind === "bot") {
        buttons.push([el("button", { type: "button" }, t("Take my seat back")), seat.seat, true]);
      } else if (mine) {
        buttons.push([el("button", { type: "button" }, t("Let a bot play for me")), seat.seat, false]);
      } else if (seat.kind === "human" && seat.timed_out) {
        buttons.push([el("button", { type: "button" }, t("Let a bot play for {player}", { player: nameOfSeat(seat) })),
          seat.seat, false]);
      }
    }
  }
  for (const [button, index, back] of buttons) button.addEventListener("click", () => standIn(index, back, button));
  replace($("seat-controls"), buttons.map(([button]) => button));
}

/** "12:05:09" or "4:09": a turn clock's time left, to the second; "2 days 5 h" once it is a day or more. */
function leftText(seconds) {
  if (seconds >= 86400) {
    return t("{days} d {hours} h", { days: Math.floor(seconds / 86400), hours: Math.floor((seconds % 86400) / 3600) });
  }
  const two = (n) => String(n).padStart(2, "0");
  const [hours, minutes] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60)];
  return hours ? `${hours}:${two(minutes)}:${two(seconds % 60)}` : `${minutes}:${two(seconds % 60)}`;
}

/** When the turn started, as the reader's clock says it: the time today, the date and time before today. */
function sinceText(stamp) {
  const then = new Date(stamp);
  const today = then.toDateString() === new Date().toDateString();
  const shape = today ? { hour: "2-digit", minute: "2-digit" }
    : { day: "numeric", month: "numeric", hour: "2-digit", minute: "2-digit" };
  return then.toLocaleString(lang, shape);
}

/** Whose turn it is and since when ("Bob to play since 14:02, 3 hours ago"), and with a turn clock its length
 * and the time left, counted down each second: games of one move a day are followed over days. */
function renderClock(current) {
  clearInterval(clockTimer);
  const summary = current.table;
  const clock = $("clock");
  const acting = toAct(current);
  clock.hidden = summary.status !== "playing" || acting === null || acting < 0 || !summary.turn_started;
  if (clock.hidden) return;
  const player = seatName(acting, current);
  const due = Date.parse(summary.turn_started) + (summary.turn_seconds || 0) * 1000;
  const tick = () => {
    const parts = [t("{player} to play since {time}, {ago}",
      { player, time: sinceText(summary.turn_started), ago: agoText(summary.turn_started) })];
    if (summary.turn_seconds) {
      const left = Math.max(0, Math.round((due - Date.now()) / 1000));
      parts.push(t("{span} per turn", { span: spanText(summary.turn_seconds) }));
      parts.push(left > 0 ? t("{time} left", { time: leftText(left) }) : t("out of time"));
      if (left === 0) {
        clearInterval(clockTimer);
        if (!summary.seats.some((seat) => seat.timed_out)) refresh();
      }
    }
    clock.textContent = parts.join("; ");
  };
  tick();
  clockTimer = setInterval(tick, 1000);
}

// ---- moves ----------------------------------------------------------------------------------------

function online() {
  return Boolean(socket && socket.readyState === WebSocket.OPEN);
}

/** The legal entry of `action` in the frame on screen. */
function legalEntry(action) {
  return ((frame && frame.legal) || []).find((entry) => entry[0] === action) || null;
}

/**
 * Sends `message` (a move, a batch or an undo) with the version on screen, after asking when it cannot be taken
 * back and the player wants to be asked; resolves true once sent. Every move of the page goes through here.
 */
async function send(message, { final = false, label = "", about = null, preview = "" } = {}) {
  if (!online() || !frame || inFlight !== null) return false;
  const version = frame.version;
  if (final && settings.confirmFinal) {
    const yes = await confirmFinal(t, label, about, preview);
    if (!yes || !frame || frame.version !== version || !online() || inFlight !== null) return false;
  }
  inFlight = version;
  $("table-main").setAttribute("aria-busy", "true");
  lockBar();
  socket.send(JSON.stringify({ ...message, version }));
  return true;
}

/** A move of the board (through the kit, with its piece's text for the confirmation) or of a button. */
function playAction(action, about = null) {
  const entry = legalEntry(action);
  autoplayHeld = false;
  $("autoplayed").hidden = true;
  const preview = previewOf(frame, action);
  return send({ type: "move", action }, { final: isFinal(entry), label: entry ? entry[1] : "", about,
    preview: preview ? preview.text : "" });
}

/** A move of a piece on the board: the player has found how the board plays, so the hint on top goes. */
function playOnBoard(action, about) {
  try {
    localStorage.setItem(HINT_KEY, "done");
  } catch {
    // Without storage the hint shows again on the next visit.
  }
  $("hint").hidden = true;
  return playAction(action, about);
}

/** The hint for a first move on a board, until the player has made one there. */
function renderHint(current) {
  let done = false;
  try {
    done = localStorage.getItem(HINT_KEY) === "done";
  } catch {
    done = false;
  }
  $("hint").hidden = done || !(current.legal || []).length || placed.version !== current.version || !placed.ids.size;
}

/** A shortcut of the frame: several moves sent as one batch, applied all or nothing. */
function playShortcut(shortcut) {
  autoplayHeld = false;
  return send({ type: "moves", actions: shortcut.actions }, { final: Boolean(shortcut.final), label: shortcut.text });
}

/** Takes back this seat's last decision (one; the button repeats), on the version on screen. */
function sendUndo() {
  if (!frame || !frame.undo) return;
  autoplayHeld = true;
  send({ type: "undo" });
}

function lockBar() {
  for (const button of document.querySelectorAll("#actions button, #bar button")) button.disabled = true;
}

/** The board reports which actions it offers; the bar shows the others. */
function boardPlaced(ids, version) {
  if (placed.version === null) performance.mark(BOARD_DRAWN_MARK);
  placed = { ids, version };
  if (frame && frame.version === version) {
    renderBar(frame);
    renderHint(frame);
  }
}

/** A button of the bar or the list for a move (or a shortcut), marked when it cannot be taken back. */
function moveButton(label, final, className, onClick) {
  return el("button", {
    type: "button", class: final ? `${className} final` : className, disabled: !online() || inFlight !== null,
    "aria-label": final ? t("{move} (cannot be taken back)", { move: label }) : null, on: { click: onClick },
  }, label, final ? el("span", { class: "final-mark", "aria-hidden": "true" }, " ⚠") : null);
}

/** A move's button; the engine's preview of it, if any, is its description (read on focus, shown on hover). */
function actionButton(entry) {
  const button = moveButton(entry[1], isFinal(entry), "action", () => playAction(entry[0]));
  const preview = previewOf(frame, entry[0]);
  if (preview) {
    button.title = preview.text;
    button.setAttribute("aria-description", preview.text);
  }
  return button;
}

/**
 * The bar next to the board: the frame's shortcuts, the moves the board does not offer as pieces, and Undo.
 * Until the board has drawn this frame (or without a board) only the shortcuts and Undo are there.
 */
function renderBar(current) {
  const legal = current.legal || [];
  const drawn = board.board && placed.version === current.version;
  const loose = drawn ? legal.filter((entry) => !placed.ids.has(entry[0])) : [];
  replace($("loose"), loose.map(actionButton));
  replace($("shortcuts"), current.shortcuts.map((shortcut) =>
    moveButton(shortcut.text, Boolean(shortcut.final), "shortcut", () => playShortcut(shortcut))));
  const undo = $("undo");
  undo.hidden = current.seat === null || !(current.undo > 0) || current.status !== "playing";
  undo.disabled = !online() || inFlight !== null;
  undo.title = t("Take back your last move (key u)");
}

// ---- the status line and the full list of moves -----------------------------------------------------

/** "Your turn — buy, play…", "Ann is thinking…": who is to do what, from the frame's `decision`. */
function statusText(current) {
  const legal = current.legal || [];
  const acting = toAct(current);
  if (current.status === "finished") return t("Game over");
  if (current.status === "waiting") return t("Waiting for players to take their seats");
  if (legal.length) return t("Your turn — {what}", { what: current.decision.text });
  if (acting === null || acting < 0) return t("Waiting");
  if (acting === current.seat) return t("A bot is playing for you…");
  return t("{player} is thinking…", { player: seatName(acting, current) });
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

function renderTurn(current) {
  const hadFocus = focusedAction();
  const legal = current.legal || [];
  const title = $("turn-title");
  const becameMine = legal.length > 0 && !wasMyTurn;
  wasMyTurn = legal.length > 0;
  title.textContent = statusText(current);
  $("turn").classList.toggle("mine", legal.length > 0);
  $("progress").textContent = current.progress;
  replace($("actions"), legal.map(actionButton));
  $("moves-title").textContent = legal.length ? t("All moves ({n})", { n: legal.length }) : t("All moves");
  $("moves").hidden = !legal.length;
  $("filter-box").hidden = legal.length <= FILTER_FROM;
  if (legal.length <= FILTER_FROM) $("filter").value = "";
  applyFilter();
  renderBar(current);
  renderHint(current);
  if (hadFocus && legal.length) {
    const target = !$("filter-box").hidden ? $("filter") : $("actions").querySelector("button:not([hidden])");
    (target || title).focus();
  } else if (becameMine && document.activeElement === document.body) {
    title.focus({ preventScroll: true });
  }
  if (becameMine) announceTurn(t("Your turn: {game}", { game: current.table.game_name }), statusText(current));
  autoplay(current);
}

/**
 * Plays a decision's only possible move for the seat (Settings can turn it off), saying so in a line. Never
 * a move that cannot be taken back: it would take the last look before the turn passes, and with it the
 * chance to undo the turn's earlier moves. Not right after an undo, which would only play it again.
 */
function autoplay(current) {
  const legal = current.legal || [];
  const only = legal.length === 1 ? legal[0] : null;
  if (!only || isFinal(only) || !settings.autoplay || autoplayHeld) return;
  if (autoplayedAt === current.version || inFlight !== null || !online()) return;
  autoplayedAt = current.version;
  $("autoplayed").textContent = t("Played for you, the only possible move: {move}", { move: only[1] });
  $("autoplayed").hidden = false;
  send({ type: "move", action: only[0] });
}

// ---- the log and what is new --------------------------------------------------------------------

/**
 * Takes the frame's log entries in place of those from `log_from` on (docs/server.md): a socket sends each
 * entry once, and after an undo `log_from` goes back to the first entry taken back. A `log_from` beyond the
 * version whose log is known means a frame was missed: the whole frame is fetched.
 */
function renderLog(current) {
  if (!log.apply(current)) {
    refresh();
    return;
  }
  drawLog(current);
}

function drawLog(current) {
  const list = $("log");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  renderMoves(list, log.moves(), { name: (actor) => seatName(actor, current), isNew: (seq) => since !== null && seq >= since, t });
  if (atBottom) list.scrollTop = list.scrollHeight;
  const lines = log.since(current.seat);
  const box = $("since");
  box.hidden = !lines.length || current.status === "finished";
  $("since-title").textContent = t("Since your last turn");
  replace($("since-lines"), lines.map(({ actor, text }) => el("li", {}, el("strong", {}, `${seatName(actor, current)}: `), text)));
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

/** The page was looked away from and back at: what came meanwhile is what is new. */
function lookedAgain() {
  if (document.visibilityState !== "visible" || !frame) return;
  since = loadSeen(frame.seat);
  drawLog(frame);
  board.refresh();
  rememberSeen(frame);
  setTitle(frame);
}

// ---- the end of the game ------------------------------------------------------------------------

/** The headline: who won, and for a player how they finished. */
function headline(current, outcome) {
  const { winners } = outcome;
  const mine = current.seat;
  if (winners.length === 1) {
    return winners[0] === mine ? t("You win!") : t("{player} wins", { player: seatName(winners[0], current) });
  }
  if (!winners.length) return t("Nobody wins");
  const others = winners.filter((seat) => seat !== mine).map((seat) => seatName(seat, current)).join(", ");
  if (winners.includes(mine)) return t("You share the win with {players}", { players: others });
  return t("{players} share the win", { players: others });
}

/** The final result's tie lines: seats with equal points either share a place or the game's tie-break ordered them. */
function tieLines(current, place) {
  const { scores } = current.result;
  const totals = (scores || []).map((score) => (score || {}).total);
  const lines = [];
  for (const total of new Set(totals)) {
    const seats = totals.map((value, seat) => (value === total ? seat : null)).filter((seat) => seat !== null);
    if (seats.length < 2 || total === undefined) continue;
    const names = seats.map((seat) => seatName(seat, current)).join(", ");
    const shared = new Set(seats.map((seat) => place[seat])).size === 1;
    lines.push(shared
      ? t.n("{players} tied on {n} point and share place {place}.", "{players} tied on {n} points and share place {place}.",
        total, { players: names, place: place[seats[0]] })
      : t("{players} have {points} points each; the tie-break decided: {order}.", {
        players: names, points: total,
        order: [...seats].sort((a, b) => place[a] - place[b])
          .map((seat) => t("{player} in place {place}", { player: seatName(seat, current), place: place[seat] }))
          .join(", "),
      }));
  }
  return lines;
}

function renderScores(current, place) {
  const { scores, headings } = current.result;
  const categories = [];
  for (const score of scores || []) {
    for (const name of Object.keys((score && score.breakdown) || {})) if (!categories.includes(name)) categories.push(name);
  }
  const order = place.map((_, seat) => seat).sort((a, b) => place[a] - place[b] || a - b);
  replace($("scores"),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("Place")), el("th", { scope: "col" }, t("Player")), el("th", { scope: "col" }, t("Points")),
      categories.map((name) => el("th", { scope: "col" }, (headings || {})[name] || name.replaceAll("_", " "))))),
    el("tbody", {}, order.map((seat) => {
      const score = (scores && scores[seat]) || {};
      return el("tr", { "data-seat": seat, class: seat === current.seat ? "mine" : null },
        el("td", {}, String(place[seat])),
        el("th", { scope: "row" }, seatName(seat, current)),
        el("td", {}, score.total ?? ""),
        categories.map((name) => el("td", {}, (score.breakdown || {})[name] ?? "")));
    })));
}

function renderResult(current) {
  const summary = current.table;
  const finished = current.status === "finished";
  const box = $("result");
  const before = box.hidden;
  box.hidden = !current.result;
  if (current.result) {
    const { outcome } = current.result;
    const place = outcome.places;
    $("result-title").textContent = headline(current, outcome);
    $("result-place").textContent = current.seat === null ? ""
      : t("You finished {place} of {count}.", { place: ordinal(place[current.seat]), count: place.length });
    replace($("reasons"), outcome.reasons.map((line) => el("li", {}, line)));
    renderScores(current, place);
    replace($("ties"), tieLines(current, place).map((line) => el("p", {}, line)));
    if (before) $("result-title").focus({ preventScroll: false });
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
  rematch.hidden = !finished || current.seat === null;
  rematch.textContent = summary.rematch ? t("Join the rematch") : t("Rematch");
}

/** The fair shuffle: the commitment from the start, and at the end the seed checked against it, digit for digit. */
function renderFairness(current, raw) {
  $("commitment").textContent = current.table.commitment;
  const title = $("fairness-title");
  if (!current.reveal) {
    title.textContent = t("Fair shuffle");
    replace($("reveal"));
    return;
  }
  const seed = revealedSeed(raw, current.reveal);
  const salt = String(current.reveal.salt);
  replace($("reveal"), t("Seed"), " ", el("code", { id: "seed" }, seed), ", ", t("salt"), " ", el("code", {}, salt), " ",
    el("span", { id: "verified" }, t("(checking the commitment…)")));
  title.textContent = t("Fair shuffle: checking…");
  sha256Hex(`obelisk-seed:${seed}:${salt}`).then((hex) => {
    const node = $("verified");
    if (!node) return;
    const good = `sha256:${hex}` === current.table.commitment;
    node.textContent = good ? t("— matches the commitment published at the start.")
      : t("— does NOT match the commitment published at the start!");
    title.textContent = good ? t("Fair shuffle: checked, the seed matches") : t("Fair shuffle: the seed does NOT match!");
    if (!good) $("fairness").open = true;
  }, () => {
    title.textContent = t("Fair shuffle");
  });
}

// ---- a frame --------------------------------------------------------------------------------------

function setTitle(current) {
  const title = t("Obelisk: {game}", { game: current.table.game_name });
  document.title = (current.legal || []).length ? `${t("(your move)")} ${title}` : title;
}

let helpShown = null;

/** The game's help for the Rules panel and the guide, loaded once per game and language. */
function loadGameHelp(current) {
  const key = `${current.table.game}|${lang}`;
  if (helpShown === key) return;
  helpShown = key;
  loadHelp(current.table.game, lang).then((doc) => {
    renderRules($("rules-body"), doc, current.table.game_name);
    if (current.seat !== null && current.status !== "finished") guide.start(current.table.game, doc);
  });
}

/** Says who reads the chat this page writes in; once the game is over, the players' page fetches the spectators'
 * lines too (its socket sent only the players' while the game ran). */
function renderChat(current, before) {
  let note = t("Only the players read this chat while the game runs.");
  if (current.status === "finished") note = t("The game is over: both chats are shown, the players' and the spectators'.");
  else if (current.seat === null) note = t("You write in the spectators' chat: the players read it only after the game; you read theirs too.");
  $("chat-note").textContent = note;
  chat.showForm();
  if (current.status === "finished" && before && before.status !== "finished") chat.load();
  else chat.render();
}

function render(current, raw) {
  const first = frame === null;
  const before = frame;
  if (inFlight !== null && current.version > inFlight) inFlight = null;
  if (inFlight === null) $("table-main").removeAttribute("aria-busy");
  frame = current;
  const key = seenStoreKey(current.seat);
  if (key !== sinceKey) {
    sinceKey = key;
    since = loadSeen(current.seat);
  }
  setTitle(current);
  $("table-main").dataset.version = String(current.version);
  $("game-name").textContent = `· ${current.table.game_name}`;
  renderSeats(current);
  renderSeatControls(current);
  renderClock(current);
  $("view").textContent = current.text;
  renderTurn(current);
  renderLog(current);
  board.render(current);
  renderChat(current, before);
  renderResult(current);
  renderFairness(current, raw);
  loadGameHelp(current);
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
  const answered = inFlight !== null;
  inFlight = null;
  $("table-main").removeAttribute("aria-busy");
  if (message.code === "bad_token") {
    forgetSeat(tableId);
    token = null;
    if (socket) socket.close();
    return;
  }
  if (REFRESH_AFTER.has(message.code) || answered) refresh();
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
    if (inFlight !== null && message.version > inFlight) showError("");
    accept(message, event.data);
  } else if (message.type === "chat") {
    chat.add(message.lines);
  } else if (message.type === "error") {
    handleError(message);
  }
}

// ---- the connection -----------------------------------------------------------------------------

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
    ws.send(JSON.stringify(lang === "en" ? { type: "hello", token, chat: true } : { type: "hello", token, lang, chat: true }));
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
    inFlight = null;
    $("table-main").removeAttribute("aria-busy");
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
 * The claim names the seat as this browser did in the lobby (else it keeps the creator's name, or none: "Player N").
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

// ---- dialogs and keys -------------------------------------------------------------------------------

/** Whether a key press goes to something the reader types in: shortcuts never fire there. */
function typing(target) {
  return Boolean(target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)));
}

function showKeys() {
  replace($("help-keys"), [
    ["u", t("Take back your last move")],
    ["r", t("Open the rules")],
    ["?", t("Show these shortcuts")],
    ["Esc", t("Close a dialog, a menu or a piece's text")],
    ["Tab", t("Go to the next button, piece or field; Enter or Space uses it")],
  ].map(([key, what]) => [el("dt", {}, el("kbd", {}, key)), el("dd", {}, what)]));
  $("help").showModal();
  $("help-close").focus();
}

/** The Rules panel stands beside the board (not modal: the board stays usable); Escape closes it. */
function showRules() {
  const rules = $("rules");
  if (rules.open) {
    rules.close();
    return;
  }
  rules.show();
  $("rules-close").focus();
}

function openDialog() {
  return [...document.querySelectorAll("dialog")].find((dialog) => dialog.open) || null;
}

/**
 * `u` takes back a move, `r` opens the rules, `?` lists the shortcuts; never while typing or with a
 * modifier, nor while a modal dialog is open (Escape closes it).
 */
function onShortcut(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  const open = openDialog();
  if (event.key === "Escape" && open && open.id === "rules") {
    event.preventDefault();
    open.close();
    $("rules-open").focus();
    return;
  }
  if (typing(event.target)) return;
  if (open && open.id !== "rules") return;
  if (event.key === "?") {
    event.preventDefault();
    showKeys();
  } else if (event.key === "r" || event.key === "R") {
    event.preventDefault();
    showRules();
  } else if (event.key === "u" || event.key === "U") {
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
  $("help-open").addEventListener("click", showKeys);
  $("help-close").addEventListener("click", () => $("help").close());
  $("help").addEventListener("close", () => $("help-open").focus());
  $("rules-open").addEventListener("click", showRules);
  $("rules-close").addEventListener("click", () => {
    $("rules").close();
    $("rules-open").focus();
  });
  const renderSettings = bindSettings($("settings"), $("settings-body"), $("settings-note"),
    () => frame && loadHelp(frame.table.game, lang).then((doc) => guide.start(frame.table.game, doc, true)));
  $("settings-open").addEventListener("click", () => {
    renderSettings();
    $("settings-note").textContent = "";
    $("settings").showModal();
  });
  $("settings-close").addEventListener("click", () => $("settings").close());
  $("settings").addEventListener("close", () => $("settings-open").focus());
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
  log.clear();
  $("log").replaceChildren();
  helpShown = null;
  attempts = 0;
  connect();
}

async function start() {
  loadSettings();
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
