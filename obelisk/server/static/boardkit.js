// The board kit: everything a game's board (obelisk/games/<id>/web/board.js) shares with the others, so that a
// board only draws. docs/web.md "Boards" is its reference. A board makes one kit when it is mounted and, for
// every frame, draws between `kit.begin(frame)` and `kit.end()`, handing the kit the nodes it drew:
//
//   kit.target(node, actions, opts)  a piece the seat may play: marks, clicks, keys, a menu when several
//   kit.info(node, about)            a piece's text on tap, click, long press, hover or focus
//   kit.item(node, key, sig)         a piece whose change since the last look is highlighted, with who made it
//   kit.reachable(actions)           actions the board offers another way (the page leaves them off its bar)
//
// The kit never learns anything a board did not draw: it sees only the frame the page gave the board.

/** How long what changed stays highlighted. */
export const FADE_MS = 4000;
/** A press held this long on a piece shows its text instead of playing it (phones have no hover). */
export const LONG_PRESS_MS = 450;
/** A press that moves this far is a scroll, not a long press. */
const PRESS_SLOP_PX = 10;
/** Where the menu and the text of a piece go: below it, or above when the screen has no room below. */
const GAP_PX = 6;

/** The help key part of a component's English name (the data files' `name_key`): "Box of Food" → "box_of_food". */
export function nameKey(name) {
  return String(name).toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
}

/** Splits `content` into lines of at most `width` characters (a long word gets its own line):
 * SVG text does not wrap, so the boards that draw words break them with this. */
