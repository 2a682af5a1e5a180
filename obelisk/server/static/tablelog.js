// The table page's log: the entries a seat may know, kept in the order of play, shown one move at a time with
// the chance events it caused folded into it, and the "since your last turn" summary built from them.
import { el, replace } from "/static/common.js";

export const CHANCE = -1;
/** Chance lines (after repeats are counted) shown inline with their move; more are folded away. */
const INLINE_CHANCE = 3;

/**
 * How a log text names its own actor at its start, by the word the game uses and where it counts from:
 * "seat 1 chooses a card" is seat 1 counted from 0, "player 2 chooses a card" and "hráč 2 …" the same seat
 * counted from 1. Only a decision's own text is shortened this way; chance lines keep their words.
 */
const ACTOR_AT_START = [
  { pattern: /^seat (\d+)\b[:,]?\s*/i, base: 0 },
  { pattern: /^player (\d+)\b[:,]?\s*/i, base: 1 },
  { pattern: /^hráč (\d+)\b[:,]?\s*/i, base: 1 },
];

/** A decision's text without a leading mention of its own actor (the log shows the actor once, before it). */
export function withoutActor(text, actor) {
  for (const { pattern, base } of ACTOR_AT_START) {
    const match = pattern.exec(text);
    if (match && Number(match[1]) === actor + base && match[0].length < text.length) return text.slice(match[0].length);
  }
  return text;
}

/** Consecutive equal texts as one with a count: five "seat 1 draws a card" are one line "×5". */
export function counted(texts) {
  const lines = [];
  for (const text of texts) {
    const last = lines[lines.length - 1];
    if (last && last.text === text) last.count += 1;
    else lines.push({ text, count: 1 });
  }
  return lines.map(({ text, count }) => (count > 1 ? `${text} ×${count}` : text));
}

/** The log as this page knows it: entries by seq, replaced from a frame's `log_from` on (docs/server.md). */
export class LogModel {
  constructor() {
    this.entries = [];
    this.version = 0;
  }

  /** Takes a frame's log; false when the frame starts beyond what is known (one was missed: fetch the whole). */
  apply(frame) {
    const from = frame.log_from || 0;
    if (from > this.version) return false;
    this.entries = this.entries.filter((entry) => entry.seq < from).concat(frame.log || []);
    this.version = frame.version;
    return true;
  }

  clear() {
    this.entries = [];
    this.version = 0;
  }

  /**
   * The entries as moves: each decision with the chance events after it (what it caused), and the chance
   * events before the first decision as the set-up.
   */
  moves() {
    const moves = [];
    let current = null;
    for (const entry of this.entries) {
      if (entry.actor === CHANCE) {
        if (!current) {
          current = { actor: CHANCE, decision: null, chance: [], seqs: [] };
          moves.push(current);
        }
        current.chance.push(entry);
      } else {
        current = { actor: entry.actor, decision: entry, chance: [], seqs: [] };
        moves.push(current);
      }
      current.seqs.push(entry.seq);
    }
    return moves;
  }

  /** The seats whose decisions are logged from version `from` up to `to` (chance aside), in the order they moved. */
  actors(from, to) {
    const seats = [];
    // From the end back: a frame asks for the last few entries of a log that may hold thousands.
    for (let i = this.entries.length - 1; i >= 0 && this.entries[i].seq >= from; i -= 1) {
      const entry = this.entries[i];
      if (entry.seq < to && entry.actor !== CHANCE && !seats.includes(entry.actor)) seats.unshift(entry.actor);
    }
    return seats;
  }

  /**
   * What the other seats did since `seat`'s last decision: one line per seat, in the order they played,
   * their decisions' texts with repeats counted. Empty for a spectator or when nobody else moved.
   */
  since(seat) {
    if (seat === null || seat === undefined) return [];
    let start = 0;
    for (let i = this.entries.length - 1; i >= 0; i -= 1) {
      if (this.entries[i].actor === seat) {
        start = i + 1;
        break;
      }
    }
    const bySeat = new Map();
    for (const entry of this.entries.slice(start)) {
      if (entry.actor === CHANCE || entry.actor === seat) continue;
      if (!bySeat.has(entry.actor)) bySeat.set(entry.actor, []);
      bySeat.get(entry.actor).push(withoutActor(entry.text, entry.actor));
    }
    return [...bySeat].map(([actor, texts]) => ({ actor, text: counted(texts).join(" · ") }));
  }
}

/**
 * Draws the moves into the list `node`: the actor once, the decision, then its chance events inline (a few)
 * or folded (many). `name(actor)` words a seat, `isNew(seq)` marks what came since the last look.
 */
export function renderMoves(node, moves, { name, isNew, t }) {
  replace(node, moves.map((move) => {
    const fresh = move.seqs.some(isNew);
    const chance = counted(move.chance.map((entry) => entry.text));
    const head = move.decision
      ? [el("span", { class: "actor" }, `${name(move.actor)}: `), withoutActor(move.decision.text, move.actor)]
      : [el("span", { class: "actor" }, `${t("Set-up")}: `)];
    let folded = null;
    if (chance.length && (chance.length > INLINE_CHANCE || !move.decision)) {
      folded = el("details", { class: "chance" },
        el("summary", {}, t.n("{n} chance event", "{n} chance events", move.chance.length)),
        el("ul", {}, chance.map((line) => el("li", {}, line))));
    } else if (chance.length) {
      folded = el("span", { class: "chance" }, ` → ${chance.join(" · ")}`);
    }
    return el("li", { "data-seq": move.seqs[0], class: fresh ? "new" : null, title: fresh ? t("New since your last look") : null },
      head, folded);
  }));
}
