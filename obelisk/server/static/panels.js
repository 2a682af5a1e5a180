// The table page's panels: the player's settings (kept in this browser), turn notifications and their sound,
// the Rules panel and the first-game guide, both from the game's help (`GET /api/games/{id}/help`).
import { el, replace } from "/static/common.js";
import { t } from "/static/i18n.js";
import { describeEntry } from "/static/boardkit.js";

const SETTINGS_KEY = "obelisk.settings";
const GUIDE_KEY = "obelisk.guide.";

/** What a player chose in Settings, remembered in `localStorage` for every table. */
export const settings = {
  confirmFinal: true,
  autoplay: true,
  notify: false,
  sound: false,
};

export function loadSettings() {
  try {
    const stored = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}");
    for (const name of Object.keys(settings)) if (typeof stored[name] === "boolean") settings[name] = stored[name];
  } catch {
    // A damaged entry keeps the defaults; the next change writes a good one.
  }
}

function saveSettings() {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Private windows may refuse storage: the choice lasts for this page.
  }
}

// ---- the sound and the notification of a turn ---------------------------------------------------

let audio = null;

/** A short two-note chime made in the browser (Web Audio): nothing is fetched. */
function chime() {
  if (!audio) return;
  if (audio.state === "suspended") audio.resume();
  const start = audio.currentTime + 0.02;
  [660, 880].forEach((pitch, i) => {
    const tone = audio.createOscillator();
    const level = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = pitch;
    level.gain.setValueAtTime(0.0001, start + i * 0.16);
    level.gain.exponentialRampToValueAtTime(0.2, start + i * 0.16 + 0.02);
    level.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.16 + 0.3);
    tone.connect(level).connect(audio.destination);
    tone.start(start + i * 0.16);
    tone.stop(start + i * 0.16 + 0.32);
  });
}

/** Browsers let a page make sound only after a click: the audio context is made on one. */
function wakeAudio() {
  if (!settings.sound) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
  if (audio && audio.state === "suspended") audio.resume();
}

/** Tells the player it is their turn while the tab is hidden: a notification and a chime, as chosen. */
export function announceTurn(title, body) {
  if (document.visibilityState === "visible") return;
  if (settings.sound) chime();
  if (settings.notify && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification(title, { body, tag: "obelisk-turn" });
    note.addEventListener("click", () => {
      window.focus();
      note.close();
    });
  }
}

// ---- the Settings dialog --------------------------------------------------------------------------

/** The checkboxes of Settings; `onGuide` shows the first-game guide again. */
export function bindSettings(dialog, body, note, onGuide) {
  document.addEventListener("pointerdown", wakeAudio, { capture: true });
  document.addEventListener("keydown", wakeAudio, { capture: true });
  const box = (name, label, hint, change) => {
    const input = el("input", { type: "checkbox", id: `setting-${name}`, checked: settings[name] });
    input.addEventListener("change", () => change(input));
    return el("p", { class: "setting" }, input, " ", el("label", { for: `setting-${name}` }, label),
      hint ? el("small", { class: "muted" }, hint) : null);
  };
  const plain = (name) => (input) => {
    settings[name] = input.checked;
    saveSettings();
  };
  const render = () => replace(body,
    box("confirmFinal", t("Confirm moves that cannot be taken back"),
      t("Before such a move is sent, a dialog asks once."), plain("confirmFinal")),
    box("autoplay", t("Play my only choice for me"),
      t("When a decision has a single possible move, it is played and said so; never a move that cannot be taken back."),
      plain("autoplay")),
    box("notify", t("Notify me when it is my turn"), t("A browser notification while this tab is in the background."),
      async (input) => {
        note.textContent = "";
        if (!input.checked) {
          settings.notify = false;
          saveSettings();
          return;
        }
        if (!("Notification" in window)) {
          input.checked = false;
          note.textContent = t("This browser cannot show notifications.");
          return;
        }
        const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
        settings.notify = answer === "granted";
        input.checked = settings.notify;
        if (!settings.notify) note.textContent = t("The browser did not allow notifications for this page.");
        saveSettings();
      }),
    box("sound", t("Play a sound when it is my turn"), t("A short chime while this tab is in the background."),
      (input) => {
        settings.sound = input.checked;
        saveSettings();
        if (input.checked) {
          wakeAudio();
          chime();
        }
      }),
    el("p", {}, el("button", { type: "button", class: "small", on: { click: () => { dialog.close(); onGuide(); } } },
      t("Show the first-game guide again"))));
  return render;
}

