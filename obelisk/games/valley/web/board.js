// The Valley of the Kings board: the pyramid, the seat's hand, tomb and discard pile, the other seats and the
// boneyard, drawn only from the frame's view and legal actions; the card texts come from the game's help.
const NS = "http://www.w3.org/2000/svg";
const WIDE = 640;
/** The board's width on a narrow screen: the pyramid alone, with the stock and the boneyard below it. */
const NARROW = 3 * 100 + 2 * 8;
const NARROW_BELOW_PX = 560;
const CARD_W = 100;
const CARD_H = 124;
const GAP = 8;
const CHIP_H = 24;
const FADE_MS = 4000;
const SLOTS = ["B1", "B2", "B3", "M1", "M2", "T"];
/** Where each pyramid slot lies: column offset (in half cards) and row (0 = top). */
const SLOT_PLACE = { T: [2, 0], M1: [1, 1], M2: [3, 1], B1: [0, 2], B2: [2, 2], B3: [4, 2] };
const HAND_RANGES = new Set(["play", "entomb", "pay", "choose"]);
const SLOT_RANGES = new Set(["buy", "boat", "remove", "take"]);
const BUTTON_RANGES = ["end_turn", "pass", "censer"];

function svg(tag, attrs, parent) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, cls, anchor) {
  const node = svg("text", { x, y, class: cls || "vb-text" }, parent);
  if (anchor) node.setAttribute("text-anchor", anchor);
  node.textContent = content;
  return node;
}

