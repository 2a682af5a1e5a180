// The Valley of the Kings board: the pyramid, the seat's hand, tomb and discard pile, the other seats and the
// boneyard, drawn only from the frame's view and legal actions. The board kit (/static/boardkit.js) does the
// rest: playing, menus, card texts on tap, the lock after a move and what changed since the last look.
import { createKit, loadHelp, nameKey, wrap } from "/static/boardkit.js";

const NS = "http://www.w3.org/2000/svg";
/** The widest layout, in drawing units; a wider board is scaled up (a narrower one is laid out narrower). */
const IDEAL = 1040;
/** From this width the hand, tomb and discard pile stand to the right of the pyramid. */
const TWO_COLUMNS = 860;
const CARD_W = 100;
const CARD_H = 124;
const GAP = 8;
const CHIP_H = 26;
const PYRAMID_W = 3 * CARD_W + 2 * GAP;
const SIDE_W = 170;
const SLOTS = ["B1", "B2", "B3", "M1", "M2", "T"];
/** Where each pyramid slot lies: column offset (in half cards) and row (0 = top). */
const SLOT_PLACE = { T: [2, 0], M1: [1, 1], M2: [3, 1], B1: [0, 2], B2: [2, 2], B3: [4, 2] };
const HAND_RANGES = new Set(["play", "entomb", "pay", "choose"]);
const SLOT_RANGES = new Set(["buy", "boat", "remove", "take"]);
/** Characters of the board's text per drawing unit: what fits a line is worked out from it. */
const CHAR_W = 7.2;

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

function counts(names) {
  const result = new Map();
  for (const name of names) result.set(name, (result.get(name) || 0) + 1);
  return result;
}

