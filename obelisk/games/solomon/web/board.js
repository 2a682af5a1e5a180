// The board of King Solomon's Treasury: the 6×6 cave of stacks, the excavation cards, every seat's coins and
// tiles. Drawn only from the frame's view and legal actions; the board kit (/static/boardkit.js) plays, opens
// menus, shows component texts on tap and highlights what changed.
import { createKit, previewOf } from "/static/boardkit.js";

const NS = "http://www.w3.org/2000/svg";
const SIZE = 6;
/** The widest layout in drawing units (a wider board is scaled up); from TWO_COLUMNS the seats stand right of the cave. */
const IDEAL = 1000;
const TWO_COLUMNS = 760;
const CAVE_X = 24;
const CARD_STEP = 82;
const DIRECTIONS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];
const TREASURES = [1, 2, 3, 4, 5];
const CURSES = [1, 2, 3];
const SCROLLS = ["A", "B", "C", "D"];
const ITEMS = ["Mirror", "Pickaxe", "Seal", "Amulet"];
/** Tile kinds in the game's order (the `give` range). */
const KINDS = [
  ...TREASURES.map((v) => `treasure ${v}`),
  ...CURSES.map((v) => `curse ${v}`),
  ...SCROLLS.map((s) => `scroll ${s}`),
  ...ITEMS,
];
const HELP_KEYS = { treasure: "tile:treasure", curse: "tile:curse", scroll: "tile:scroll" };

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

/** `parts` joined by `separator` into lines of about `width` characters, breaking only between parts. */
function joined(parts, separator, width) {
  const lines = [];
  for (const part of parts) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && last.length + part.length < width) lines[lines.length - 1] = `${last}${separator}${part}`;
    else lines.push(part);
  }
  return lines;
}

/** The square a name (`B4`) stands for, as the engine names it: column letter, row from the entrance. */
function squareIndex(name) {
  return (Number(String(name).slice(1)) - 1) * SIZE + "ABCDEF".indexOf(String(name)[0]);
}

function squareName(sq) {
  return `${"ABCDEF"[sq % SIZE]}${Math.floor(sq / SIZE) + 1}`;
}

/** What kind of tile a name is: "treasure", "curse", "scroll" or "item". */
function family(kind) {
  const word = kind.split(" ")[0];
  return word in HELP_KEYS ? word : "item";
}

