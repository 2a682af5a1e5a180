// The table chat (docs/server.md "Table chat"): the lines this reader may read, kept by id, drawn as text only
// (never markup), with the seats this page muted hidden behind a count; and the box to write a line in.
import { api, el, replace, errorText, playerName } from "/static/common.js";
import { t } from "/static/i18n.js";

const MUTED_PREFIX = "obelisk.chat-muted.";
const TEXT_LENGTH = 300;

/** The seats muted at `tableId` in this browser (`localStorage`): a set of seat numbers. */
function loadMuted(tableId) {
  try {
    const seats = JSON.parse(localStorage.getItem(MUTED_PREFIX + tableId) || "[]");
    return new Set(Array.isArray(seats) ? seats.filter(Number.isInteger) : []);
  } catch {
    return new Set();
  }
}

function saveMuted(tableId, seats) {
  try {
    if (seats.size) localStorage.setItem(MUTED_PREFIX + tableId, JSON.stringify([...seats]));
    else localStorage.removeItem(MUTED_PREFIX + tableId);
  } catch {
    // Private windows may refuse storage: the muting then lasts as long as the page.
  }
}

/**
 * The chat of one table on a page. `nodes`: `lines` (a list), `muted` (the hidden lines' count, a paragraph)
 * and, where the reader may write, `form`, `text`, `name` (a spectator's), `error`. `seatName(seat)` words a
 * seat as the page does; `token()` is this page's seat token (null: a spectator); `mine()` this page's seat.
 */
export class Chat {
  constructor(tableId, nodes, { seatName, token = () => null, mine = () => null }) {
    this.tableId = tableId;
    this.nodes = nodes;
    this.seatName = seatName;
    this.token = token;
    this.mine = mine;
    this.lines = new Map();
    this.muted = loadMuted(tableId);
    if (nodes.form) nodes.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
  }

  /** Takes lines (a socket's push or an answer), each once whatever how often it comes, and draws them. */
  add(lines) {
    for (const line of lines || []) this.lines.set(line.id, line);
    this.render();
  }

  /** Fetches every line this reader may read now (more than before once the game is over). */
  async load() {
    try {
      const answer = await api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/chat`, undefined, this.token());
      this.add(answer.lines);
    } catch (error) {
      this.showError(errorText(error));
    }
  }

  writer(line) {
    if (line.channel === "players") return line.name || this.seatName(line.seat);
    return t("{name} (spectator)", { name: line.name || t("Spectator") });
  }

  render() {
    const shown = [];
    let hidden = 0;
    for (const line of [...this.lines.values()].sort((a, b) => a.id - b.id)) {
      if (line.seat !== null && this.muted.has(line.seat)) {
        hidden += 1;
        continue;
      }
      const other = line.seat !== null && line.seat !== this.mine();
      const writer = this.writer(line);
      shown.push(el("li", {}, el("span", { class: "actor" }, `${writer}: `), line.text, other
        ? el("button", { type: "button", class: "small mute", "aria-label": t("Mute {name}", { name: writer }),
          on: { click: () => this.mute(line.seat, true) } }, t("Mute"))
        : null));
    }
    const list = this.nodes.lines;
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    replace(list, shown);
    if (atEnd) list.scrollTop = list.scrollHeight;
    const count = this.nodes.muted;
    count.hidden = hidden === 0;
    replace(count, hidden ? [t.n("{n} muted line", "{n} muted lines", hidden), " ",
      el("button", { type: "button", class: "small", on: { click: () => this.unmuteAll() } }, t("Show them again"))] : []);
  }

  mute(seat, on) {
    if (on) this.muted.add(seat);
    else this.muted.delete(seat);
    saveMuted(this.tableId, this.muted);
    this.render();
  }

  unmuteAll() {
    this.muted.clear();
    saveMuted(this.tableId, this.muted);
    this.render();
  }

  /** The name field is a spectator's only: a player's lines carry their seat's name. */
  showForm() {
    const { name } = this.nodes;
    if (!name) return;
    const spectator = this.token() === null && this.mine() === null;
    name.closest(".field").hidden = !spectator;
    if (spectator && !name.value) name.value = playerName();
  }

  showError(message) {
    if (!this.nodes.error) return;
    this.nodes.error.textContent = message;
    this.nodes.error.hidden = !message;
  }

  /** Sends the box's line; the line comes back over the socket (and in the answer, for a page offline). */
  async send() {
    const { text, name, form } = this.nodes;
    const body = { text: text.value.slice(0, TEXT_LENGTH) };
    const token = this.token();
    if (token === null && this.mine() === null && name && name.value.trim()) body.name = name.value.trim();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const answer = await api("POST", `/api/tables/${encodeURIComponent(this.tableId)}/chat`, body, token);
      text.value = "";
      this.showError("");
      this.add([answer.line]);
    } catch (error) {
      this.showError(error.code === "chat_too_fast"
        ? t("You are writing too fast; you may write again in {seconds} s.", { seconds: error.retryAfter || 1 })
        : errorText(error));
    } finally {
      button.disabled = false;
      text.focus();
    }
  }
}