/** Splits `content` into lines of at most `width` characters (a long word gets its own line). */
function wrap(content, width) {
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

function counts(names) {
  const result = new Map();
  for (const name of names) result.set(name, (result.get(name) || 0) + 1);
  return result;
}

export function mount(root, ctx) {
  const { t } = ctx;
  const style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = "/games/valley/board.css";
  document.head.appendChild(style);
  const box = document.createElement("div");
  box.className = "vb";
  const picture = svg("svg", { viewBox: `0 0 ${WIDE} 100`, class: "vb-svg", role: "group" });
  picture.setAttribute("aria-label", t("Valley of the Kings board"));
  const info = document.createElement("p");
  info.className = "vb-info";
  info.setAttribute("aria-live", "polite");
  const menu = document.createElement("div");
  menu.className = "vb-menu";
  menu.setAttribute("role", "menu");
  menu.hidden = true;
  box.append(picture, menu, info);
  root.appendChild(box);

  let frame = null;
  let catalog = null;
  let WIDTH = WIDE;
  let busy = false;
  const changed = new Map();

  loadCatalog(ctx.lang).then((loaded) => {
    catalog = loaded;
    if (frame) draw();
  }, () => {
    info.textContent = t("The card texts could not be loaded.");
  });

  function card(name) {
    return (catalog && catalog.byName.get(name)) || { name, local: t.term("card", name), cost: "?", gold: "?", set: null, type: "", vp: 0, text: "", numbers: {} };
  }

  function describe(name) {
    const c = card(name);
    const numbers = Object.entries(c.numbers).map(([label, value]) => `${label} ${value}`).join(", ");
    return `${c.local} — ${numbers}. ${c.text}`;
  }

  function mark(key, now) {
    changed.set(key, now);
  }

  /** Remembers what differs between the previous view and `view`, to highlight it for a few seconds. */
  function compare(before, view) {
    const now = Date.now();
    for (const [key, at] of changed) if (now - at > FADE_MS) changed.delete(key);
    if (!before) return;
    view.pyramid.forEach((cell, i) => {
      if (!before.pyramid[i] || before.pyramid[i].card !== cell.card) mark(`slot:${cell.slot}`, now);
    });
    if (before.boneyard.length !== view.boneyard.length) mark("boneyard", now);
    const stock = (v) => v.stock.level_ii + v.stock.level_iii;
    if (stock(before) !== stock(view)) mark("stock", now);
    view.players.forEach((player, seat) => {
      const old = before.players[seat];
      if (!old) return;
      for (const field of ["hand_size", "deck_size", "tomb_score"]) if (old[field] !== player[field]) mark(`p${seat}:${field}`, now);
      if (old.discard.length !== player.discard.length) mark(`p${seat}:discard`, now);
      newCopies(old.tomb, player.tomb).forEach((key) => mark(`p${seat}:tomb:${key}`, now));
      if (player.hand && old.hand) newCopies(old.hand, player.hand).forEach((key) => mark(`hand:${key}`, now));
    });
    newCopies(before.in_play, view.in_play).forEach((key) => mark(`play:${key}`, now));
  }

  /** `name#i` for each copy of a name that `after` holds beyond what `before` held. */
  function newCopies(before, after) {
    const old = counts(before);
    const keys = [];
    for (const [name, n] of counts(after)) for (let i = old.get(name) || 0; i < n; i += 1) keys.push(`${name}#${i}`);
    return keys;
  }

  function highlight(node, key) {
    const at = changed.get(key);
    if (at === undefined) return;
    node.classList.add("vb-changed");
    const delay = `${at - Date.now()}ms`;
    node.style.animationDelay = delay;
    const face = node.querySelector(".vb-face");
    if (face) face.style.animationDelay = delay;
  }

  function closeMenu() {
    menu.hidden = true;
    menu.replaceChildren();
  }

  function play(action) {
    if (busy) return;
    busy = true;
    closeMenu();
    ctx.play(action);
  }

  /** Plays the one action of a target, or offers its actions in a small menu. */
  function choose(actions, node) {
    if (actions.length === 1) {
      play(actions[0][0]);
      return;
    }
    opener = node;
    menu.replaceChildren();
    for (const [id, label] of actions) {
      const button = document.createElement("button");
      button.type = "button";
      button.setAttribute("role", "menuitem");
      button.textContent = label;
      button.addEventListener("click", () => play(id));
      menu.appendChild(button);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "vb-cancel";
    cancel.textContent = t("Cancel");
    cancel.addEventListener("click", () => {
      closeMenu();
      node.focus();
    });
    menu.appendChild(cancel);
    const area = box.getBoundingClientRect();
    const spot = node.getBoundingClientRect();
    menu.style.left = `${Math.max(0, Math.min(spot.left - area.left, area.width - 220))}px`;
    menu.style.top = `${spot.bottom - area.top + 4}px`;
    menu.hidden = false;
    menu.querySelector("button").focus();
  }

  let opener = null;
  menu.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    closeMenu();
    if (opener && opener.isConnected) opener.focus();
  });
  picture.addEventListener("click", (event) => {
    if (!event.target.closest(".vb-target")) closeMenu();
  });

  /** Makes `node` a target of `actions` (keyboard included), or leaves it inert when there are none. */
  function target(node, actions) {
    if (!actions || !actions.length) return;
    node.classList.add("vb-target");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", actions.map((a) => a[1]).join(" / "));
    node.addEventListener("click", () => choose(actions, node));
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        choose(actions, node);
      }
    });
  }

  function hover(node, content) {
    svg("title", {}, node).textContent = content;
    const show = () => { info.textContent = content; };
    node.addEventListener("mouseenter", show);
    node.addEventListener("focus", show);
  }

  function drawCard(parent, x, y, name, options) {
    const c = card(name);
    const group = svg("g", { class: `vb-card vb-kind-${c.set || c.type || "unknown"}`, transform: `translate(${x} ${y})` }, parent);
    group.setAttribute("data-card", name);
    svg("rect", { width: CARD_W, height: CARD_H, rx: 6, class: "vb-face" }, group);
    svg("rect", { width: CARD_W, height: 16, rx: 6, class: "vb-band" }, group);
    text(group, 6, 12, options.head || "", "vb-small");
    svg("circle", { cx: CARD_W - 14, cy: 28, r: 12, class: "vb-cost" }, group);
    text(group, CARD_W - 14, 33, String(c.cost), "vb-num", "middle");
    wrap(c.local, 12).slice(0, 4).forEach((line, i) => text(group, 6, 52 + i * 14, line, "vb-name"));
    svg("circle", { cx: 16, cy: CARD_H - 16, r: 11, class: "vb-gold" }, group);
    text(group, 16, CARD_H - 11, String(c.gold), "vb-num", "middle");
    const kind = c.set ? t.term("set", c.set) : c.type === "unique" ? t("unique") : c.type === "starter" ? t("starter") : "";
    text(group, CARD_W - 6, CARD_H - 11, kind, "vb-small", "end");
    hover(group, describe(name));
    if (options.key) highlight(group, options.key);
    target(group, options.actions);
    return group;
  }

  function drawEmptySlot(parent, x, y, slot, actions, key) {
    const group = svg("g", { class: "vb-card vb-empty", transform: `translate(${x} ${y})` }, parent);
    svg("rect", { width: CARD_W, height: CARD_H, rx: 6, class: "vb-face" }, group);
    text(group, CARD_W / 2, CARD_H / 2, slot, "vb-text", "middle");
    highlight(group, key);
    target(group, actions);
  }

  /** A row of small labelled chips, wrapped at the board's width; returns the y below them. */
  function chips(parent, x, y, items) {
    let cx = x;
    let cy = y;
    for (const item of items) {
      const width = Math.min(WIDTH - x, 14 + item.label.length * 7);
      if (cx + width > WIDTH && cx > x) {
        cx = x;
        cy += CHIP_H + 4;
      }
      const group = svg("g", { class: `vb-chip ${item.cls || ""}`, transform: `translate(${cx} ${cy})` }, parent);
      if (item.card) group.setAttribute("data-card", item.card);
      svg("rect", { width, height: CHIP_H, rx: 4, class: "vb-face" }, group);
      text(group, 7, 16, item.label, "vb-text");
      if (item.title) hover(group, item.title);
      if (item.key) highlight(group, item.key);
      target(group, item.actions);
      cx += width + 4;
    }
    return items.length ? cy + CHIP_H + 6 : y;
  }

  /** A heading broken into lines that fit the board; returns the y below it. */
  function heading(parent, y, content, key) {
    for (const line of wrap(content, Math.floor(WIDTH / 8.5))) {
      const node = text(parent, 0, y + 14, line, "vb-heading");
      if (key) highlight(node, key);
      y += 20;
    }
    return y + 2;
  }

  /** Each card name with its copies, as chips (`name#i` keys mark new copies). */
  function cardChips(names, keyOf, actionsOf) {
    const items = [];
    for (const [name, n] of counts(names)) {
      const c = card(name);
      items.push({
        card: name,
        label: n > 1 ? `${n}× ${c.local}` : c.local,
        cls: `vb-kind-${c.set || c.type || "unknown"}`,
        title: describe(name),
        key: keyOf && changedCopy(keyOf, name, n),
        actions: actionsOf && actionsOf(name),
      });
    }
    return items;
  }

  function changedCopy(prefix, name, n) {
    for (let i = 0; i < n; i += 1) if (changed.has(`${prefix}${name}#${i}`)) return `${prefix}${name}#${i}`;
    return null;
  }

  /** The tomb by group: starters, unique cards and each set, with the points each is worth now. */
  function drawTomb(parent, y, seat, tomb, actionsOf) {
    const groups = new Map();
    for (const name of tomb) {
      const c = card(name);
      const group = c.set ? `set:${c.set}` : c.type || "unknown";
      if (!groups.has(group)) groups.set(group, []);
      groups.get(group).push(name);
    }
    const order = ["starter", ...(catalog ? catalog.sets.map((s) => `set:${s.name}`) : []), "unique", "unknown"];
    for (const group of order.filter((g) => groups.has(g))) {
      const names = groups.get(group);
      let title;
      let points;
      if (group.startsWith("set:")) {
        const set = catalog.sets.find((s) => `set:${s.name}` === group);
        const different = new Set(names).size;
        points = different * different;
        title = t("{set}: {n} of {size} different", { set: t.term("set", set.name), n: different, size: set.size });
      } else {
        points = names.reduce((sum, name) => sum + (Number(card(name).vp) || 0), 0);
        title = group === "starter" ? t("Starters") : t("Unique cards");
      }
      text(parent, 0, y + 16, `${title} · ${t.n("{n} point", "{n} points", points)}`, "vb-small");
      y = chips(parent, 0, y + 22, cardChips(names, `p${seat}:tomb:`, actionsOf));
    }
    return y;
  }

  function button(parent, x, y, label, actions) {
    const width = Math.max(90, 20 + label.length * 7.5);
    const group = svg("g", { class: "vb-button", transform: `translate(${x} ${y})` }, parent);
    svg("rect", { width, height: 32, rx: 6, class: "vb-face" }, group);
    text(group, width / 2, 21, label, "vb-text", "middle");
    target(group, actions);
    return width;
  }

  function draw() {
    closeMenu();
    busy = false;
    const view = frame.view;
    const legal = frame.legal || [];
    const kinds = catalog ? catalog.kinds : [];
    const used = new Set();
    const by = (fits) => {
      const found = legal.filter((a) => fits(a[2], a[3]));
      found.forEach((a) => used.add(a[0]));
      return found;
    };
    const layer = svg("g", {});
    let y = 0;

    const status = view.terminal ? t("The game is over.") : view.waiting_for;
    WIDTH = root.clientWidth && root.clientWidth < NARROW_BELOW_PX ? NARROW : WIDE;
    for (const line of wrap(status, Math.floor(WIDTH / 8))) {
      text(layer, 0, y + 16, line, "vb-status");
      y += 20;
    }
    y += 6;

    // The pyramid, with the stock and the boneyard beside it.
    const top = y;
    const rowH = CARD_H + GAP;
    for (const cell of view.pyramid) {
      const index = SLOTS.indexOf(cell.slot);
      const [column, row] = SLOT_PLACE[cell.slot];
      const x = column * (CARD_W + GAP) / 2;
      const cy = top + row * rowH;
      const actions = by((range, i) => (SLOT_RANGES.has(range) && i === index) || (range === "fill_b2" && i + 3 === index));
      if (cell.card === null) drawEmptySlot(layer, x, cy, cell.slot, actions, `slot:${cell.slot}`);
      else drawCard(layer, x, cy, cell.card, { head: cell.slot, actions, key: `slot:${cell.slot}` });
    }
    const narrow = WIDTH === NARROW;
    const side = narrow ? 0 : 3 * (CARD_W + GAP) + 16;
    const sideTop = narrow ? top + 3 * rowH + 4 : top;
    const stock = view.stock.level_ii + view.stock.level_iii;
    const stockNode = text(layer, side, sideTop + 14, t("Stock: {n}", { n: stock }), "vb-heading");
    highlight(stockNode, "stock");
    text(layer, side, sideTop + 32, t("level II {a} · level III {b}", { a: view.stock.level_ii, b: view.stock.level_iii }), "vb-small");
    const bones = view.boneyard;
    const bonesNode = text(layer, side, sideTop + 58, t("Boneyard: {n}", { n: bones.length }), "vb-heading");
    highlight(bonesNode, "boneyard");
    if (bones.length) drawCard(layer, side, sideTop + 66, bones[bones.length - 1], { head: t("top"), key: "boneyard" });
    let sideY = sideTop + 66 + (bones.length ? CARD_H : 0) + 10;
    const turn = view.turn;
    const notes = [];
    if (turn.hand_gold) notes.push(t("Every hand card is worth {n} gold.", { n: turn.hand_gold }));
    if (turn.discount) notes.push(t("Next purchase costs {n} less.", { n: turn.discount }));
    if (view.pending && view.pending.gold_due) notes.push(t("Still to pay: {n} gold.", { n: view.pending.gold_due }));
    for (const note of notes) {
      for (const line of wrap(note, narrow ? 44 : 30)) {
        text(layer, side, sideY + 12, line, "vb-small");
        sideY += 16;
      }
    }
    y = Math.max(top + 2 * rowH + CARD_H, sideY) + 14;
    if (bones.length > 1) y = heading(layer, y, t("Boneyard, bottom to top"));
    if (bones.length > 1) y = chips(layer, 0, y, cardChips(bones.slice(0, -1)));

    const me = view.players.findIndex((p) => Array.isArray(p.hand));
    const kindOf = (name) => kinds.indexOf(name);

    if (me >= 0) {
      const mine = view.players[me];
      const worth = mine.hand.reduce((sum, name) => sum + (turn.hand_gold || Number(card(name).gold) || 0), 0);
      y = heading(layer, y, t("Your hand: {n} gold", { n: worth }), `p${me}:hand_size`);
      const seen = new Map();
      const perRow = Math.floor((WIDTH + GAP) / (CARD_W + GAP));
      mine.hand.forEach((name, i) => {
        const copy = seen.get(name) || 0;
        seen.set(name, copy + 1);
        const actions = by((range, index) => HAND_RANGES.has(range) && index === kindOf(name));
        drawCard(layer, (i % perRow) * (CARD_W + GAP), y + Math.floor(i / perRow) * (CARD_H + GAP), name,
          { actions, key: `hand:${name}#${copy}` });
      });
      if (!mine.hand.length) text(layer, 0, y + 14, t("No cards in hand."), "vb-small");
      y += mine.hand.length ? Math.ceil(mine.hand.length / perRow) * (CARD_H + GAP) : 24;
    }

    if (view.in_play.length || view.revealed.length) {
      y = heading(layer, y, t("In play"));
      y = chips(layer, 0, y, cardChips(view.in_play, "play:", (name) => by((range, i) => range === "repeat" && i === kindOf(name))));
      if (view.revealed.length) y = chips(layer, 0, y, cardChips(view.revealed));
    }

    const rest = legal.filter((a) => BUTTON_RANGES.includes(a[2]) || !isTargeted(a));
    function isTargeted(action) {
      const [, , range, index] = action;
      if (used.has(action[0])) return true;
      if (me < 0) return false;
      const mine = view.players[me];
      const name = kinds[index];
      if (range === "from_discard") return mine.discard.includes(name);
      if (range === "from_tomb") return mine.tomb.includes(name);
      return false;
    }
    if (rest.length) {
      let x = 0;
      for (const action of rest) {
        const width = Math.max(90, 20 + action[1].length * 7.5);
        if (x + width > WIDTH && x > 0) {
          x = 0;
          y += 40;
        }
        x += button(layer, x, y, action[1], [action]) + 8;
      }
      y += 44;
    }

    if (me >= 0) {
      const mine = view.players[me];
      y = heading(layer, y, t("Your tomb: {points}", { points: t.n("{n} point", "{n} points", mine.tomb_score) }), `p${me}:tomb_score`);
      y = drawTomb(layer, y, me, mine.tomb, (name) => by((range, i) => range === "from_tomb" && i === kindOf(name)));
      y = heading(layer, y, t("Your discard pile: {n} · deck: {d}", { n: mine.discard.length, d: mine.deck_size }), `p${me}:discard`);
      y = chips(layer, 0, y, cardChips(mine.discard, null, (name) => by((range, i) => range === "from_discard" && i === kindOf(name))));
      if (mine.deck_top.length) {
        text(layer, 0, y + 14, t("Known top of your deck"), "vb-small");
        y = chips(layer, 0, y + 20, cardChips(mine.deck_top));
      }
    }

    view.players.forEach((player, seat) => {
      if (seat === me) return;
      y += 6;
      svg("line", { x1: 0, x2: WIDTH, y1: y, y2: y, class: "vb-rule" }, layer);
      const head = seat === view.active && !view.terminal ? t("Seat {n} (to play)", { n: seat }) : t("Seat {n}", { n: seat });
      y = heading(layer, y + 4, head);
      const facts = [
        [t("hand {n}", { n: player.hand_size }), `p${seat}:hand_size`],
        [t("deck {n}", { n: player.deck_size }), `p${seat}:deck_size`],
        [t("discard pile {n}", { n: player.discard.length }), `p${seat}:discard`],
        [t("tomb {points}", { points: t.n("{n} point", "{n} points", player.tomb_score) }), `p${seat}:tomb_score`],
      ];
      let x = 0;
      for (const [fact, key] of facts) {
        const width = fact.length * 6.5;
        if (x + width > WIDTH && x > 0) {
          x = 0;
          y += 16;
        }
        const node = text(layer, x, y + 12, fact, "vb-small");
        highlight(node, key);
        x += width + 20;
      }
      y += 20;
      if (player.discard.length) {
        y = chips(layer, 0, y, [{ card: player.discard[player.discard.length - 1], label: t("top of discard pile: {card}", { card: card(player.discard[player.discard.length - 1]).local }), title: describe(player.discard[player.discard.length - 1]) }]);
      }
      if (player.shown.length) {
        text(layer, 0, y + 14, t("Shown from the hand"), "vb-small");
        y = chips(layer, 0, y + 20, cardChips(player.shown));
      }
      y = drawTomb(layer, y, seat, player.tomb, null);
    });

    const focused = picture.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
    picture.replaceChildren(layer);
    picture.setAttribute("viewBox", `-4 -4 ${WIDTH + 8} ${y + 12}`);
    if (focused !== null) {
      const targets = Array.from(picture.querySelectorAll(".vb-target"));
      const again = targets.find((node) => node.getAttribute("aria-label") === focused) || targets[0];
      if (again) again.focus();
    }
  }

  const resized = new ResizeObserver(() => {
    const wanted = root.clientWidth && root.clientWidth < NARROW_BELOW_PX ? NARROW : WIDE;
    if (frame && catalog && wanted !== WIDTH) draw();
  });
  resized.observe(root);

  return {
    update(next) {
      compare(frame && frame.view, next.view);
      frame = next;
      if (catalog) draw();
    },
    destroy() {
      resized.disconnect();
      closeMenu();
      box.remove();
      style.remove();
    },
  };
}

/** Every card's numbers (English help: names as the view gives them) with its text in `lang`, and the sets. */
async function loadCatalog(lang) {
  const get = async (query) => {
    const response = await fetch(`/api/games/valley/help${query}`, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`help: ${response.status}`);
    return response.json();
  };
  const [english, local] = await Promise.all([get(""), lang === "en" ? null : get(`?lang=${encodeURIComponent(lang)}`)]);
  const localByKey = new Map(((local || english).entries).map((e) => [e.key, e]));
  const byName = new Map();
  const kinds = [];
  const sets = [];
  for (const entry of english.entries) {
    const shown = localByKey.get(entry.key) || entry;
    if (entry.key.startsWith("card:")) {
      const n = entry.numbers;
      kinds.push(entry.name);
      byName.set(entry.name, {
        name: entry.name, local: shown.name, text: shown.text, numbers: shown.numbers,
        cost: n.cost, gold: n.gold, set: n.set || null, type: n.type || "set", vp: n.VP || 0,
      });
    } else if (entry.key.startsWith("set:")) {
      sets.push({ name: entry.key.slice(4, -4), size: entry.numbers.cards });
    }
  }
  return { byName, kinds, sets };
}