/** A card's cells turned to orientation `o` (quarter turns clockwise, + 4 = mirrored), top-left at (0, 0). */
function transform(cells, o) {
  let pts = cells.map(([r, c]) => (o >= 4 ? [r, -c] : [r, c]));
  for (let i = 0; i < o % 4; i += 1) pts = pts.map(([r, c]) => [c, -r]);
  const r0 = Math.min(...pts.map((p) => p[0]));
  const c0 = Math.min(...pts.map((p) => p[1]));
  return pts.map(([r, c]) => [r - r0, c - c0]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

export function mount(root, ctx) {
  const { t } = ctx;
  let cave = null;
  const kit = createKit(root, ctx, {
    label: t("King Solomon's Treasury"),
    // The squares the engine's preview names: a dig's area, a move's two squares, a sealed square.
    preview: (action, marks) => (cave ? marks.map(squareIndex).map((sq) => cave.querySelector(`[data-square="${sq}"]`)) : []),
  });
  root.classList.add("solomon-board");
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/games/solomon/board.css";
  root.append(link);
  const holder = document.createElement("div");
  holder.className = "solomon-holder";
  root.prepend(holder);

  let frame = null;
  let orientation = null;
  let WIDTH = IDEAL;
  let CELL = 70;

  kit.ready.then(() => {
    if (frame) draw();
  });
  kit.onResize(() => {
    if (frame) draw();
  });

  /** A help entry's text as the kit shows it: the help key of the thing. */
  function tileHelpKey(kind) {
    const fam = family(kind);
    return fam === "item" ? `magic:${kind.toLowerCase()}` : HELP_KEYS[fam];
  }

  function tileName(kind) {
    return t.term("tile", kind);
  }

  function drawTile(kind, x, y, size, extra = "") {
    const fam = family(kind);
    const group = svg("g", { class: `tile tile-${fam}${extra}` });
    group.append(svg("rect", { x, y, width: size, height: size, rx: size * 0.12 }));
    let mark;
    if (fam === "treasure" || fam === "curse") mark = kind.split(" ")[1];
    else if (fam === "scroll") mark = kind.split(" ")[1];
    else mark = tileName(kind);
    const long = fam === "item";
    // An item's name is shrunk to fit its tile, never below 11 units; what still does not fit is cut with "…".
    const room = size - 6;
    const fontSize = long ? Math.max(11, Math.min(size * 0.24, room / (mark.length * 0.62))) : Math.max(12, size * 0.42);
    if (long && mark.length * 0.62 * fontSize > room) mark = `${mark.slice(0, Math.max(2, Math.floor(room / (0.62 * fontSize)) - 1))}…`;
    group.append(svg("text", {
      x: x + size / 2, y: y + size / 2 + (long ? 4 : size * 0.14), "text-anchor": "middle",
      "font-size": fontSize, class: long ? "item-name" : null,
    }, mark));
    if (fam === "curse") {
      group.append(svg("text", { x: x + size / 2, y: y + Math.max(12, size * 0.24), "text-anchor": "middle", "font-size": Math.max(11, size * 0.18) }, "☠"));
    }
    return group;
  }

  function drawCave(view, legal, x0, y0) {
    const group = svg("g", { class: "cave" });
    group.append(svg("rect", { class: "entrance", x: x0, y: y0, width: CELL * SIZE, height: 18, rx: 4 }));
    group.append(svg("text", { class: "entrance-text", x: x0 + (CELL * SIZE) / 2, y: y0 + 13, "text-anchor": "middle" },
      t("cave entrance")));
    const top = y0 + 36;
    for (let c = 0; c < SIZE; c += 1) {
      group.append(svg("text", { class: "coord", x: x0 + c * CELL + CELL / 2, y: top - 4, "text-anchor": "middle" }, "ABCDEF"[c]));
    }
    for (let r = 0; r < SIZE; r += 1) {
      group.append(svg("text", { class: "coord", x: x0 - 10, y: top + r * CELL + CELL / 2 + 4, "text-anchor": "middle" }, String(r + 1)));
    }
    const perSquare = new Map();
    const add = (sq, action) => {
      if (!perSquare.has(sq)) perSquare.set(sq, []);
      perSquare.get(sq).push(action);
    };
    const digs = legal.filter((a) => a[2] === "dig");
    const orientations = [...new Set(digs.map((a) => Math.floor(a[3] / 36)))].sort((a, b) => a - b);
    if (!orientations.includes(orientation)) orientation = orientations.length ? orientations[0] : null;
    for (const action of legal) {
      if (action[2] === "move") add(Math.floor(action[3] / 8), action);
      else if (action[2] === "seal") add(action[3], action);
      else if (action[2] === "dig" && Math.floor(action[3] / 36) === orientation) {
        // A dig is played on the first square of its area, as the engine's preview names the area.
        const preview = previewOf(frame, action[0]);
        if (preview && preview.marks.length) add(squareIndex(preview.marks[0]), action);
      }
    }
    // Digs in every orientation are reached by turning the card first, then choosing a square.
    kit.reachable(digs);
    const sealed = new Set((view.turn ? view.turn.seal_squares : []));
    for (let sq = 0; sq < SIZE * SIZE; sq += 1) {
      const x = x0 + (sq % SIZE) * CELL;
      const y = top + Math.floor(sq / SIZE) * CELL;
      const height = view.heights[sq];
      const stack = view.stacks[sq] || [];
      const kind = stack.length ? stack[stack.length - 1] : null;
      const cell = svg("g", { class: `square level-${height}`, "data-square": sq });
      if (sealed.has(squareName(sq))) cell.classList.add("sealed");
      const step = Math.max(2, CELL / 24);
      cell.append(svg("rect", { class: "ground", x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 6 }));
      for (let level = 1; level < height; level += 1) {
        cell.append(svg("rect", { class: "layer", x: x + 6 + level * step, y: y + 6 + level * step, width: CELL * 0.68, height: CELL * 0.68, rx: 5 }));
      }
      const inset = 6 + height * step;
      if (height && kind) cell.append(drawTile(kind, x + inset - step, y + inset - step, CELL * 0.68));
      else if (height) cell.append(svg("rect", { class: "unseen", x: x + inset - step, y: y + inset - step, width: CELL * 0.68, height: CELL * 0.68, rx: 5 }));
      cell.append(svg("text", { class: "height", x: x + 5, y: y + CELL - 5 }, String(height)));
      cell.append(svg("rect", { class: "ring", x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 6 }));
      kit.item(cell, `s${sq}`, [height, kind]);
      const about = () => {
        const what = kind ? tileName(kind) : (height ? t("not yet seen") : t("dug out"));
        const entry = kind ? kit.entry(tileHelpKey(kind)) : null;
        return {
          title: `${squareName(sq)} · ${t.n("{n} tile", "{n} tiles", height)} · ${t("top tile")}: ${what}`,
          numbers: entry ? entry.name : "",
          text: entry ? entry.text : "",
        };
      };
      kit.info(cell, about);
      const actions = perSquare.get(sq);
      if (actions) {
        const main = actions.length === 1 ? actions[0] : actions.find((a) => a[2] === "dig") || null;
        kit.target(cell, actions, { key: `s${sq}`, title: squareName(sq), info: about, preview: main });
      }
      group.append(cell);
    }
    return { group, bottom: top + SIZE * CELL, orientations };
  }

  function drawShape(cells, x, y, unit, cls) {
    const group = svg("g", { class: cls });
    for (const [r, c] of cells) {
      group.append(svg("rect", { class: "cell", x: x + c * unit, y: y + r * unit, width: unit - 1, height: unit - 1 }));
    }
    return group;
  }

  /** A card face: its number, the arrow toward the entrance, its shape. */
  function drawCard(number, cells, x, y, o = 0, extra = "") {
    const shape = transform(cells, o);
    const unit = 11;
    const width = 76;
    const height = 86;
    const group = svg("g", { class: `card${extra}`, "data-card": number });
    group.append(svg("rect", { class: "face", x, y, width, height, rx: 6 }));
    group.append(svg("text", { class: "number", x: x + 6, y: y + 16 }, String(number)));
    group.append(svg("text", { class: "arrow", x: x + width - 8, y: y + 16, "text-anchor": "end" }, o ? "⟲" : "↑"));
    const cols = Math.max(...shape.map((p) => p[1])) + 1;
    const rows = Math.max(...shape.map((p) => p[0])) + 1;
    group.append(drawShape(shape, x + (width - cols * unit) / 2, y + 22 + (60 - rows * unit) / 2, unit, "shape"));
    group.append(svg("rect", { class: "ring", x: x - 2, y: y - 2, width: width + 4, height: height + 4, rx: 7 }));
    kit.info(group, () => {
      const entry = kit.entry(`card:${number}`);
      return entry ? { title: entry.name, text: entry.text } : { title: t("Card {number}", { number }) };
    });
    return group;
  }

  /** The card being dug with, in every orientation the dig allows (choosing one turns the squares' digs). */
  function drawTurnCard(view, x0, y0, width, orientations) {
    const group = svg("g", { class: "cards" });
    let y = y0;
    const turn = view.turn;
    if (!(turn && turn.card !== null && view.card_shapes[String(turn.card)])) return { group, bottom: y };
    const cells = view.card_shapes[String(turn.card)];
    group.append(svg("text", { class: "heading", x: x0, y: y + 15 },
      t("{player} digs with card {card}", { player: kit.seatName(turn.seat), card: turn.card })));
    y += 24;
    const perRow = Math.max(1, Math.floor(width / CARD_STEP));
    const shown = orientations.length > 1 ? orientations : [orientation ?? 0];
    shown.forEach((o, i) => {
      const card = drawCard(turn.card, cells, x0 + (i % perRow) * CARD_STEP, y + Math.floor(i / perRow) * 94, o,
        o === orientation ? " current" : "");
      if (orientations.length > 1) turnable(card, o);
      group.append(card);
    });
    return { group, bottom: y + Math.ceil(shown.length / perRow) * 94 + 2 };
  }

  /** An orientation card is a switch of the board (no move): it shows the digs of that orientation on the cave. */
  function turnable(card, o) {
    card.classList.add("turn");
    card.setAttribute("tabindex", "0");
    card.setAttribute("role", "button");
    card.setAttribute("aria-label", t("turn the card this way"));
    card.setAttribute("aria-pressed", String(o === orientation));
    const pick = (event) => {
      event.stopPropagation();
      orientation = o;
      draw();
      const again = holder.querySelector(".card.current");
      if (again) again.focus();
    };
    card.addEventListener("click", pick);
    card.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        pick(event);
      }
    });
  }

  function drawHand(view, legal, x0, y0, width) {
    const group = svg("g", { class: "cards" });
    let y = y0;
    if (view.seat === null || !view.hand.length) return { group, bottom: y };
    const chosen = view.my_choice !== null ? ` (${t("chosen: card {card}", { card: view.my_choice })})` : "";
    group.append(svg("text", { class: "heading", x: x0, y: y + 15 }, t("Your excavation cards") + chosen));
    y += 24;
    const choose = legal.filter((a) => a[2] === "choose").sort((a, b) => a[3] - b[3]);
    const numbers = [...view.hand].sort((a, b) => a - b);
    const byNumber = new Map(choose.length === numbers.length ? numbers.map((n, i) => [n, choose[i]]) : []);
    const perRow = Math.max(1, Math.floor(width / CARD_STEP));
    view.hand.forEach((number, i) => {
      const card = drawCard(number, view.card_shapes[String(number)] || [[0, 0]], x0 + (i % perRow) * CARD_STEP,
        y + Math.floor(i / perRow) * 94, 0, number === view.my_choice ? " chosen" : "");
      const action = byNumber.get(number);
      if (action) kit.target(card, [action], { key: `card${number}`, info: `card:${number}` });
      group.append(card);
    });
    return { group, bottom: y + Math.ceil(view.hand.length / perRow) * 94 };
  }

  /** Every seat's coins and tiles; what the physical game keeps behind a screen is marked as such. */
  function drawSeats(view, legal, x0, y0, width) {
    const group = svg("g", { class: "seats" });
    let y = y0;
    const me = view.seat;
    const byRange = (name) => legal.filter((a) => a[2] === name);
    view.seats.forEach((info, q) => {
      const mine = q === me;
      const row = svg("g", { class: `seat${mine ? " mine" : ""}${view.current_player === q ? " to-act" : ""}`, "data-seat": q });
      const panel = svg("rect", { class: "panel", x: x0 + 4, y, width: width - 8, height: 84, rx: 8 });
      row.append(panel);
      kit.item(row, `p${q}`, [info.coins, info.tiles, info.face_down_tiles]);
      const name = mine ? t("{player} (you)", { player: kit.seatName(q) }) : kit.seatName(q);
      const parts = [name, t.n("{n} card in hand", "{n} cards in hand", info.hand_size)];
      if (info.has_chosen) parts.push(t("has chosen"));
      let top = y + 8;
      for (const line of joined(parts, " · ", Math.floor((width - 28) / 7.4))) {
        row.append(svg("text", { class: "seat-name", x: x0 + 14, y: top + 12 }, line));
        top += 17;
      }
      if (!mine && !view.terminal) {
        const note = svg("text", { class: "screen-note", x: x0 + 14, y: top + 12 }, t("behind the screen"));
        row.append(note);
        kit.info(note, { title: t("behind the screen"),
          text: t("In the box game coins and tiles stay behind the player's screen; here they are remembered from the open digs.") });
        top += 17;
      }
      if (info.played.length) {
        row.append(svg("text", { class: "played", x: x0 + 14, y: top + 12 }, t("played {cards}", { cards: info.played.join(" ") })));
        top += 17;
      }
      top += 4;
      const first = x0 + 66;
      let x = x0 + 14;
      const coin = svg("g", { class: `chip coins${mine ? "" : " hidden-info"}` });
      coin.append(svg("circle", { cx: x + 22, cy: top + 22, r: 21 }));
      coin.append(svg("text", { x: x + 22, y: top + 28, "text-anchor": "middle", "font-size": 17 }, String(info.coins)));
      coin.append(svg("rect", { class: "ring", x: x - 1, y: top - 1, width: 46, height: 46, rx: 23 }));
      const coinsAbout = { title: t.n("{n} gold coin", "{n} gold coins", info.coins) };
      kit.info(coin, coinsAbout);
      if (mine) kit.target(coin, byRange("pay_coins"), { key: "coins", info: coinsAbout });
      row.append(coin);
      x = first;
      const next = () => {
        x += 48;
        if (x + 46 > x0 + width - 8) {
          x = first;
          top += 50;
        }
      };
      const uses = byRange("use");
      const treasures = byRange("pay_treasure");
      const gifts = byRange("give");
      for (const [kind, count] of Object.entries(info.tiles)) {
        const chip = svg("g", { class: `chip${mine ? "" : " hidden-info"}`, "data-kind": kind });
        chip.append(drawTile(kind, x, top, 44));
        if (count > 1) chip.append(svg("text", { class: "count", x: x + 42, y: top + 42, "text-anchor": "end" }, `×${count}`));
        chip.append(svg("rect", { class: "ring", x: x - 2, y: top - 2, width: 48, height: 48, rx: 6 }));
        const about = () => {
          const entry = kit.entry(tileHelpKey(kind));
          return { title: `${count} × ${tileName(kind)}`, numbers: entry ? entry.name : "", text: entry ? entry.text : "" };
        };
        kit.info(chip, about);
        if (mine) {
          const fam = family(kind);
          const actions = [
            ...(fam === "item" ? uses.filter((a) => a[3] === ITEMS.indexOf(kind)) : []),
            ...(fam === "treasure" ? treasures.filter((a) => a[3] === TREASURES.indexOf(Number(kind.split(" ")[1]))) : []),
            ...gifts.filter((a) => a[3] === KINDS.indexOf(kind)),
          ];
          kit.target(chip, actions, { key: `tile:${kind}`, title: tileName(kind), info: about });
        }
        row.append(chip);
        next();
      }
      if (info.face_down_tiles) {
        const chip = svg("g", { class: "chip face-down" });
        chip.append(svg("rect", { x, y: top, width: 44, height: 44, rx: 5 }));
        chip.append(svg("text", { x: x + 22, y: top + 28, "text-anchor": "middle", "font-size": 15 }, `?×${info.face_down_tiles}`));
        kit.info(chip, { title: t.n("{n} tile received face down", "{n} tiles received face down", info.face_down_tiles) });
        row.append(chip);
        next();
      }
      const bottom = (x === first ? top : top + 50) + 2;
      panel.setAttribute("height", String(Math.max(bottom - y, 76)));
      group.append(row);
      y = Math.max(bottom, y + 76) + 8;
    });
    return { group, bottom: y };
  }

  function status(view, width) {
    const phases = {
      choose: t("choosing cards"), turn: t("digging"), pay: t("paying for the dig"),
      give: t("handing out tiles"), end: t("game over"),
    };
    const parts = [t("Round {round} of {rounds}", { round: view.round, rounds: view.rounds }), phases[view.phase] || view.phase];
    const turn = view.turn;
    if (turn) {
      parts.push(t.n("{n} move", "{n} moves", turn.moves));
      if (turn.items_used.length) parts.push(t("using {items}", { items: turn.items_used.map(tileName).join(", ") }));
      if (turn.owed) parts.push(t("owes {owed}", { owed: turn.owed }));
      if (turn.dug.length) parts.push(t("dug {tiles}", { tiles: turn.dug.map(([sq, k]) => `${tileName(k)} (${sq})`).join(", ") }));
    }
    return joined(parts, " · ", Math.floor(width / 8));
  }

  function draw() {
    kit.begin(frame);
    const view = frame.view;
    const legal = frame.legal || [];
    WIDTH = kit.fit(IDEAL, 330).width;
    const wide = WIDTH >= TWO_COLUMNS;
    const caveSpace = wide ? Math.min(520, WIDTH * 0.55) : WIDTH;
    CELL = Math.floor(Math.min(84, (caveSpace - CAVE_X - 6) / SIZE));
    const board = svg("svg", { class: "solomon", viewBox: `0 0 ${WIDTH} 100`, role: "group", "aria-label": t("King Solomon's Treasury") });
    const lines = status(view, caveSpace - CAVE_X);
    lines.forEach((line, i) => board.append(svg("text", { class: "status", x: CAVE_X, y: 17 + i * 19 }, line)));
    const caveDrawn = drawCave(view, legal, CAVE_X, 10 + lines.length * 19);
    cave = caveDrawn.group;
    board.append(cave);
    const turnCard = drawTurnCard(view, CAVE_X, caveDrawn.bottom + 10, caveSpace - CAVE_X, caveDrawn.orientations);
    board.append(turnCard.group);
    const rightX = wide ? CAVE_X + SIZE * CELL + 24 : CAVE_X;
    const rightW = wide ? WIDTH - rightX : WIDTH - CAVE_X;
    const hand = drawHand(view, legal, rightX, wide ? 10 : turnCard.bottom + 8, rightW);
    board.append(hand.group);
    const seats = drawSeats(view, legal, rightX - 4, hand.bottom + 8, rightW + 4);
    board.append(seats.group);
    const supply = view.supply;
    let bottom = wide ? Math.max(seats.bottom, turnCard.bottom) : seats.bottom;
    const treasures = Object.entries(supply.treasures).map(([k, c]) => `${c}× ${tileName(k)}`);
    const coins = `${t("Supply")}: ${t.n("{n} gold coin", "{n} gold coins", supply.coins)}`;
    const supplyLines = joined([coins, ...treasures], ", ", Math.floor((WIDTH - CAVE_X) / 7));
    supplyLines.forEach((line, i) => board.append(svg("text", { class: "supply", x: CAVE_X, y: bottom + 15 + i * 17 }, line)));
    bottom += 12 + supplyLines.length * 17;
    board.setAttribute("viewBox", `0 0 ${WIDTH} ${bottom}`);
    holder.replaceChildren(board);
    kit.end();
  }

  return {
    update(next) {
      frame = next;
      draw();
    },
    destroy() {
      kit.destroy();
      holder.remove();
      link.remove();
      root.classList.remove("solomon-board");
    },
  };
}