// ---- the Rules panel ------------------------------------------------------------------------------

/** Splits a summary into paragraphs (its blank lines). */
function paragraphs(text) {
  return String(text || "").split(/\n\s*\n/).map((part) => part.trim()).filter(Boolean)
    .map((part) => el("p", {}, part));
}

/** Fills the Rules panel from the game's help: the rules in short, the first-game guide, every component. */
export function renderRules(body, doc, gameName) {
  if (!doc) {
    replace(body, el("p", {}, t("The rules could not be loaded.")));
    return;
  }
  const kinds = new Map();
  for (const entry of doc.entries || []) {
    if (!kinds.has(entry.kind)) kinds.set(entry.kind, []);
    kinds.get(entry.kind).push(entry);
  }
  const filter = el("input", { type: "search", id: "rules-filter", autocomplete: "off" });
  const groups = [...kinds].map(([kind, entries]) => el("section", { class: "rules-kind" },
    el("h4", {}, kind),
    el("dl", {}, entries.map((entry) => {
      const about = describeEntry(entry);
      return el("div", { class: "rules-entry", "data-name": entry.name.toLowerCase() },
        el("dt", {}, about.title), el("dd", {}, about.numbers ? el("span", { class: "muted" }, about.numbers) : null,
          about.numbers ? el("br") : null, about.text));
    }))));
  filter.addEventListener("input", () => {
    const words = filter.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    for (const group of groups) {
      let shown = 0;
      for (const entry of group.querySelectorAll(".rules-entry")) {
        const text = entry.textContent.toLowerCase();
        entry.hidden = !words.every((word) => text.includes(word));
        shown += entry.hidden ? 0 : 1;
      }
      group.hidden = shown === 0;
    }
  });
  const { guide } = doc;
  replace(body,
    el("h3", {}, t("{game} in short", { game: gameName })),
    paragraphs(doc.summary),
    guide.length ? [el("h3", {}, t("Your first game")),
      el("ol", {}, guide.map((step) => el("li", {}, step)))] : null,
    el("h3", {}, t("Every component")),
    el("p", { class: "field" }, el("label", { for: "rules-filter" }, t("Find a component")), filter),
    groups);
}

// ---- the first-game guide -------------------------------------------------------------------------

/** The first-game guide: the help's steps one at a time until dismissed, which this browser remembers per game. */
export class Guide {
  constructor(parts) {
    Object.assign(this, parts, { steps: [], at: 0, game: null });
    this.back.addEventListener("click", () => this.go(this.at - 1));
    this.next.addEventListener("click", () => this.go(this.at + 1));
    this.done.addEventListener("click", () => this.dismiss());
  }

  /** Shows the guide of `game` unless it was dismissed before (`force`: show it anyway, from the start). */
  start(game, doc, force = false) {
    this.game = game;
    this.steps = doc ? doc.guide : [];
    let dismissed = false;
    try {
      dismissed = localStorage.getItem(GUIDE_KEY + game) === "done";
    } catch {
      dismissed = false;
    }
    this.box.hidden = !this.steps.length || (dismissed && !force);
    if (!this.box.hidden) this.go(0);
  }

  go(index) {
    this.at = Math.max(0, Math.min(index, this.steps.length - 1));
    const step = this.steps[this.at];
    this.title.textContent = t("First game: step {n} of {count}", { n: this.at + 1, count: this.steps.length });
    this.step.textContent = step;
    this.back.disabled = this.at === 0;
    this.next.hidden = this.at === this.steps.length - 1;
  }

  dismiss() {
    this.box.hidden = true;
    try {
      localStorage.setItem(GUIDE_KEY + this.game, "done");
    } catch {
      // Without storage the guide comes back on the next visit.
    }
  }
}