export function mount(root, ctx) {
  const { t } = ctx;
  // The pyramid slots and hand cards drawn in this pass, by the names the engine's previews give (`B1`, `Urn`):
  // a buy outlines its slot and the hand cards that would pay for it.
  let marked = new Map();
  const kit = createKit(root, ctx, {
    label: t("Valley of the Kings board"),
    preview: (action, marks) => marks.flatMap((mark) => marked.get(mark) || []),
  });
  const style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = "/games/valley/board.css";
  document.head.appendChild(style);
  const picture = svg("svg", { viewBox: "0 0 640 100", class: "vb-svg", role: "group" });
  picture.setAttribute("aria-label", t("Valley of the Kings board"));
  const box = document.createElement("div");
  box.className = "vb";
  box.append(picture);
  root.prepend(box);

  let frame = null;
  let catalog = null;
  let WIDTH = IDEAL;

  // The numbers of every card come from the English help (the view names cards in English); the text shown
  // comes from the help in the page's language, which the kit loads.
  Promise.all([loadHelp("valley", "en"), kit.ready]).then(([english]) => {
    catalog = readCatalog(english);
    if (frame) draw();
  }, () => {});

  function card(name) {
    return (catalog && catalog.byName.get(name)) || { name, cost: "?", gold: "?", set: null, type: "", vp: 0 };
  }

  function local(name) {
    const entry = kit.entry(`card:${nameKey(name)}`);
    return entry ? entry.name : t.term("card", name);
  }

  const about = (name) => `card:${nameKey(name)}`;

  function drawCard(parent, x, y, name, options) {
    const c = card(name);
    const group = svg("g", { class: `vb-card vb-kind-${c.set || c.type || "unknown"}`, transform: `translate(${x} ${y})` }, parent);
    group.setAttribute("data-card", name);
    svg("rect", { width: CARD_W, height: CARD_H, rx: 6, class: "vb-face" }, group);
    svg("rect", { width: CARD_W, height: 18, rx: 6, class: "vb-band" }, group);
    text(group, 6, 14, options.head || "", "vb-small");
    svg("circle", { cx: CARD_W - 15, cy: 32, r: 13, class: "vb-cost" }, group);
    text(group, CARD_W - 15, 37, String(c.cost), "vb-num", "middle");
    wrap(local(name), 11).slice(0, 4).forEach((line, i) => text(group, 6, 58 + i * 15, line, "vb-name"));
    svg("circle", { cx: 16, cy: CARD_H - 16, r: 12, class: "vb-gold" }, group);
    text(group, 16, CARD_H - 11, String(c.gold), "vb-num", "middle");
    const kind = c.set ? t.term("set", c.set) : c.type === "unique" ? t("unique") : c.type === "starter" ? t("starter") : "";
    text(group, CARD_W - 5, CARD_H - 11, kind, "vb-small", "end");
    if (options.key) kit.item(group, options.key, name);
    if (options.mark) marked.set(options.mark, [...(marked.get(options.mark) || []), group]);
    kit.info(group, about(name));
    kit.target(group, options.actions, { key: options.key, info: about(name) });
    return group;
  }

  function drawEmptySlot(parent, x, y, slot, actions, key) {
    const group = svg("g", { class: "vb-card vb-empty", transform: `translate(${x} ${y})` }, parent);
    svg("rect", { width: CARD_W, height: CARD_H, rx: 6, class: "vb-face" }, group);
    text(group, CARD_W / 2, CARD_H / 2, slot, "vb-text", "middle");
    kit.item(group, key, "");
    kit.target(group, actions, { key, title: slot });
  }

  /** A row of small labelled chips from `x`, wrapped within `width`; returns the y below them. */
  function chips(parent, x, y, width, items) {
    let cx = x;
    let cy = y;
    for (const item of items) {
      const w = Math.min(width, 16 + item.label.length * CHAR_W);
      if (cx + w > x + width && cx > x) {
        cx = x;
        cy += CHIP_H + 4;
      }
      const group = svg("g", { class: `vb-chip ${item.cls || ""}`, transform: `translate(${cx} ${cy})` }, parent);
      if (item.card) group.setAttribute("data-card", item.card);
      svg("rect", { width: w, height: CHIP_H, rx: 4, class: "vb-face" }, group);
      text(group, 7, 18, item.label, "vb-text");
      if (item.key) kit.item(group, item.key, item.sig ?? item.label);
      if (item.card) kit.info(group, about(item.card));
      kit.target(group, item.actions, { key: item.key || `chip:${item.label}`, info: item.card ? about(item.card) : undefined });
      cx += w + 4;
    }
    return items.length ? cy + CHIP_H + 6 : y;
  }

  /** A heading broken into lines that fit `width`; returns the y below it. */
  function heading(parent, x, y, width, content, key, sig) {
    for (const line of wrap(content, Math.floor(width / 8.6))) {
      const node = text(parent, x, y + 15, line, "vb-heading");
      if (key) kit.item(node, key, sig ?? content);
      y += 21;
    }
    return y + 2;
  }

  /** Lines of small text within `width`; returns the y below them. */
  function note(parent, x, y, width, content) {
    for (const line of wrap(content, Math.floor(width / CHAR_W))) {
      text(parent, x, y + 13, line, "vb-small");
      y += 17;
    }
    return y;
  }

  /** Each card name with its copies, as chips (`prefix` + name keys what is new). */
  function cardChips(names, prefix, actionsOf) {
    const items = [];
    for (const [name, n] of counts(names)) {
      const c = card(name);
      items.push({
        card: name,
        label: n > 1 ? `${n}× ${local(name)}` : local(name),
        cls: `vb-kind-${c.set || c.type || "unknown"}`,
        key: prefix ? `${prefix}${name}` : null,
        sig: String(n),
        actions: actionsOf && actionsOf(name),
      });
    }
    return items;
  }

  /** The tomb by group: starters, unique cards and each set, with the points each is worth now. */
  function drawTomb(parent, x, y, width, seat, tomb, actionsOf) {
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
      y = note(parent, x, y + 2, width, `${title} · ${t.n("{n} point", "{n} points", points)}`);
      y = chips(parent, x, y + 2, width, cardChips(names, `p${seat}:tomb:`, actionsOf));
    }
    return y;
  }

  /** The pyramid with the stock and the boneyard beside it (below it on a narrow board). */
  function drawPyramid(layer, view, by, y) {
    const top = y;
    const rowH = CARD_H + GAP;
    for (const cell of view.pyramid) {
      const index = SLOTS.indexOf(cell.slot);
      const [column, row] = SLOT_PLACE[cell.slot];
      const x = column * (CARD_W + GAP) / 2;
      const cy = top + row * rowH;
      const actions = by((range, i) => (SLOT_RANGES.has(range) && i === index) || (range === "fill_b2" && i + 3 === index));
      if (cell.card === null) drawEmptySlot(layer, x, cy, cell.slot, actions, `slot:${cell.slot}`);
      else drawCard(layer, x, cy, cell.card, { head: cell.slot, actions, key: `slot:${cell.slot}`, mark: cell.slot });
    }
    const beside = WIDTH >= PYRAMID_W + 16 + SIDE_W;
    const side = beside ? PYRAMID_W + 16 : 0;
    const sideW = beside ? SIDE_W : WIDTH;
    let sideY = beside ? top : top + 3 * rowH + 4;
    const stock = view.stock.level_ii + view.stock.level_iii;
    sideY = heading(layer, side, sideY, sideW, t("Stock: {n}", { n: stock }), "stock", String(stock));
    sideY = note(layer, side, sideY - 4, sideW, t("level II {a} · level III {b}", { a: view.stock.level_ii, b: view.stock.level_iii }));
    const bones = view.boneyard;
    sideY = heading(layer, side, sideY + 6, sideW, t("Boneyard: {n}", { n: bones.length }), "boneyard", String(bones.length));
    if (bones.length) {
      drawCard(layer, side, sideY, bones[bones.length - 1], { head: t("top"), key: "boneyard:top" });
      sideY += CARD_H + 8;
    }
    const turn = view.turn;
    const notes = [];
    if (turn.hand_gold) notes.push(t("Every hand card is worth {n} gold.", { n: turn.hand_gold }));
    if (turn.discount) notes.push(t("Next purchase costs {n} less.", { n: turn.discount }));
    if (view.pending && view.pending.gold_due) notes.push(t("Still to pay: {n} gold.", { n: view.pending.gold_due }));
    for (const line of notes) sideY = note(layer, side, sideY, sideW, line);
    y = Math.max(top + 2 * rowH + CARD_H, sideY) + 12;
    if (bones.length > 1) {
      y = heading(layer, 0, y, WIDTH, t("Boneyard, bottom to top"));
      y = chips(layer, 0, y, beside ? PYRAMID_W + 16 + SIDE_W : WIDTH, cardChips(bones.slice(0, -1), "bones:"));
    }
    return y;
  }

  /** The seat's own hand, cards in play, tomb and discard pile, in a column from `x` of `width`. */
  function drawMine(layer, view, me, by, x, y, width) {
    const kinds = catalog ? catalog.kinds : [];
    const kindOf = (name) => kinds.indexOf(name);
    const mine = view.players[me];
    const turn = view.turn;
    const worth = mine.hand.reduce((sum, name) => sum + (turn.hand_gold || Number(card(name).gold) || 0), 0);
    y = heading(layer, x, y, width, t("Your hand: {n} gold", { n: worth }), `p${me}:hand`, mine.hand.join());
    const seen = new Map();
    const perRow = Math.max(1, Math.floor((width + GAP) / (CARD_W + GAP)));
    mine.hand.forEach((name, i) => {
      const copy = seen.get(name) || 0;
      seen.set(name, copy + 1);
      const actions = by((range, index) => HAND_RANGES.has(range) && index === kindOf(name));
      drawCard(layer, x + (i % perRow) * (CARD_W + GAP), y + Math.floor(i / perRow) * (CARD_H + GAP), name,
        { actions, key: `hand:${name}#${copy}`, mark: name });
    });
    if (!mine.hand.length) text(layer, x, y + 14, t("No cards in hand."), "vb-small");
    y += mine.hand.length ? Math.ceil(mine.hand.length / perRow) * (CARD_H + GAP) : 24;
    if (view.in_play.length || view.revealed.length) {
      y = heading(layer, x, y, width, t("In play"));
      y = chips(layer, x, y, width, cardChips(view.in_play, "play:", (name) => by((range, i) => range === "repeat" && i === kindOf(name))));
      if (view.revealed.length) y = chips(layer, x, y, width, cardChips(view.revealed, "revealed:"));
    }
    y = heading(layer, x, y + 4, width, t("Your tomb: {points}", { points: t.n("{n} point", "{n} points", mine.tomb_score) }),
      `p${me}:tomb_score`, String(mine.tomb_score));
    y = drawTomb(layer, x, y, width, me, mine.tomb, (name) => by((range, i) => range === "from_tomb" && i === kindOf(name)));
    y = heading(layer, x, y + 4, width, t("Your discard pile: {n} · deck: {d}", { n: mine.discard.length, d: mine.deck_size }),
      `p${me}:discard`, String(mine.discard.length));
    y = chips(layer, x, y, width, cardChips(mine.discard, `p${me}:discard:`, (name) => by((range, i) => range === "from_discard" && i === kindOf(name))));
    if (mine.deck_top.length) {
      y = note(layer, x, y, width, t("Known top of your deck"));
      y = chips(layer, x, y + 2, width, cardChips(mine.deck_top, "decktop:"));
    }
    return y;
  }

  /** Another seat: its counts, the top of its discard pile, cards shown and its tomb, in a column. */
  function drawOther(layer, view, seat, x, y, width) {
    const player = view.players[seat];
    const name = kit.seatName(seat);
    const head = seat === view.active && !view.terminal ? t("{player} (to play)", { player: name }) : name;
    y = heading(layer, x, y, width, head);
    const facts = [
      [t("hand {n}", { n: player.hand_size }), `p${seat}:hand_size`],
      [t("deck {n}", { n: player.deck_size }), `p${seat}:deck_size`],
      [t("discard pile {n}", { n: player.discard.length }), `p${seat}:discard`],
      [t("tomb {points}", { points: t.n("{n} point", "{n} points", player.tomb_score) }), `p${seat}:tomb_score`],
    ];
    let fx = x;
    for (const [fact, key] of facts) {
      const w = fact.length * CHAR_W;
      if (fx + w > x + width && fx > x) {
        fx = x;
        y += 17;
      }
      kit.item(text(layer, fx, y + 13, fact, "vb-small"), key, fact);
      fx += w + 18;
    }
    y += 22;
    if (player.discard.length) {
      const top = player.discard[player.discard.length - 1];
      y = chips(layer, x, y, width, [{ card: top, label: t("top of discard pile: {card}", { card: local(top) }),
        key: `p${seat}:discard:top`, sig: top }]);
    }
    if (player.shown.length) {
      y = note(layer, x, y, width, t("Shown from the hand"));
      y = chips(layer, x, y + 2, width, cardChips(player.shown, `p${seat}:shown:`));
    }
    return drawTomb(layer, x, y, width, seat, player.tomb, null);
  }

  function draw() {
    marked = new Map();
    kit.begin(frame);
    const view = frame.view;
    const legal = frame.legal || [];
    const by = (fits) => legal.filter((a) => fits(a[2], a[3]));
    WIDTH = kit.fit(IDEAL + 8, 328).width - 8;
    const layer = svg("g", {});
    const me = view.players.findIndex((p) => Array.isArray(p.hand));
    const wide = WIDTH >= TWO_COLUMNS;
    let y = 0;
    if (view.terminal) {
      text(layer, 0, 16, t("The game is over."), "vb-status");
      y = 26;
    }
    const pyramidBottom = drawPyramid(layer, view, by, y);
    if (me >= 0 && wide) {
      const x = PYRAMID_W + 16 + SIDE_W + 24;
      y = Math.max(pyramidBottom, drawMine(layer, view, me, by, x, y, WIDTH - x));
    } else if (me >= 0) {
      y = drawMine(layer, view, me, by, 0, pyramidBottom, WIDTH);
    } else {
      y = pyramidBottom;
    }
    const others = view.players.map((_, seat) => seat).filter((seat) => seat !== me);
    const columns = Math.max(1, Math.min(others.length, Math.floor(WIDTH / 300)));
    const colW = (WIDTH - (columns - 1) * 24) / columns;
    for (let start = 0; start < others.length; start += columns) {
      y += 8;
      svg("line", { x1: 0, x2: WIDTH, y1: y, y2: y, class: "vb-rule" }, layer);
      let bottom = y;
      others.slice(start, start + columns).forEach((seat, i) => {
        bottom = Math.max(bottom, drawOther(layer, view, seat, i * (colW + 24), y + 6, colW));
      });
      y = bottom;
    }
    picture.replaceChildren(layer);
    picture.setAttribute("viewBox", `-4 -4 ${WIDTH + 8} ${y + 12}`);
    kit.end();
  }

  kit.onResize(() => {
    if (frame && catalog) draw();
  });

  return {
    update(next) {
      frame = next;
      if (catalog) draw();
    },
    destroy() {
      kit.destroy();
      box.remove();
      style.remove();
    },
  };
}

/** Every card's numbers (from the English help: the view names cards in English) and the sets' sizes. */
function readCatalog(english) {
  const byName = new Map();
  const kinds = [];
  const sets = [];
  for (const entry of (english && english.entries) || []) {
    if (entry.key.startsWith("card:")) {
      const n = entry.numbers;
      kinds.push(entry.name);
      byName.set(entry.name, { name: entry.name, cost: n.cost, gold: n.gold, set: n.set || null, type: n.type || "set", vp: n.VP || 0 });
    } else if (entry.key.startsWith("set:")) {
      sets.push({ name: entry.key.slice(4, -4), size: entry.numbers.cards });
    }
  }
  return { byName, kinds, sets };
}