export function wrap(content, width) {
  const lines = [];
  let line = "";
  for (const word of String(content).split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Whether a legal action (`[id, label, range, index, final]`) can no longer be taken back once played. */
export function isFinal(action) {
  return Boolean(action && action[4] === true);
}

/** The rules engine's preview of action id `id` in `frame` (`{actions, text, marks}`), or null when it has none. */
export function previewOf(frame, id) {
  return ((frame && frame.previews) || []).find((preview) => preview.actions.includes(id)) || null;
}

const helpCache = new Map();

/**
 * A game's help (`GET /api/games/{id}/help?lang=`: summary, entries, guide) in `lang`, fetched once per page
 * and shared by the board and the page's Rules panel; resolves to null when it cannot be had.
 */
export function loadHelp(game, lang) {
  const key = `${game}|${lang}`;
  if (!helpCache.has(key)) {
    const query = lang && lang !== "en" ? `?lang=${encodeURIComponent(lang)}` : "";
    helpCache.set(key, fetch(`/api/games/${encodeURIComponent(game)}/help${query}`, { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null), () => null));
  }
  return helpCache.get(key);
}

/** A help entry as the page shows it: its name, its numbers in one line, its text. */
export function describeEntry(entry) {
  const numbers = Object.entries(entry.numbers || {}).map(([label, value]) => `${label} ${value}`).join(" · ");
  return { title: entry.name, numbers, text: entry.text || "" };
}

function html(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** The texts of a piece (`about`) as elements: title, numbers, text. */
function aboutNodes(about) {
  return [
    about.title ? html("strong", { class: "kit-about-title" }, about.title) : null,
    about.numbers ? html("span", { class: "kit-about-numbers" }, about.numbers) : null,
    about.text ? html("span", { class: "kit-about-text" }, about.text) : null,
  ];
}

let confirmBox = null;

/**
 * Asks once, in a modal dialog, before a move that cannot be taken back is sent: resolves true to play it.
 * `label` is the move's label, `about` the piece it concerns (`{title, numbers, text}`, optional).
 */
export function confirmFinal(t, label, about = null, preview = "") {
  if (!confirmBox) {
    confirmBox = html("dialog", { class: "kit-confirm", "aria-labelledby": "kit-confirm-title" });
    document.body.append(confirmBox);
  }
  const dialog = confirmBox;
  return new Promise((resolve) => {
    const play = html("button", { type: "button", class: "primary", value: "play" }, label);
    const cancel = html("button", { type: "button", value: "cancel" }, t("Cancel"));
    dialog.replaceChildren(
      html("h2", { id: "kit-confirm-title" }, t("This move cannot be taken back")),
      html("p", {}, t("Once played, {move} cannot be undone.", { move: label })),
      preview ? html("p", { class: "kit-preview-text" }, preview) : null,
      about ? html("p", { class: "kit-about" }, aboutNodes(about)) : null,
      html("p", { class: "actions" }, play, cancel),
    );
    let answered = false;
    const answer = (yes) => {
      if (answered) return;
      answered = true;
      if (dialog.open) dialog.close();
      resolve(yes);
    };
    play.addEventListener("click", () => answer(true));
    cancel.addEventListener("click", () => answer(false));
    dialog.addEventListener("close", () => answer(false), { once: true });
    dialog.showModal();
    play.focus();
  });
}

/** Takes a change's highlight and its "changed by" description off `node`. */
function unmark(node) {
  node.classList.remove("kit-changed");
  if (node.dataset.kitBy && node.getAttribute("aria-description") === node.dataset.kitBy) node.removeAttribute("aria-description");
  delete node.dataset.kitBy;
}

/**
 * Makes the kit of a board mounted on `root` with the page's `ctx` (docs/web.md "Boards").
 * `options.preview(action, marks)` (optional) returns the nodes an action concerns: `marks` are the names the
 * rules engine's preview of it gives (the frame's `previews`: squares, cards). They are outlined and the
 * preview's words shown while a target or a menu entry is pointed at or focused, and on a first tap: a phone
 * has no hover, so a tap on a piece with a preview selects it and a second tap plays it.
 */
export function createKit(root, ctx, options = {}) {
  return new Kit(root, ctx, options);
}

class Kit {
  constructor(root, ctx, options) {
    this.root = root;
    this.ctx = ctx;
    this.t = ctx.t;
    this.previewOf = options.preview || null;
    this.frame = null;
    this.legalIds = new Set();
    this.targets = new Map();
    this.infos = new WeakMap();
    this.infoNodes = [];
    this.placed = new Set();
    this.lockedNow = false;
    this.sigs = new Map();
    this.seenSigs = null;
    this.fresh = false;
    this.shownVersion = null;
    this.changedAt = new Map();
    this.changedBy = new Map();
    this.changers = [];
    this.seenVersion = null;
    this.badges = new Map();
    this.badged = [];
    this.fades = new WeakMap();
    this.focusKey = null;
    this.menuState = null;
    this.pinned = null;
    this.press = null;
    this.swallowClick = false;
    this.previewed = [];
    this.previews = new Map();
    this.selected = null;
    this.touch = false;
    this.menuNote = null;
    this.resizeCallbacks = [];
    this.observers = [];
    this.lastWidth = 0;
    root.classList.add("kit-root");
    this.menu = html("div", { class: "kit-menu", role: "menu", hidden: true });
    this.popover = html("div", { class: "kit-popover", role: "status", hidden: true });
    root.append(this.menu, this.popover);
    this.help = new Map();
    this.ready = loadHelp(ctx.game, ctx.lang).then((doc) => {
      for (const entry of (doc && doc.entries) || []) this.help.set(entry.key, entry);
      return doc;
    });
    this.listen();
    this.resizer = new ResizeObserver(() => {
      const width = this.width();
      if (width === this.lastWidth) return;
      this.lastWidth = width;
      for (const callback of this.resizeCallbacks) callback(width);
    });
    this.resizer.observe(root);
  }

  // ---- help, seats, sizes ------------------------------------------------------------------------

  /** The help entry `key` in the page's language (null until the help has come, or when there is none). */
  entry(key) {
    return this.help.get(key) || null;
  }

  /** How the page calls seat `seat`: the player's name, else "Player N" (counted from 1). */
  seatName(seat) {
    return this.ctx.seatName ? this.ctx.seatName(seat) : this.t("Player {n}", { n: seat + 1 });
  }

  /** The width the board has, in CSS pixels. */
  width() {
    return Math.floor(this.root.clientWidth || 0);
  }

  /**
   * The width to lay a drawing out in (its viewBox units) and the scale it is shown at, never below 1 so that
   * a text of 11 units is never smaller than 11 CSS pixels: the board's whole width up to `ideal` units, then
   * scaled up to fill the rest.
   */
  fit(ideal, least = 0) {
    const width = Math.max(this.width(), least) || ideal;
    if (width <= ideal) return { width, scale: 1 };
    return { width: ideal, scale: width / ideal };
  }

  /**
   * Keeps the texts of a drawing shown at a fixed viewBox readable: its CSS variable `--kit-scale` is the CSS
   * pixels per drawing unit, so a board's style can ask for `font-size: max(14px, calc(11px / var(--kit-scale)))`.
   */
  keepReadable(drawing) {
    const observer = new ResizeObserver(() => {
      const box = drawing.viewBox && drawing.viewBox.baseVal;
      if (box && box.width && drawing.clientWidth) drawing.style.setProperty("--kit-scale", String(drawing.clientWidth / box.width));
    });
    observer.observe(drawing);
    this.observers.push(observer);
  }

  /** Calls `callback(width)` whenever the board's width changes (a board lays itself out again). */
  onResize(callback) {
    this.resizeCallbacks.push(callback);
  }

  // ---- a draw pass -------------------------------------------------------------------------------

  /** Starts drawing `frame`: forgets the previous pass's targets, remembers what had the focus. */
  begin(frame) {
    this.frame = frame;
    this.legalIds = new Set((frame.legal || []).map((action) => action[0]));
    this.previews = new Map((frame.previews || []).flatMap((preview) => preview.actions.map((id) => [id, preview])));
    const active = document.activeElement;
    const focused = active && this.root.contains(active) ? active.closest("[data-kit-target]") : null;
    this.focusKey = focused && this.targets.has(focused) ? this.targets.get(focused).key : null;
    this.menuFocus = this.menu.contains(active) ? active.dataset.kitAction || "cancel" : null;
    for (const node of this.targets.keys()) this.untarget(node);
    this.targets = new Map();
    this.infoNodes = [];
    this.placed = new Set();
    this.lock(Boolean(this.ctx.busy && this.ctx.busy()));
    const visible = document.visibilityState === "visible";
    this.fresh = visible && frame.version !== this.shownVersion;
    if (this.fresh) this.shownVersion = frame.version;
    this.changers = this.fresh ? this.actorsSinceSeen(frame) : [];
    this.badged = [];
    this.sigs = new Map();
    this.hidePopover(false);
    this.closeMenu(false, true);
    this.showPreview(null);
    this.selected = null;
  }

  /**
   * Makes `node` a piece the seat may play: `actions` are legal entries about it. One plays at once (after a
   * confirmation when it cannot be taken back and the player asked for one), several open a menu of their
   * labels. `opts.key` names the piece across frames (focus and an open menu come back to it), `opts.info`
   * is its text (as `info`), `opts.title` names it in the menu, `opts.preview` the action previewed and
   * `opts.icon(action)` a small picture put before an action's label in the menu.
   */
  target(node, actions, opts = {}) {
    const playable = (actions || []).filter((action) => this.legalIds.has(action[0]));
    if (!playable.length) return node;
    const key = String(opts.key ?? playable.map((a) => a[1]).join(" / "));
    const about = opts.info !== undefined ? opts.info : null;
    if (about !== null) this.info(node, about);
    const title = opts.title || (about !== null && this.resolve(about) ? this.resolve(about).title : "");
    const entry = { key, actions: playable, title, icon: opts.icon || null,
      preview: opts.preview || (playable.length === 1 ? playable[0] : null) };
    this.targets.set(node, entry);
    for (const action of playable) this.placed.add(action[0]);
    const labels = playable.map((action) => (isFinal(action) ? this.t("{move} (cannot be taken back)", { move: action[1] }) : action[1]));
    node.setAttribute("data-kit-target", key);
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-label", playable.length === 1 ? labels[0] : `${title ? `${title}: ` : ""}${labels.join(" / ")}`);
    if (playable.length > 1) node.setAttribute("aria-haspopup", "menu");
    else node.removeAttribute("aria-haspopup");
    node.classList.add("kit-target");
    node.classList.toggle("kit-final", playable.some(isFinal));
    this.markLocked(node);
    return node;
  }

  /** Leaves a node of the previous pass inert (a board may keep nodes from frame to frame). */
  untarget(node) {
    for (const name of ["data-kit-target", "role", "tabindex", "aria-label", "aria-haspopup", "aria-disabled"]) {
      node.removeAttribute(name);
    }
    node.classList.remove("kit-target", "kit-final");
  }

  /**
   * Gives `node` a text shown next to it on tap or click (a playable piece: long press or right click), on
   * hover and on focus: `about` is a help key (`"card:urn"`), `{title, numbers, text}`, or a function
   * returning one (worked out only when shown).
   */
  info(node, about) {
    if (about === null || about === undefined) return node;
    this.infos.set(node, about);
    node.setAttribute("data-kit-info", "");
    this.infoNodes.push(node);
    return node;
  }

  /**
   * Records that `node` shows the thing `key` looking like `sig`: what changed since the last look is highlighted,
   * and when other players moved meanwhile, named with them (`changedBy`).
   */
  item(node, key, sig) {
    const value = typeof sig === "string" ? sig : JSON.stringify(sig);
    this.sigs.set(key, value);
    if (this.fresh && this.seenSigs && this.seenSigs.get(key) !== value) {
      this.changedAt.set(key, performance.now());
      this.changedBy.set(key, this.changers);
    }
    this.mark(node, key);
    return node;
  }

  /**
   * The seats whose decisions came between the frame last looked at and `frame` (the page's log, `ctx.actors`),
   * when some other seat than the page's own is among them: a change since then may be theirs. Else none.
   */
  actorsSinceSeen(frame) {
    if (this.seenVersion === null || !this.ctx.actors || frame.version <= this.seenVersion) return [];
    const actors = this.ctx.actors(this.seenVersion, frame.version);
    return actors.some((seat) => seat !== frame.seat) ? actors : [];
  }

  /** Who may have changed the thing `key` since the last look, in words ("Player 2, you"), or "" when nobody else. */
  changedByText(key) {
    const seats = this.changed(key) ? this.changedBy.get(key) || [] : [];
    const mine = this.frame ? this.frame.seat : null;
    const names = seats.filter((seat) => seat !== mine).map((seat) => this.seatName(seat));
    if (!names.length) return "";
    if (seats.includes(mine)) names.push(this.t("you"));
    return names.join(", ");
  }

  /** Whether the thing `key` changed less than FADE_MS ago (a board may show it its own way). */
  changed(key) {
    const at = this.changedAt.get(key);
    return at !== undefined && performance.now() - at < FADE_MS;
  }

  /**
   * Highlights `node` if the thing `key` changed recently, the fade already under way after a redraw, and names
   * who made the change. The highlight is taken off when its time is up even if nothing is drawn again (with
   * reduced motion it is a still mark, not a fading animation).
   */
  mark(node, key) {
    const at = this.changedAt.get(key);
    const age = at === undefined ? FADE_MS : performance.now() - at;
    if (age >= FADE_MS) {
      this.changedAt.delete(key);
      this.changedBy.delete(key);
      unmark(node);
      return;
    }
    const who = this.changedByText(key);
    if (who) {
      const said = this.t("Changed by {players}", { players: who });
      node.setAttribute("aria-description", said);
      node.dataset.kitBy = said;
      this.badged.push({ node, key, who, said });
    }
    clearTimeout(this.fades.get(node));
    this.fades.set(node, setTimeout(() => {
      if (!this.changed(key)) unmark(node);
    }, FADE_MS - age + 50));
    if (node.classList.contains("kit-changed") && node.dataset.kitChanged === String(at)) return;
    // A node the board keeps from frame to frame starts its fade again for a new change.
    node.classList.remove("kit-changed");
    void node.getBoundingClientRect();
    node.dataset.kitChanged = String(at);
    node.classList.add("kit-changed");
    node.style.animationDelay = `${-Math.round(age)}ms`;
  }

  /** Actions the board offers without a target of their own now (e.g. reached by turning a card first). */
  reachable(actions) {
    for (const action of actions) this.placed.add(action[0]);
  }

  /** Ends a draw pass: tells the page which actions the board offers, gives back the focus and an open menu. */
  end() {
    if (document.visibilityState === "visible") {
      this.seenSigs = this.sigs;
      if (this.frame) this.seenVersion = this.frame.version;
    }
    this.placeBadges();
    if (this.ctx.placed) this.ctx.placed(new Set(this.placed), this.frame ? this.frame.version : null);
    const byKey = new Map([...this.targets].map(([node, entry]) => [entry.key, node]));
    if (this.menuState) {
      const node = byKey.get(this.menuState.key);
      const entry = node && this.targets.get(node);
      const same = entry && entry.actions.map((a) => a[0]).join() === this.menuState.ids;
      if (same) this.openMenu(node, entry, this.menuFocus);
      else this.menuState = null;
    }
    if (this.menu.hidden && this.focusKey !== null) {
      const again = byKey.get(this.focusKey) || byKey.values().next().value;
      if (again) again.focus({ preventScroll: true });
    }
    if (this.pinned) {
      const node = this.infoNodes.find((n) => this.identity(n) === this.pinned);
      if (node) this.showPopover(node, true);
      else this.pinned = null;
    }
  }

  /**
   * Puts a small label with who made it over each piece that changed since the last look, where other
   * players moved meanwhile; each goes with the piece's highlight.
   */
  placeBadges() {
    const shown = [];
    for (const { node, key, who, said } of this.badged) {
      if (!node.isConnected) continue;
      let badge = this.badges.get(key);
      if (!badge) {
        badge = { node: html("span", { class: "kit-by" }), timer: null };
        this.root.append(badge.node);
        this.badges.set(key, badge);
      }
      badge.node.textContent = who;
      badge.node.title = said;
      badge.node.hidden = false;
      clearTimeout(badge.timer);
      badge.timer = setTimeout(() => this.dropBadge(key), FADE_MS - (performance.now() - this.changedAt.get(key)) + 50);
      shown.push({ key, node, badge });
    }
    const kept = new Set(shown.map(({ key }) => key));
    for (const key of [...this.badges.keys()]) if (!kept.has(key)) this.dropBadge(key);
    if (!shown.length) return;
    // Every size read first and every position written after: one layout, however many labels. A label sits
    // across the middle of its piece's top edge; a piece too small to carry one without hiding what it says,
    // or one whose label would cover another's, keeps only its highlight (its description still names them).
    const area = this.root.getBoundingClientRect();
    const spots = shown.map(({ node, badge }) => [node.getBoundingClientRect(), badge.node.offsetWidth, badge.node.offsetHeight]);
    const placed = [];
    shown.forEach(({ badge }, i) => {
      const [spot, width, height] = spots[i];
      const left = Math.round(Math.max(0, Math.min(spot.left - area.left + (spot.width - width) / 2, area.width - width)));
      const top = Math.round(Math.max(0, spot.top - area.top - height / 2));
      const box = { left, top, right: left + width, bottom: top + height };
      const covers = placed.some((other) => box.left < other.right && other.left < box.right
        && box.top < other.bottom && other.top < box.bottom);
      badge.node.hidden = spot.height < 2 * height || covers;
      if (badge.node.hidden) return;
      placed.push(box);
      badge.node.style.left = `${left}px`;
      badge.node.style.top = `${top}px`;
    });
  }

  dropBadge(key) {
    const badge = this.badges.get(key);
    if (!badge) return;
    clearTimeout(badge.timer);
    badge.node.remove();
    this.badges.delete(key);
  }

  // ---- playing -----------------------------------------------------------------------------------

  /** Whether a move was sent from this frame (targets are inert until the next frame). */
  get locked() {
    return this.lockedNow;
  }

  lock(on) {
    this.lockedNow = on;
    if (on) this.root.setAttribute("aria-busy", "true");
    else this.root.removeAttribute("aria-busy");
    for (const node of this.targets.keys()) this.markLocked(node);
  }

  markLocked(node) {
    if (this.lockedNow) node.setAttribute("aria-disabled", "true");
    else node.removeAttribute("aria-disabled");
  }

  /** Plays `action` of the piece `node` (through the page, which confirms a final move and sends it). */
  async play(action, node) {
    if (this.lockedNow) return;
    this.closeMenu(false);
    this.hidePopover(true);
    this.lock(true);
    const about = node ? this.aboutOf(node) : null;
    this.selected = null;
    const sent = await this.ctx.play(action[0], about);
    if (!sent) {
      this.lock(false);
      if (node && node.isConnected) node.focus({ preventScroll: true });
    }
  }

  activate(node) {
    const entry = this.targets.get(node);
    if (!entry || this.lockedNow) return;
    if (entry.actions.length === 1) this.play(entry.actions[0], node);
    else this.openMenu(node, entry, null);
  }

  /** The engine's words for `action` (a legal entry), or "" when it has no preview. */
  previewText(action) {
    const preview = action ? this.previews.get(action[0]) : null;
    return preview ? preview.text : "";
  }

  /**
   * A tap (no hover) on a piece whose move has a preview: the first selects it, outlining what the move
   * concerns and showing the engine's words; a second tap on it plays. True when this tap only selected.
   */
  selectFirst(node) {
    const entry = this.targets.get(node);
    if (!entry || entry.actions.length !== 1 || !this.previewText(entry.actions[0])) return false;
    if (this.selected === entry.key) return false;
    this.selected = entry.key;
    this.showPreview(entry.actions[0]);
    this.showPopover(node, true);
    return true;
  }

  // ---- the menu ----------------------------------------------------------------------------------

  openMenu(node, entry, focusId) {
    this.menuState = { key: entry.key, ids: entry.actions.map((a) => a[0]).join(), node };
    const about = this.aboutOf(node);
    const items = entry.actions.map((action) => {
      const button = html("button", { type: "button", role: "menuitem", "data-kit-action": String(action[0]),
        class: isFinal(action) ? "kit-final" : null }, entry.icon ? entry.icon(action) : null, action[1]);
      if (isFinal(action)) {
        button.setAttribute("aria-label", this.t("{move} (cannot be taken back)", { move: action[1] }));
        button.append(html("span", { class: "kit-final-mark", "aria-hidden": "true" }, " ⚠"));
      }
      button.addEventListener("click", () => this.play(action, node));
      button.addEventListener("pointerenter", () => this.showPreview(action));
      button.addEventListener("focus", () => this.showPreview(action));
      const words = this.previewText(action);
      if (words) button.setAttribute("aria-description", words);
      return button;
    });
    this.menuNote = html("p", { class: "kit-preview-text", role: "status", hidden: true });
    const cancel = html("button", { type: "button", role: "menuitem", class: "kit-cancel", "data-kit-action": "cancel" },
      this.t("Cancel"));
    cancel.addEventListener("click", () => this.closeMenu(true));
    const head = about ? html("div", { class: "kit-about", role: "presentation" }, aboutNodes(about)) : null;
    this.menu.replaceChildren(...[head, this.menuNote, ...items, cancel].filter(Boolean));
    this.menu.setAttribute("aria-label", entry.title || this.t("Moves"));
    this.menu.hidden = false;
    this.place(this.menu, node);
    const wanted = focusId ? this.menu.querySelector(`[data-kit-action="${focusId}"]`) : null;
    (wanted || items[0] || cancel).focus({ preventScroll: true });
  }

  closeMenu(refocus, keep = false) {
    const state = this.menuState;
    this.menu.hidden = true;
    this.menu.replaceChildren();
    this.menuNote = null;
    if (!keep) this.menuState = null;
    this.showPreview(null);
    if (refocus && state && state.node.isConnected) state.node.focus({ preventScroll: true });
  }

  menuKeys(event) {
    const items = [...this.menu.querySelectorAll("[role=menuitem]")];
    const at = items.indexOf(document.activeElement);
    if (event.key === "Escape") {
      event.preventDefault();
      this.closeMenu(true);
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      items[(at + step + items.length) % items.length].focus();
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      items[event.key === "Home" ? 0 : items.length - 1].focus();
    }
  }

  // ---- a piece's text ------------------------------------------------------------------------------

  resolve(about) {
    if (typeof about === "function") return this.resolve(about());
    if (typeof about === "string") {
      const entry = this.entry(about);
      return entry ? describeEntry(entry) : null;
    }
    return about || null;
  }

  aboutOf(node) {
    return this.infos.has(node) ? this.resolve(this.infos.get(node)) : null;
  }

  identity(node) {
    const target = this.targets.get(node);
    if (target) return `target:${target.key}`;
    const about = this.infos.get(node);
    if (typeof about === "string") return `help:${about}`;
    const resolved = this.resolve(about);
    return resolved ? `about:${resolved.title}|${resolved.text}` : null;
  }

  /** Shows the text of `node` next to it: `pinned` (a tap) stays until closed, otherwise it follows the pointer or focus. */
  showPopover(node, pinned) {
    const about = this.aboutOf(node);
    const target = this.targets.get(node);
    const words = target && target.preview ? this.previewText(target.preview) : "";
    if (!about && !words) return;
    this.popoverNode = node;
    this.pinned = pinned ? this.identity(node) : null;
    const parts = about ? aboutNodes(about) : [];
    if (words) parts.push(html("span", { class: "kit-preview-text" }, words));
    if (pinned) {
      const close = html("button", { type: "button", class: "kit-close", "aria-label": this.t("Close") }, "×");
      close.addEventListener("click", () => this.hidePopover(true));
      parts.unshift(close);
    }
    this.popover.replaceChildren(...parts.filter(Boolean));
    this.popover.classList.toggle("kit-pinned", pinned);
    this.popover.hidden = false;
    this.place(this.popover, node);
  }

  hidePopover(evenPinned) {
    if (this.pinned && !evenPinned) return;
    this.popover.hidden = true;
    this.popoverNode = null;
    if (evenPinned) this.pinned = null;
  }

  /** Puts `box` just below `node` (above when there is no room below), inside the board's width. */
  place(box, node) {
    const area = this.root.getBoundingClientRect();
    const spot = node.getBoundingClientRect();
    const width = Math.min(box.offsetWidth || 320, area.width);
    const left = Math.max(0, Math.min(spot.left - area.left, area.width - width));
    box.style.left = `${Math.round(left)}px`;
    const below = spot.bottom - area.top + GAP_PX;
    const above = spot.top - area.top - GAP_PX - box.offsetHeight;
    const room = window.innerHeight - spot.bottom;
    box.style.top = `${Math.round(room < box.offsetHeight + GAP_PX && above >= 0 ? above : below)}px`;
  }

  // ---- previews ----------------------------------------------------------------------------------

  /** Outlines what `action` concerns (the engine's marks, through the board) and, in an open menu, says it. */
  showPreview(action) {
    for (const node of this.previewed) node.classList.remove("kit-preview");
    const preview = action ? this.previews.get(action[0]) : null;
    this.previewed = action && this.previewOf ? [...(this.previewOf(action, preview ? preview.marks : []) || [])]
      .filter(Boolean) : [];
    for (const node of this.previewed) node.classList.add("kit-preview");
    if (this.menuNote) {
      this.menuNote.textContent = preview ? preview.text : "";
      this.menuNote.hidden = !preview;
    }
  }

  // ---- events (delegated: a board may keep or rebuild its nodes) -----------------------------------

  targetOf(event) {
    const node = event.target.closest ? event.target.closest("[data-kit-target]") : null;
    return node && this.targets.has(node) && this.root.contains(node) ? node : null;
  }

  infoOf(event) {
    const node = event.target.closest ? event.target.closest("[data-kit-info]") : null;
    return node && this.infos.has(node) && this.root.contains(node) ? node : null;
  }

  listen() {
    const root = this.root;
    const inOverlay = (event) => this.menu.contains(event.target) || this.popover.contains(event.target);
    root.addEventListener("click", (event) => {
      if (inOverlay(event)) return;
      if (this.swallowClick) {
        this.swallowClick = false;
        event.preventDefault();
        return;
      }
      const target = this.targetOf(event);
      if (target) {
        event.preventDefault();
        if (this.touch && this.selectFirst(target)) return;
        this.activate(target);
        return;
      }
      const info = this.infoOf(event);
      if (info && this.identity(info) !== this.pinned) this.showPopover(info, true);
      else this.hidePopover(true);
      if (!this.menu.hidden) this.closeMenu(false);
    });
    root.addEventListener("keydown", (event) => {
      if (this.menu.contains(event.target)) {
        this.menuKeys(event);
        return;
      }
      if (event.key === "Escape" && !this.popover.hidden) {
        event.preventDefault();
        this.hidePopover(true);
        return;
      }
      if (event.key !== "Enter" && event.key !== " ") return;
      const target = this.targetOf(event);
      if (target && event.target === target) {
        event.preventDefault();
        this.activate(target);
      }
    });
    root.addEventListener("contextmenu", (event) => {
      const info = this.infoOf(event);
      if (!info) return;
      event.preventDefault();
      this.showPopover(info, true);
    });
    root.addEventListener("pointerdown", (event) => {
      this.touch = event.pointerType === "touch" || event.pointerType === "pen";
      if (event.pointerType === "mouse" || inOverlay(event)) return;
      const info = this.infoOf(event);
      if (!info) return;
      clearTimeout(this.press && this.press.timer);
      this.press = {
        x: event.clientX, y: event.clientY,
        timer: setTimeout(() => {
          this.press = null;
          this.swallowClick = true;
          this.showPopover(info, true);
        }, LONG_PRESS_MS),
      };
    });
    const release = (event) => {
      if (!this.press) return;
      if (event.type === "pointermove" && Math.hypot(event.clientX - this.press.x, event.clientY - this.press.y) < PRESS_SLOP_PX) return;
      clearTimeout(this.press.timer);
      this.press = null;
    };
    for (const type of ["pointerup", "pointercancel", "pointermove"]) root.addEventListener(type, release);
    root.addEventListener("pointerover", (event) => {
      if (event.pointerType !== "mouse" || inOverlay(event)) return;
      const info = this.infoOf(event);
      const target = this.targetOf(event);
      if (!this.pinned) {
        const said = target && (this.infos.has(target) || this.previewText(this.targets.get(target).preview));
        const shown = said ? target : info;
        if (!shown) this.hidePopover(false);
        else if (shown !== this.popoverNode) this.showPopover(shown, false);
      }
      this.showPreview(target && this.menu.hidden ? this.targets.get(target).preview : null);
    });
    root.addEventListener("pointerleave", () => {
      this.hidePopover(false);
      if (this.menu.hidden) this.showPreview(null);
    });
    root.addEventListener("focusin", (event) => {
      if (inOverlay(event)) return;
      const target = this.targetOf(event);
      if (!target) return;
      if (!this.pinned) this.showPopover(target, false);
      if (this.menu.hidden) this.showPreview(this.targets.get(target).preview);
    });
    root.addEventListener("focusout", (event) => {
      if (root.contains(event.relatedTarget)) return;
      this.hidePopover(false);
      if (this.menu.hidden) this.showPreview(null);
    });
    this.outside = (event) => {
      if (!root.contains(event.target)) {
        this.hidePopover(true);
        if (!this.menu.hidden) this.closeMenu(false);
      }
    };
    // Escape closes a piece's text wherever the focus is (a tap on a piece does not move the focus).
    this.escape = (event) => {
      if (event.key === "Escape" && !this.popover.hidden && !root.contains(event.target)) this.hidePopover(true);
    };
    document.addEventListener("pointerdown", this.outside);
    document.addEventListener("keydown", this.escape);
  }

  /** Undoes what the kit added to the page (the board removes its own drawing). */
  destroy() {
    this.resizer.disconnect();
    for (const observer of this.observers) observer.disconnect();
    document.removeEventListener("pointerdown", this.outside);
    document.removeEventListener("keydown", this.escape);
    clearTimeout(this.press && this.press.timer);
    for (const key of [...this.badges.keys()]) this.dropBadge(key);
    this.menu.remove();
    this.popover.remove();
    this.root.classList.remove("kit-root");
  }
}
