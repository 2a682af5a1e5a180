// The replay of a finished table: step through its record by move or by turn, from any seat's view.
import { api, el, replace, seatLabel, seatName, BoardSlot } from "/static/common.js";
import { t, lang, chooseLanguage, loadMessages, withLanguage } from "/static/i18n.js";
import { Chat } from "/static/chat.js";

const CHANCE = -1;
const parts = window.location.pathname.split("/").filter(Boolean);
const tableId = decodeURIComponent(parts[parts.length - 2] || "");
const $ = (id) => document.getElementById(id);

let shown = null;
/** The step wanted next while a request is out (`undefined`: none): one request at a time, the newest wins. */
let wanted;
let busy = false;
/** The seat whose view is shown: a seat number or "spectator" (from the address, then the selector). */
let viewer = "spectator";
const board = new BoardSlot($("board-box"), $("board"), () => ({
  t, lang, game: shown.table.game, play: async () => false, since: null,
  seatName: (index) => {
    const seat = shown.table.seats.find((s) => s.seat === index);
    return seat ? seatName(seat) : t("Player {n}", { n: index + 1 });
  },
}), () => shown, showError);

/** Both chats of the finished table, the players' and the spectators', as they were written. */
const chat = new Chat(tableId, { lines: $("chat-lines"), muted: $("chat-muted") }, {
  seatName: (index) => actorName(shown ? shown.table.seats : [], index),
});

function showError(message) {
  $("replay-error").textContent = message;
  $("replay-error").hidden = !message;
}

function actorName(seats, index) {
  if (index === CHANCE) return t("chance");
  const seat = seats.find((s) => s.seat === index);
  return seat ? seatName(seat) : t("Player {n}", { n: index + 1 });
}

/** The step and seat asked for in the address (`?seat=…&step=…`), so a position can be linked to. */
function fromAddress() {
  const query = new URLSearchParams(window.location.search);
  const step = query.get("step");
  return { seat: query.get("seat") || "spectator", step: step !== null && /^\d+$/.test(step) ? Number(step) : null };
}

/**
 * Shows the table at `step` (null: the end) from the chosen seat. One request is out at a time (a slider
 * dragged asks for many steps); an answer overtaken by a newer wish is dropped and the newest is asked for.
 */
async function show(step) {
  wanted = step;
  if (busy) return;
  busy = true;
  try {
    while (wanted !== undefined) {
      const query = new URLSearchParams({ seat: viewer });
      if (wanted !== null) query.set("step", String(wanted));
      wanted = undefined;
      try {
        const answer = await api("GET", withLanguage(`/api/tables/${encodeURIComponent(tableId)}/replay?${query}`));
        if (wanted !== undefined) continue;
        showError("");
        render(answer);
      } catch (error) {
        if (wanted !== undefined) continue;
        showError(error.code === "not_finished" ? t("The game is not finished yet: its replay opens at the end.") : error.message);
      }
    }
  } finally {
    busy = false;
  }
}

function renderSeats(current) {
  const select = $("seat");
  if (select.options.length) return;
  replace(select, el("option", { value: "spectator" }, t("Spectator")),
    current.table.seats.map((seat) => el("option", { value: String(seat.seat) }, seatLabel(seat))));
  select.value = viewer;
}

function render(current) {
  shown = current;
  const { step, steps, table } = current;
  renderSeats(current);
  document.title = t("Obelisk: replay of {game}", { game: table.game_name });
  $("game-name").textContent = `· ${table.game_name}`;
  $("step-title").textContent = t("Move {step} of {steps}", { step, steps });
  $("to-act").textContent = step === steps ? t("The game is over.")
    : current.to_act === null ? t("Next: a chance event") : t("Next: {seat} decides", { seat: actorName(table.seats, current.to_act) });
  const slider = $("slider");
  slider.max = String(steps);
  slider.value = String(step);
  $("first").disabled = $("prev").disabled = step === 0;
  $("last").disabled = $("next").disabled = step === steps;
  $("prev-turn").disabled = step === 0;
  $("next-turn").disabled = step === steps;
  $("view").textContent = current.text;
  replace($("log"), current.log.map((entry, index) => el("li", {
    "data-seq": entry.seq, class: index === current.log.length - 1 ? "new" : null,
  }, el("span", { class: "actor" }, `${actorName(table.seats, entry.actor)}: `), entry.text)));
  $("log").scrollTop = $("log").scrollHeight;
  window.history.replaceState(null, "", `${window.location.pathname}?seat=${encodeURIComponent(viewer)}&step=${step}`);
  board.render(current);
}

/** The step before (`back`) or after the current one at which a turn begins; the ends when there is none. */
function turnStep(back) {
  const { step, steps, turns } = shown;
  if (back) return [...turns].reverse().find((start) => start < step) ?? 0;
  return turns.find((start) => start > step) ?? steps;
}

function go(where) {
  if (!shown) return;
  const step = {
    first: 0, last: shown.steps, prev: Math.max(0, shown.step - 1), next: Math.min(shown.steps, shown.step + 1),
    "prev-turn": turnStep(true), "next-turn": turnStep(false),
  }[where];
  if (step !== shown.step) show(step);
}

const KEYS = { ArrowLeft: "prev", ArrowRight: "next", PageUp: "prev-turn", PageDown: "next-turn", Home: "first", End: "last" };

function onKey(event) {
  const target = event.target;
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
  const where = KEYS[event.key];
  if (where) {
    event.preventDefault();
    go(where);
  }
}

function labelControls() {
  const names = {
    first: [t("Start"), t("To the start (Home)")],
    "prev-turn": [t("Previous turn"), t("To the previous turn (Page Up)")],
    prev: [t("Previous move"), t("One move back (←)")],
    next: [t("Next move"), t("One move on (→)")],
    "next-turn": [t("Next turn"), t("To the next turn (Page Down)")],
    last: [t("End"), t("To the end (End)")],
  };
  for (const [id, [text, title]] of Object.entries(names)) {
    $(id).textContent = text;
    $(id).title = title;
    $(id).addEventListener("click", () => go(id));
  }
  $("slider-label").textContent = t("Move");
  $("seat-label").textContent = t("Seen by");
  $("board-title").textContent = t("Board");
  $("view-title").textContent = t("The table as this seat saw it");
  $("log-title").textContent = t("Log");
  $("chat-title").textContent = t("Chat");
  $("back").textContent = t("Back to the table");
  $("back").href = `/table/${encodeURIComponent(tableId)}`;
}

async function start() {
  await loadMessages(chooseLanguage(), ["obelisk"]);
  labelControls();
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  $("seat").addEventListener("change", () => {
    viewer = $("seat").value;
    show(shown ? shown.step : null);
  });
  document.addEventListener("keydown", onKey);
  if (!tableId) {
    showError(t("No table in the address."));
    return;
  }
  const wanted = fromAddress();
  viewer = wanted.seat;
  await show(wanted.step);
  if (shown) chat.load();
}

start();
