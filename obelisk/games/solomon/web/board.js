// The board of King Solomon's Treasury: the 6×6 cave of stacks, the excavation cards, every seat's coins and
// tiles. Drawn only from the frame's view and legal actions; component texts from the game's help.
const NS = "http://www.w3.org/2000/svg";
const SIZE = 6;
const CELL = 70;
const WIDTH = 600;
const CAVE_X = 24;
const FADE_MS = 4000;
/** Cards drawn side by side before a new row starts. */
const PER_ROW = 7;
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

/** `parts` joined by `separator` into lines of about 72 characters, breaking only between parts. */
function joined(parts, separator) {
  const lines = [];
  for (const part of parts) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && last.length + part.length < 72) lines[lines.length - 1] = `${last}${separator}${part}`;
    else lines.push(part);
  }
  return lines;
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
  root.classList.add("solomon-board");
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/games/solomon/board.css";
  root.append(link);
  const holder = document.createElement("div");
  holder.className = "solomon-holder";
  root.append(holder);
  const menu = document.createElement("div");
  menu.className = "solomon-menu";
  menu.hidden = true;
  root.append(menu);

  let frame = null;
  let previous = null;
  let help = {};
  let orientation = null;
  /** When each square (`s<n>`) and seat (`p<n>`) last changed: highlighted until FADE_MS after that. */
  const changedAt = new Map();
  const fadeTimers = new Set();
  let cave = null;

  fetch(`/api/games/solomon/help?lang=${encodeURIComponent(ctx.lang)}`, { headers: { Accept: "application/json" } })
    .then((response) => (response.ok ? response.json() : null))
    .then((doc) => {
      if (!doc) return;
      help = Object.fromEntries(doc.entries.map((entry) => [entry.key, entry]));
      if (frame) draw();
    }, () => {});

  function helpText(key) {
    const entry = help[key];
    if (!entry) return "";
    const numbers = Object.entries(entry.numbers || {}).map(([label, value]) => `${label} ${value}`).join(", ");
    return `${entry.name}${numbers ? ` — ${numbers}` : ""}\n${entry.text}`;
  }

  function tileHelp(kind) {
    const fam = family(kind);
    return helpText(fam === "item" ? `magic:${kind.toLowerCase()}` : HELP_KEYS[fam]);
  }

  function tileName(kind) {
    return t.term("tile", kind);
  }

  let opener = null;

  function closeMenu() {
    opener = null;
    menu.hidden = true;
    menu.replaceChildren();
    preview([]);
  }

  function play(action) {
    closeMenu();
    ctx.play(action[0]);
  }

  /** Makes `node` a target of `actions`: one plays at once, several open a menu of their labels. */
  function target(node, actions, squares = () => []) {
    node.classList.add("target");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", actions.length === 1 ? actions[0][1] : actions.map((a) => a[1]).join("; "));
    node.dataset.actions = actions.map((a) => a[0]).join(" ");
    const activate = (event) => {
      event.stopPropagation();
      if (actions.length === 1) play(actions[0]);
      else openMenu(node, actions, squares);
    };
    node.addEventListener("click", activate);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        activate(event);
      }
    });
    const main = actions.length === 1 ? actions[0] : actions.find((a) => a[2] === "dig");
    const show = () => preview(main ? squares(main) : []);
    node.addEventListener("mouseenter", show);
    node.addEventListener("focus", show);
    node.addEventListener("mouseleave", () => preview([]));
    node.addEventListener("blur", () => preview([]));
  }

  function openMenu(node, actions, squares) {
    menu.replaceChildren();
    opener = node;
    for (const action of actions) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = action[1];
      button.addEventListener("click", (event) => {
        event.stopPropagation();
        play(action);
      });
      button.addEventListener("mouseenter", () => preview(squares(action)));
      button.addEventListener("focus", () => preview(squares(action)));
      menu.append(button);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "solomon-cancel";
    cancel.textContent = t("cancel");
    cancel.addEventListener("click", (event) => {
      event.stopPropagation();
      closeMenu();
      node.focus();
    });
    menu.append(cancel);
    const box = root.getBoundingClientRect();
    const at = node.getBoundingClientRect();
    menu.hidden = false;
    const left = Math.max(0, Math.min(at.left - box.left, box.width - menu.offsetWidth));
    menu.style.left = `${left}px`;
    menu.style.top = `${at.bottom - box.top + 4}px`;
    menu.querySelector("button").focus();
  }

  menu.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const back = opener;
    closeMenu();
    if (back) back.focus();
  });
  root.addEventListener("click", () => closeMenu());

  /** Highlights the cave squares an action would take or move (its dig area, a move's two squares). */
  function preview(squares) {
    if (!cave) return;
    for (const node of cave.querySelectorAll(".preview")) node.classList.remove("preview");
    for (const sq of squares) {
      const cell = cave.querySelector(`[data-square="${sq}"]`);
      if (cell) cell.classList.add("preview");
    }
  }

  /** The squares each legal dig takes, from the card on turn and the action's orientation and anchor. */
  function digSquares(view, action) {
    const index = action[3];
    const o = Math.floor(index / 36);
    const anchor = index % 36;
    const cells = transform(view.card_shapes[String(view.turn.card)] || [], o);
    return cells.map(([r, c]) => anchor + r * SIZE + c);
  }

  function moveSquares(action) {
    const from = Math.floor(action[3] / 8);
    const [dr, dc] = DIRECTIONS[action[3] % 8];
    return [from, from + dr * SIZE + dc];
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
    group.append(svg("text", {
      x: x + size / 2, y: y + size / 2 + (long ? size * 0.06 : size * 0.14), "text-anchor": "middle",
      "font-size": long ? Math.min(size * 0.22, (size * 1.6) / Math.max(mark.length, 1)) : size * 0.42,
    }, mark));
    if (fam === "curse") {
      group.append(svg("text", { x: x + size / 2, y: y + size * 0.22, "text-anchor": "middle", "font-size": size * 0.16 }, "☠"));
    }
    return group;
  }

  function drawCave(view, legal, y0) {
    const group = svg("g", { class: "cave" });
    const x0 = CAVE_X;
    group.append(svg("rect", { class: "entrance", x: x0, y: y0, width: CELL * SIZE, height: 16, rx: 4 }));
    group.append(svg("text", { class: "entrance-text", x: x0 + (CELL * SIZE) / 2, y: y0 + 12, "text-anchor": "middle" },
      t("cave entrance")));
    const top = y0 + 34;
    for (let c = 0; c < SIZE; c += 1) {
      group.append(svg("text", { class: "coord", x: x0 + c * CELL + CELL / 2, y: top - 4, "text-anchor": "middle" }, "ABCDEF"[c]));
    }
    for (let r = 0; r < SIZE; r += 1) {
      group.append(svg("text", { class: "coord", x: x0 - 8, y: top + r * CELL + CELL / 2 + 4, "text-anchor": "middle" }, String(r + 1)));
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
      else if (action[2] === "dig" && Math.floor(action[3] / 36) === orientation) add(digSquares(view, action)[0], action);
    }
    const sealed = new Set((view.turn ? view.turn.seal_squares : []));
    for (let sq = 0; sq < SIZE * SIZE; sq += 1) {
      const x = x0 + (sq % SIZE) * CELL;
      const y = top + Math.floor(sq / SIZE) * CELL;
      const height = view.heights[sq];
      const stack = view.stacks[sq] || [];
      const kind = stack.length ? stack[stack.length - 1] : null;
      const cell = svg("g", { class: `square level-${height}`, "data-square": sq });
      mark(cell, `s${sq}`);
      if (sealed.has(squareName(sq))) cell.classList.add("sealed");
      cell.append(svg("rect", { class: "ground", x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 6 }));
      for (let level = 1; level < height; level += 1) {
        cell.append(svg("rect", { class: "layer", x: x + 6 + level * 3, y: y + 6 + level * 3, width: CELL - 22, height: CELL - 22, rx: 5 }));
      }
      const inset = 6 + height * 3;
      if (height && kind) cell.append(drawTile(kind, x + inset - 3, y + inset - 3, CELL - 22));
      else if (height) cell.append(svg("rect", { class: "unseen", x: x + inset - 3, y: y + inset - 3, width: CELL - 22, height: CELL - 22, rx: 5 }));
      cell.append(svg("text", { class: "height", x: x + 6, y: y + CELL - 6 }, String(height)));
      cell.append(svg("rect", { class: "ring", x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 6 }));
      const what = kind ? tileName(kind) : (height ? t("not yet seen") : t("dug out"));
      const lines = [`${squareName(sq)} · ${t.n("{n} tile", "{n} tiles", height)} · ${t("top tile")}: ${what}`];
      if (kind) lines.push(tileHelp(kind));
      cell.append(svg("title", {}, lines.filter(Boolean).join("\n")));
      const actions = perSquare.get(sq);
      if (actions) {
        target(cell, actions, (action) => (action[2] === "dig" ? digSquares(view, action)
          : action[2] === "move" ? moveSquares(action) : [action[3]]));
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
    group.append(svg("text", { class: "number", x: x + 6, y: y + 15 }, String(number)));
    group.append(svg("text", { class: "arrow", x: x + width - 8, y: y + 15, "text-anchor": "end" }, o ? "⟲" : "↑"));
    const cols = Math.max(...shape.map((p) => p[1])) + 1;
    const rows = Math.max(...shape.map((p) => p[0])) + 1;
    group.append(drawShape(shape, x + (width - cols * unit) / 2, y + 22 + (60 - rows * unit) / 2, unit, "shape"));
    group.append(svg("rect", { class: "ring", x: x - 2, y: y - 2, width: width + 4, height: height + 4, rx: 7 }));
    group.append(svg("title", {}, helpText(`card:${number}`) || t("Card {number}", { number })));
    return group;
  }

  function drawCards(view, legal, y0, orientations) {
    const group = svg("g", { class: "cards" });
    let y = y0;
    const turn = view.turn;
    if (turn && turn.card !== null && view.card_shapes[String(turn.card)]) {
      const cells = view.card_shapes[String(turn.card)];
      group.append(svg("text", { class: "heading", x: CAVE_X, y: y + 14 },
        t("Seat {seat} digs with card {card}", { seat: turn.seat, card: turn.card })));
      y += 22;
      const shown = orientations.length > 1 ? orientations : [orientation ?? 0];
      shown.forEach((o, i) => {
        const card = drawCard(turn.card, cells, CAVE_X + (i % PER_ROW) * 82, y + Math.floor(i / PER_ROW) * 94, o,
          o === orientation ? " current" : "");
        if (orientations.length > 1) {
          card.classList.add("target");
          card.setAttribute("tabindex", "0");
          card.setAttribute("role", "button");
          card.setAttribute("aria-label", t("turn the card this way"));
          card.setAttribute("aria-pressed", String(o === orientation));
          const pick = (event) => {
            event.stopPropagation();
            orientation = o;
            draw();
            const again = holder.querySelector(`.card.current`);
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
        group.append(card);
      });
      y += Math.ceil(shown.length / PER_ROW) * 94 + 2;
    }
    if (view.seat !== null && view.hand.length) {
      const chosen = view.my_choice !== null ? ` (${t("chosen: card {card}", { card: view.my_choice })})` : "";
      group.append(svg("text", { class: "heading", x: CAVE_X, y: y + 14 }, t("Your excavation cards") + chosen));
      y += 22;
      const choose = legal.filter((a) => a[2] === "choose").sort((a, b) => a[3] - b[3]);
      const numbers = [...view.hand].sort((a, b) => a - b);
      const byNumber = new Map(choose.length === numbers.length ? numbers.map((n, i) => [n, choose[i]]) : []);
      view.hand.forEach((number, i) => {
        const x = CAVE_X + (i % PER_ROW) * 82;
        const cy = y + Math.floor(i / PER_ROW) * 94;
        const card = drawCard(number, view.card_shapes[String(number)] || [[0, 0]], x, cy, 0,
          number === view.my_choice ? " chosen" : "");
        const action = byNumber.get(number);
        if (action) target(card, [action]);
        group.append(card);
      });
      y += Math.ceil(view.hand.length / PER_ROW) * 94;
    }
    return { group, bottom: y };
  }

  /** Every seat's coins and tiles; what the physical game keeps behind a screen is marked as such. */
  function drawSeats(view, legal, y0) {
    const group = svg("g", { class: "seats" });
    let y = y0;
    const me = view.seat;
    const byRange = (name) => legal.filter((a) => a[2] === name);
    view.seats.forEach((info, q) => {
      const mine = q === me;
      const row = svg("g", { class: `seat${mine ? " mine" : ""}${view.current_player === q ? " to-act" : ""}`, "data-seat": q });
      mark(row, `p${q}`);
      const panel = svg("rect", { class: "panel", x: 4, y, width: WIDTH - 8, height: 84, rx: 8 });
      row.append(panel);
      const name = mine ? t("Seat {seat} (you)", { seat: q }) : t("Seat {seat}", { seat: q });
      const parts = [t.n("{n} card in hand", "{n} cards in hand", info.hand_size)];
      if (info.has_chosen) parts.push(t("has chosen"));
      row.append(svg("text", { class: "seat-name", x: 14, y: y + 18 }, `${name} · ${parts.join(" · ")}`));
      if (!mine && !view.terminal) {
        const note = svg("text", { class: "screen-note", x: WIDTH - 14, y: y + 18, "text-anchor": "end" }, t("behind the screen"));
        note.append(svg("title", {}, t("In the box game coins and tiles stay behind the player's screen; here they are remembered from the open digs.")));
        row.append(note);
      }
      let top = y + 28;
      if (info.played.length) {
        row.append(svg("text", { class: "played", x: 14, y: y + 34 }, t("played {cards}", { cards: info.played.join(" ") })));
        top += 14;
      }
      const first = 66;
      let x = 14;
      const coin = svg("g", { class: `chip coins${mine ? "" : " hidden-info"}` });
      coin.append(svg("circle", { cx: x + 22, cy: top + 22, r: 21 }));
      coin.append(svg("text", { x: x + 22, y: top + 28, "text-anchor": "middle", "font-size": 17 }, String(info.coins)));
      coin.append(svg("rect", { class: "ring", x: x - 1, y: top - 1, width: 46, height: 46, rx: 23 }));
      coin.append(svg("title", {}, t.n("{n} gold coin", "{n} gold coins", info.coins)));
      if (mine) {
        const pay = byRange("pay_coins");
        if (pay.length) target(coin, pay);
      }
      row.append(coin);
      x = first;
      const next = () => {
        x += 48;
        if (x + 46 > WIDTH - 8) {
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
        chip.append(svg("title", {}, `${count} × ${tileName(kind)}\n${tileHelp(kind)}`));
        if (mine) {
          const fam = family(kind);
          const actions = [
            ...(fam === "item" ? uses.filter((a) => a[3] === ITEMS.indexOf(kind)) : []),
            ...(fam === "treasure" ? treasures.filter((a) => a[3] === TREASURES.indexOf(Number(kind.split(" ")[1]))) : []),
            ...gifts.filter((a) => a[3] === KINDS.indexOf(kind)),
          ];
          if (actions.length) target(chip, actions);
        }
        row.append(chip);
        next();
      }
      if (info.face_down_tiles) {
        const chip = svg("g", { class: "chip face-down" });
        chip.append(svg("rect", { x, y: top, width: 44, height: 44, rx: 5 }));
        chip.append(svg("text", { x: x + 22, y: top + 28, "text-anchor": "middle", "font-size": 15 }, `?×${info.face_down_tiles}`));
        chip.append(svg("title", {}, t.n("{n} tile received face down", "{n} tiles received face down", info.face_down_tiles)));
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

  function status(view) {
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
    return joined(parts, " · ");
  }

  /** Board buttons for the actions no piece stands for: end the turn, and anything not drawn elsewhere. */
  function drawButtons(legal, placed, y0) {
    const group = svg("g", { class: "buttons" });
    const rest = legal.filter((a) => !placed.has(a[0]));
    let x = CAVE_X;
    let y = y0;
    for (const action of rest) {
      const width = Math.min(WIDTH - 2 * CAVE_X, 16 + action[1].length * 8);
      if (x + width > WIDTH - CAVE_X) {
        x = CAVE_X;
        y += 40;
      }
      const button = svg("g", { class: "button" });
      button.append(svg("rect", { x, y, width, height: 32, rx: 6 }));
      button.append(svg("text", { x: x + width / 2, y: y + 21, "text-anchor": "middle" }, action[1]));
      button.append(svg("rect", { class: "ring", x: x - 2, y: y - 2, width: width + 4, height: 36, rx: 7 }));
      target(button, [action]);
      group.append(button);
      x += width + 8;
    }
    return { group, bottom: rest.length ? y + 40 : y0 };
  }

  function draw() {
    const view = frame.view;
    const legal = frame.legal || [];
    const focused = holder.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused ? focused.getAttribute("aria-label") : null;
    closeMenu();
    const board = svg("svg", { class: "solomon", viewBox: `0 0 ${WIDTH} 100`, role: "group", "aria-label": t("King Solomon's Treasury") });
    const lines = status(view);
    lines.forEach((line, i) => board.append(svg("text", { class: "status", x: CAVE_X, y: 16 + i * 18 }, line)));
    const caveDrawn = drawCave(view, legal, 10 + lines.length * 18);
    cave = caveDrawn.group;
    board.append(cave);
    const cards = drawCards(view, legal, caveDrawn.bottom + 10, caveDrawn.orientations);
    board.append(cards.group);
    // Digs in every orientation are reached by turning the card first, then clicking a square.
    const placed = new Set(legal.filter((a) => a[2] === "dig").map((a) => a[0]));
    for (const node of board.querySelectorAll("[data-actions]")) {
      for (const id of node.dataset.actions.split(" ")) placed.add(Number(id));
    }
    const seats = drawSeats(view, legal, cards.bottom + 8);
    for (const node of seats.group.querySelectorAll("[data-actions]")) {
      for (const id of node.dataset.actions.split(" ")) placed.add(Number(id));
    }
    const buttons = drawButtons(legal, placed, cards.bottom + 8);
    seats.group.setAttribute("transform", `translate(0 ${buttons.bottom - cards.bottom - 8})`);
    board.append(buttons.group, seats.group);
    const supply = view.supply;
    const bottom = seats.bottom + (buttons.bottom - cards.bottom - 8);
    const treasures = Object.entries(supply.treasures).map(([k, c]) => `${c}× ${tileName(k)}`);
    const coins = `${t("Supply")}: ${t.n("{n} gold coin", "{n} gold coins", supply.coins)}`;
    const supplyLines = joined([coins, ...treasures], ", ");
    supplyLines.forEach((line, i) => board.append(svg("text", { class: "supply", x: CAVE_X, y: bottom + 14 + i * 16 }, line)));
    board.setAttribute("viewBox", `0 0 ${WIDTH} ${bottom + 10 + supplyLines.length * 16}`);
    holder.replaceChildren(board);
    if (focused) {
      const targets = [...board.querySelectorAll(".target")];
      const again = targets.find((node) => node.getAttribute("aria-label") === focusKey) || targets[0];
      if (again) again.focus();
    }
  }

  /** Highlights `node` while the thing `key` names changed less than FADE_MS ago, the fade already under way. */
  function mark(node, key) {
    const at = changedAt.get(key);
    if (at === undefined) return;
    node.classList.add("changed");
    node.style.setProperty("--solomon-fade-delay", `${at - performance.now()}ms`);
  }

  /** The keys of the squares and seats that differ between two views. */
  function diff(before, after) {
    const keys = [];
    if (!before) return keys;
    for (let sq = 0; sq < SIZE * SIZE; sq += 1) {
      const a = before.stacks[sq] || [];
      const b = after.stacks[sq] || [];
      if (before.heights[sq] !== after.heights[sq] || a[a.length - 1] !== b[b.length - 1]) keys.push(`s${sq}`);
    }
    after.seats.forEach((info, q) => {
      const old = before.seats[q];
      if (!old || old.coins !== info.coins || JSON.stringify(old.tiles) !== JSON.stringify(info.tiles)
        || old.face_down_tiles !== info.face_down_tiles) keys.push(`p${q}`);
    });
    return keys;
  }

  return {
    update(next) {
      frame = next;
      const found = diff(previous, next.view);
      previous = next.view;
      if (found.length) {
        const now = performance.now();
        for (const key of found) changedAt.set(key, now);
        const timer = setTimeout(() => {
          fadeTimers.delete(timer);
          for (const key of found) {
            if (changedAt.get(key) !== now) continue;
            changedAt.delete(key);
            const node = key[0] === "s" ? holder.querySelector(`[data-square="${key.slice(1)}"]`)
              : holder.querySelector(`[data-seat="${key.slice(1)}"]`);
            if (node) node.classList.remove("changed");
          }
        }, FADE_MS);
        fadeTimers.add(timer);
      }
      draw();
    },
    destroy() {
      for (const timer of fadeTimers) clearTimeout(timer);
      root.replaceChildren();
      root.classList.remove("solomon-board");
    },
  };
}
