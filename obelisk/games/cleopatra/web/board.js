// Cleopatra's board: the palace garden with its walls, door frames, dais and throne, the Sphinx square
// with Cleopatra's path, obelisks and the High Priest's altar, the mosaic stack, the market stalls, the
// architects and the seat's own hand. Drawn only from `frame.view` and `frame.legal` (docs/web.md
// "Boards"); the board kit (/static/boardkit.js) plays, opens menus, shows texts on tap and what changed.
import { createKit, previewOf, wrap } from "/static/boardkit.js";

const SVG = "http://www.w3.org/2000/svg";
/** The widest layout in drawing units (a wider board is scaled up); narrower boards stack their parts. */
const IDEAL = 900;
const CARD_W = 84;
const CARD_H = 48;
const CARD_STEP = CARD_W + 6;
const SEAT_COLOURS = ["#c0392b", "#2471a3", "#229954", "#b7950b", "#7d3c98"];
const RESOURCES = ["artisan", "stone", "marble", "wood", "lapis"];
const KIND_NAMES = [
  "Artisan", "Stone", "Marble", "Wood", "Lapis",
  "Tainted Artisan", "Tainted Stone", "Tainted Marble", "Tainted Wood", "Tainted Lapis",
  "Trompe-l'oeil", "Beggars", "Courtesans", "Envoys", "Scribes", "Smugglers", "Vizier",
];
const KIND_COLOURS = {
  artisan: "#e8c39e", stone: "#b3b6b7", marble: "#f4f6f7", wood: "#a9744f", lapis: "#8fb3e6",
  trompe: "#d7bde2", character: "#f5b7b1",
};
const CHARACTER_PLAYS = ["Beggars", "Courtesans", "Envoys", "Scribes", "Scribes", "Smugglers", "Vizier"];
const SOURCES = ["card", "tainted", "trompe", "merchant"];
const WALL_IDS = ["L1", "L2", "L3", "C1", "C2", "C3", "R3", "R2", "R1"];
const DOOR_IDS = ["left", "right"];
const SPHINXES = 6;
const OBELISKS = 2;
const STALL_NAMES = ["A", "B", "C"];
const CATEGORY_NAMES = {
  walls: "Wall", sphinxes: "Sphinx", throne: "Pedestal and Throne", obelisks: "Obelisk", doors: "Door frame",
  mosaics: "Mosaic of the Gods",
};
const TILE_COLOURS = ["#e59866", "#f7dc6f", "#82e0aa", "#76d7c4", "#85c1e9", "#bb8fce", "#f1948a", "#f8c471",
  "#aed6f1", "#a3e4d7", "#d2b4de", "#f5cba7"];
/** Actions no piece stands for: the page's bar offers them. */
const BUTTON_RANGES = ["finish", "no_claim", "offer_done", "accept_done", "keep", "reject", "end_turn",
  "limit_discard", "limit_keep", "pass"];

/** The help key of a component named `name` (the data file's `name_key`: lower case, words joined by `_`). */
function nameKey(name) {
  return String(name).toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
}

function kindOf(name) {
  const index = KIND_NAMES.indexOf(name);
  if (index < 0) return "character";
  if (index < 10) return RESOURCES[index % 5];
  return index === 10 ? "trompe" : "character";
}

export function mount(root, ctx) {
  const t = ctx.t;
  let targets = new Map();
  const kit = createKit(root, ctx, {
    label: t("Cleopatra's palace"),
    // What the engine's preview names: garden cells, hand cards, walls; and the piece itself.
    preview: (action, marks) => [...(frame ? targetKeys(action, frame.view) : []),
      ...marks.flatMap((mark) => [`cell:${mark}`, `hand:${mark}`, `wall:${WALL_IDS.indexOf(mark)}`])]
      .map((key) => targets.get(key)),
  });
  let WIDTH = IDEAL;
  let CELL = 36;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/games/cleopatra/board.css";
  document.head.appendChild(link);
  root.classList.add("cl-root");
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "cl-board");
  svg.setAttribute("role", "group");
  root.prepend(svg);

  let help = {};
  let frame = null;

  kit.ready.then((doc) => {
    help = Object.fromEntries(((doc && doc.entries) || []).map((entry) => [entry.key, entry]));
    if (frame) draw();
  });
  kit.onResize(() => {
    if (frame) draw();
  });

  function el(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(parent, x, y, content, cls, anchor) {
    const node = el("text", { x, y, class: cls || "cl-text", "text-anchor": anchor || "start" }, parent);
    node.textContent = content;
    return node;
  }

  /** Lines of text wrapped to `width` units at about `charW` units a character; returns the y below them. */
  function lines(parent, x, y, content, cls, width, charW, step) {
    for (const line of wrap(content, Math.max(8, Math.floor(width / charW)))) {
      text(parent, x, y, line, cls);
      y += step;
    }
    return y;
  }

  function cardName(name) {
    return name === "face-down" ? t("face-down") : t.term("card", name);
  }

  function categoryName(category) {
    const entry = help[`piece:${category}`];
    return entry ? entry.name : t.term("piece", CATEGORY_NAMES[category] || category);
  }

  function entryText(key, fallback) {
    const entry = help[key];
    if (!entry) return { title: fallback, text: "" };
    const numbers = Object.entries(entry.numbers || {}).map(([label, value]) => `${label}: ${value}`).join(" · ");
    return { title: `${entry.name} (${entry.kind})`, numbers, text: entry.text };
  }

  /** A drawn item: `key` names it across frames, `sig` is what it shows (a change is highlighted), `about` its text. */
  function item(parent, key, sig, about) {
    const group = el("g", { "data-key": key, class: "cl-item" }, parent);
    kit.item(group, key, sig);
    if (about) {
      kit.info(group, about);
      group.dataset.info = about.title;
    }
    targets.set(key, group);
    return group;
  }

  /** Which drawn item each legal action is about (the button row takes the rest). */
  function targetKeys(action, view) {
    const [, , range, index] = action;
    switch (range) {
      case "take": return [`stall:${index}`];
      case "refill": return ["pending"];
      case "wall": return [`wall:${index}`];
      case "door": return [`door:${index}`];
      case "sphinx": return [`sphinx:${view.sphinxes.length}`];
      case "pedestal": case "throne": return ["dais"];
      case "obelisk": return [`obelisk:${view.obelisks.length}`];
      case "mosaic": return [`tile:${tileIds(view)[index]}`];
      case "place": {
        const cells = marksOf(action);
        return cells.length ? [`cell:${cells[0]}`] : [];
      }
      case "claim": return (view.claimable[index] || []).map((c) => `cell:${c}`);
      case "pay": {
        const resource = Math.floor(index / 4);
        const source = SOURCES[index % 4];
        if (source === "merchant") return ["merchants:me"];
        if (source === "trompe") return [`hand:${KIND_NAMES[10]}`];
        return [`hand:${KIND_NAMES[source === "tainted" ? resource + 5 : resource]}`];
      }
      case "play": return [`hand:${CHARACTER_PLAYS[index]}`];
      case "courtesan": return [`discard:${KIND_NAMES[index]}`];
      case "give_talents": return ["talents:me"];
      case "give_card": case "offer": case "discard": return [`hand:${KIND_NAMES[index]}`];
      case "accept": return [`offer:${Math.floor(index / 5)}:${KIND_NAMES[index % 5]}`];
      default: return [];
    }
  }

  function tileIds(view) {
    const ids = new Set([...(view.stack_top ? [view.stack_top] : []), ...view.stack_others, ...view.removed_tiles,
      ...view.mosaics.map((m) => m[0])]);
    return [...ids].sort();
  }

  /** The names the engine's preview of `action` gives (the cells a mosaic would cover), none without one. */
  function marksOf(action) {
    const preview = previewOf(frame, action[0]);
    return preview ? preview.marks : [];
  }

  function cellName(row, col) {
    return `${String.fromCharCode(97 + col)}${row + 1}`;
  }

  function draw() {
    kit.begin(frame);
    const view = frame.view;
    const seat = frame.seat;
    WIDTH = kit.fit(IDEAL, 330).width;
    targets = new Map();
    svg.textContent = "";
    let y = drawHeader(view, seat, 0);
    y = drawPalace(view, y);
    y = drawMarket(view, y);
    y = drawPlayers(view, seat, y);
    if (seat !== null && seat !== undefined) y = drawHand(view, seat, y);
    bindActions(view);
    if (frame.legal.some((a) => a[2] === "bid") || view.offering) y = drawOffering(view, seat, y);
    svg.setAttribute("viewBox", `0 0 ${WIDTH} ${Math.ceil(y + 8)}`);
    kit.end();
  }

  function drawHeader(view, seat, y) {
    const roundText = view.max_rounds
      ? t("Round {round} of {limit}", { round: Math.min(view.round, view.max_rounds), limit: view.max_rounds })
      : t("Round {round}", { round: view.round });
    const who = view.phase === "end" ? t("game over") : t("{player} to act", { player: kit.seatName(view.actor) });
    let line = lines(svg, 12, y + 22, `${roundText} · ${who} · ${phaseText(view.phase)}`, "cl-head", WIDTH - 24, 9, 21) + 2;
    if (view.piece) {
      const pay = Object.entries(view.to_pay).map(([r, n]) => `${n}× ${cardName(KIND_NAMES[RESOURCES.indexOf(r)])}`);
      const credit = Object.entries(view.credit).map(([r, n]) => `${n}× ${cardName(KIND_NAMES[RESOURCES.indexOf(r)])}`);
      let status = t("Building: {piece}", { piece: pieceName(view.piece) });
      if (pay.length) status += ` · ${t("to pay: {units}", { units: pay.join(", ") })}`;
      if (credit.length) status += ` · ${t("tainted halves left: {units}", { units: credit.join(", ") })}`;
      line = lines(svg, 12, line, status, "cl-small", WIDTH - 24, 7.4, 18);
    } else if (view.pieces_built) {
      line = lines(svg, 12, line, t.n("{n} piece built this turn", "{n} pieces built this turn", view.pieces_built), "cl-small", WIDTH - 24, 7.4, 18);
    }
    return line;
  }

  function pieceName(piece) {
    const [kind, index] = piece;
    const category = { wall: "walls", sphinx: "sphinxes", pedestal: "throne", throne: "throne", obelisk: "obelisks",
      door: "doors", mosaic: "mosaics" }[kind] || kind;
    let name = categoryName(category);
    if (kind === "wall") name += ` ${WALL_IDS[index] || ""}`;
    if (kind === "mosaic") name += ` ${tileIds(frame.view)[index] || ""}`;
    return name.trim();
  }

  function phaseText(phase) {
    const names = {
      setup: t("setting up"), turn: t("choosing an action"), refill: t("refilling the stalls"),
      build: t("building"), pay: t("paying for the building"), place: t("placing the piece"),
      claim: t("claiming sanctuaries"), tiles: t("laying a mosaic"), after: t("after the action"),
      limit: t("hand limit"), limit_discard: t("discarding down to the hand limit"),
      beggars: t("the Beggars' demand"), courtesans: t("the Courtesans"), vizier: t("the Vizier"),
      envoy_offer: t("the Envoys: offering"), envoy_accept: t("the Envoys: accepting"),
      offering: t("the Offering"), dice: t("Cleopatra's dice"), end: t("game over"),
    };
    return names[phase] || phase;
  }

  function drawPalace(view, top) {
    const rows = view.garden.length;
    const cols = view.garden[0].length;
    const x0 = 40;
    const beside = WIDTH >= 40 + cols * 36 + 28 + 170;
    CELL = Math.min(36, Math.floor((WIDTH - x0 - 24) / cols));
    const y0 = top + 42;
    const gardenW = cols * CELL;
    const gardenH = rows * CELL;
    const layer = el("g", { class: "cl-palace" }, svg);
    text(layer, x0 - 28, top + 14, t("Palace gardens"), "cl-label");
    el("rect", { x: x0 - 16, y: y0 - 16, width: gardenW + 32, height: gardenH + 16, class: "cl-palace-ground" }, layer);
    const sanctuaryOwner = {};
    for (const [owner, cells] of view.sanctuaries) for (const cell of cells) sanctuaryOwner[cell] = owner;
    const ids = tileIds(view);
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        const symbol = view.garden[r][c];
        const name = cellName(r, c);
        if (symbol === "#") continue;
        const x = x0 + c * CELL;
        const yy = y0 + r * CELL;
        let about = { title: t("garden cell {cell}", { cell: name }), text: "" };
        if (/[A-Z]/.test(symbol)) about = { ...entryText("piece:mosaics", categoryName("mosaics")), title: `${categoryName("mosaics")} ${symbol} · ${name}` };
        else if (symbol === "*") about = { title: t("palm at {cell}", { cell: name }), text: t("a mosaic covering it earns 1 talent more") };
        else if (name in sanctuaryOwner) about = { ...entryText("kit:anubis_statue", t("sanctuary")), title: t("{player}'s sanctuary at {cell}", { player: kit.seatName(sanctuaryOwner[name]), cell: name }) };
        const group = item(layer, `cell:${name}`, symbol, about);
        let fill = "#f3e5c0";
        if (/[A-Z]/.test(symbol)) fill = TILE_COLOURS[ids.indexOf(symbol) % TILE_COLOURS.length] || "#ccc";
        el("rect", { x, y: yy, width: CELL, height: CELL, fill, class: "cl-cell cl-shape" }, group);
        if (symbol === "*") drawPalm(group, x + CELL / 2, yy + CELL / 2);
        if (/[A-Z]/.test(symbol)) text(group, x + CELL / 2, yy + CELL / 2 + 6, symbol, "cl-tile-letter", "middle");
        if (name in sanctuaryOwner) {
          el("rect", { x: x + 3, y: yy + 3, width: CELL - 6, height: CELL - 6, fill: "none",
            stroke: SEAT_COLOURS[sanctuaryOwner[name]], "stroke-width": 3, "stroke-dasharray": "4 2" }, group);
          text(group, x + CELL / 2, yy + CELL / 2 + 5, "☥", "cl-ankh", "middle").setAttribute("fill", SEAT_COLOURS[sanctuaryOwner[name]]);
        }
      }
    }
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        const here = view.garden[r][c];
        if (c + 1 < cols && /[A-Z]/.test(here + view.garden[r][c + 1]) && here !== view.garden[r][c + 1]) {
          el("line", { x1: x0 + (c + 1) * CELL, y1: y0 + r * CELL, x2: x0 + (c + 1) * CELL, y2: y0 + (r + 1) * CELL, class: "cl-seam" }, layer);
        }
        if (r + 1 < rows && /[A-Z]/.test(here + view.garden[r + 1][c]) && here !== view.garden[r + 1][c]) {
          el("line", { x1: x0 + c * CELL, y1: y0 + (r + 1) * CELL, x2: x0 + (c + 1) * CELL, y2: y0 + (r + 1) * CELL, class: "cl-seam" }, layer);
        }
      }
    }
    drawDais(layer, view, x0, y0);
    drawWalls(layer, view, x0, y0, rows, cols);
    if (beside) {
      drawStack(view, x0 + gardenW + 28, top, WIDTH - x0 - gardenW - 28);
      return drawSquare(view, x0, y0 + gardenH, gardenW);
    }
    const below = drawSquare(view, x0, y0 + gardenH, gardenW);
    return drawStack(view, 12, below, WIDTH - 24);
  }

  function drawPalm(parent, x, y) {
    el("path", { d: `M${x} ${y + 10} L${x} ${y - 2}`, class: "cl-palm-trunk" }, parent);
    el("path", { d: `M${x} ${y - 2} q-9 -6 -12 2 M${x} ${y - 2} q9 -6 12 2 M${x} ${y - 2} q-4 -10 -10 -9 M${x} ${y - 2} q4 -10 10 -9`, class: "cl-palm-leaf" }, parent);
  }

  function drawDais(layer, view, x0, y0) {
    let minR = 99, minC = 99, maxR = -1, maxC = -1;
    view.garden.forEach((row, r) => [...row].forEach((s, c) => {
      if (s === "#") { minR = Math.min(minR, r); maxR = Math.max(maxR, r); minC = Math.min(minC, c); maxC = Math.max(maxC, c); }
    }));
    if (maxR < 0) return;
    const x = x0 + minC * CELL;
    const y = y0 + minR * CELL;
    const w = (maxC - minC + 1) * CELL;
    const h = (maxR - minR + 1) * CELL;
    const sig = view.throne.join(",");
    const group = item(layer, "dais", sig, entryText("piece:throne", categoryName("throne")));
    el("rect", { x, y, width: w, height: h, class: "cl-dais cl-shape" }, group);
    if (view.throne.length >= 1) {
      el("rect", { x: x + 14, y: y + h - 34, width: w - 28, height: 20, fill: SEAT_COLOURS[view.throne[0]], class: "cl-piece" }, group);
    }
    if (view.throne.length >= 2) {
      el("path", { d: `M${x + 30} ${y + h - 34} v-40 h${w - 60} v40 z M${x + 36} ${y + h - 74} v-14 h${w - 72} v14 z`, fill: SEAT_COLOURS[view.throne[1]], class: "cl-piece" }, group);
    }
    const state = view.throne.length === 0 ? t("empty dais") : view.throne.length === 1 ? t("pedestal") : t("throne");
    text(group, x + w / 2, y + 16, state, "cl-small", "middle");
  }

  function drawWalls(layer, view, x0, y0, rows, cols) {
    const perimeter = rows + cols + rows;
    const per = perimeter / WALL_IDS.length;
    WALL_IDS.forEach((id, index) => {
      const from = index * per;
      const to = from + per;
      const segment = wallSegment(from, to, x0, y0, rows, cols);
      const builder = view.walls[id];
      const group = item(layer, `wall:${index}`, builder === undefined ? "-" : String(builder),
        { ...entryText("piece:walls", categoryName("walls")), title: `${categoryName("walls")} ${id}` });
      el("rect", { ...segment, class: builder === undefined ? "cl-wall-slot cl-shape" : "cl-wall cl-shape",
        fill: builder === undefined ? "none" : SEAT_COLOURS[builder] }, group);
      text(group, segment.x + segment.width / 2, segment.y + segment.height / 2 + 4, id, "cl-tiny", "middle");
    });
    DOOR_IDS.forEach((id, index) => {
      const x = index === 0 ? x0 - 16 : x0 + cols * CELL;
      const y = y0 + rows * CELL - 6;
      const builder = view.doors[id];
      const group = item(layer, `door:${index}`, builder === undefined ? "-" : String(builder),
        { ...entryText("piece:doors", categoryName("doors")), title: `${categoryName("doors")} · ${t.term("door", id)}` });
      el("rect", { x, y, width: 16, height: 34, class: builder === undefined ? "cl-wall-slot cl-shape" : "cl-door cl-shape",
        fill: builder === undefined ? "none" : SEAT_COLOURS[builder] }, group);
    });
  }

  /** The rectangle of the wall stretch from `from` to `to` along the U (left side up, back, right side down). */
  function wallSegment(from, to, x0, y0, rows, cols) {
    const thick = 14;
    if (to <= rows) {
      return { x: x0 - thick - 2, y: y0 + (rows - to) * CELL, width: thick, height: (to - from) * CELL };
    }
    if (to <= rows + cols) {
      return { x: x0 + (from - rows) * CELL, y: y0 - thick - 2, width: (to - from) * CELL, height: thick };
    }
    return { x: x0 + cols * CELL + 2, y: y0 + (from - rows - cols) * CELL, width: thick, height: (to - from) * CELL };
  }

  /** The mosaic stack from (`x`, `top`) within `width`; returns the y below it. */
  function drawStack(view, x, top, width) {
    const layer = el("g", { class: "cl-stack" }, svg);
    text(layer, x, top + 14, t("Mosaic stack"), "cl-label");
    const ids = tileIds(view);
    const about = entryText("piece:mosaics", categoryName("mosaics"));
    let y = top + 28;
    if (view.stack_top) {
      const group = item(layer, `tile:${view.stack_top}`, `top:${view.stack_top}`, { ...about, title: `${categoryName("mosaics")} ${view.stack_top} · ${t("top of the stack")}` });
      el("rect", { x, y, width: 56, height: 56, rx: 6, fill: TILE_COLOURS[ids.indexOf(view.stack_top) % TILE_COLOURS.length], class: "cl-tile cl-shape" }, group);
      text(group, x + 28, y + 38, view.stack_top, "cl-tile-big", "middle");
      text(layer, x + 64, y + 20, t("top"), "cl-small");
    } else {
      text(layer, x, y + 20, t("empty"), "cl-small");
    }
    y += 66;
    text(layer, x, y + 10, t("below (any order):"), "cl-small");
    y += 16;
    const perRow = Math.max(4, Math.floor(width / 34));
    view.stack_others.forEach((id, i) => {
      const tx = x + (i % perRow) * 34;
      const ty = y + Math.floor(i / perRow) * 34;
      const group = item(layer, `tile:${id}`, `rest:${id}`, { ...about, title: `${categoryName("mosaics")} ${id}` });
      el("rect", { x: tx, y: ty, width: 30, height: 30, rx: 4, fill: TILE_COLOURS[ids.indexOf(id) % TILE_COLOURS.length], class: "cl-tile cl-shape" }, group);
      text(group, tx + 15, ty + 21, id, "cl-tile-letter", "middle");
    });
    y += Math.ceil(view.stack_others.length / perRow) * 34 + 6;
    if (view.removed_tiles.length) {
      y = lines(layer, x, y + 10, t("out of the game: {tiles}", { tiles: view.removed_tiles.join(" ") }), "cl-small", width, 7.4, 18);
    }
    return y + 10;
  }

  function drawSquare(view, x0, top, width) {
    const layer = el("g", { class: "cl-square" }, svg);
    const y0 = top + 34;
    const mid = x0 + width / 2;
    text(layer, x0, y0 - 8, t("Sphinx square"), "cl-label");
    const steps = view.cleopatra_steps;
    const stepH = 22;
    for (let step = 0; step <= steps; step += 1) {
      const y = y0 + (steps - step) * stepH;
      el("rect", { x: mid - 26, y, width: 52, height: stepH - 2, class: step === steps ? "cl-step cl-step-last" : "cl-step" }, layer);
      text(layer, mid, y + 15, String(step), "cl-tiny", "middle");
    }
    const cy = y0 + (steps - view.cleopatra) * stepH;
    const queen = item(layer, "cleopatra", String(view.cleopatra), {
      ...entryText("kit:cleopatra", t.term("kit", "Cleopatra")),
      title: t("Cleopatra: step {step} of {steps}", { step: view.cleopatra, steps }),
    });
    el("circle", { cx: mid + 16, cy: cy + 10, r: 9, class: "cl-queen cl-shape" }, queen);
    text(queen, mid + 16, cy + 14, "C", "cl-tiny", "middle");
    const completed = view.completed.map(categoryName);
    const below = lines(layer, x0, y0 + (steps + 1) * stepH + 16,
      t("Completed: {list}", { list: completed.length ? completed.join(", ") : t("nothing yet") }), "cl-small",
      WIDTH - x0 - 12, 7.6, 18);
    const sphinxAbout = entryText("piece:sphinxes", categoryName("sphinxes"));
    for (let i = 0; i < SPHINXES; i += 1) {
      const side = i % 2 === 0 ? -1 : 1;
      const row = Math.floor(i / 2);
      const x = side < 0 ? mid - 100 : mid + 40;
      const y = y0 + row * 40;
      const builder = view.sphinxes[i];
      const group = item(layer, `sphinx:${i}`, builder === undefined ? "-" : String(builder),
        { ...sphinxAbout, title: t("sphinx #{number}", { number: i + 1 }) });
      el("rect", { x, y, width: 60, height: 32, rx: 6, class: builder === undefined ? "cl-slot cl-shape" : "cl-sphinx cl-shape",
        fill: builder === undefined ? "none" : SEAT_COLOURS[builder] }, group);
      text(group, x + 30, y + 21, `#${i + 1}`, "cl-tiny", "middle");
    }
    const obeliskAbout = entryText("piece:obelisks", categoryName("obelisks"));
    for (let i = 0; i < OBELISKS; i += 1) {
      const x = i === 0 ? x0 - 8 : x0 + width - 26;
      const builder = view.obelisks[i];
      const group = item(layer, `obelisk:${i}`, builder === undefined ? "-" : String(builder),
        { ...obeliskAbout, title: t("obelisk #{number}", { number: i + 1 }) });
      el("path", { d: `M${x + 8} ${y0 + 110} l4 -96 l6 -10 l6 10 l4 96 z`, class: builder === undefined ? "cl-slot cl-shape" : "cl-obelisk cl-shape",
        fill: builder === undefined ? "none" : SEAT_COLOURS[builder] }, group);
    }
    const ay = below + 12;
    const altar = item(layer, "altar", `${view.altar}`, {
      ...entryText("kit:high_priest_dice", t("High Priest dice")),
      title: t("High Priest altar: {n} of {dice} dice", { n: view.altar, dice: view.dice }),
    });
    text(altar, x0, ay + 16, t("Altar"), "cl-label");
    for (let i = 0; i < view.dice; i += 1) {
      const on = i < view.altar;
      const dx = x0 + 60 + i * 34;
      el("rect", { x: dx, y: ay, width: 26, height: 26, rx: 5, class: on ? "cl-die cl-die-on cl-shape" : "cl-die cl-shape" }, altar);
      if (on) text(altar, dx + 13, ay + 19, "☥", "cl-small", "middle");
    }
    return ay + 44;
  }

  function card(parent, x, y, name, key, sig, count) {
    const faceDown = name === "face-down";
    const about = faceDown ? { title: t("face-down"), text: t("a card whose face nobody has seen") }
      : entryText(`card:${nameKey(name)}`, cardName(name));
    const group = item(parent, key, sig, about);
    const kind = faceDown ? "back" : kindOf(name);
    const fill = faceDown ? "#7b5e3b" : KIND_COLOURS[kind] || KIND_COLOURS.character;
    el("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, fill, class: "cl-card cl-shape" }, group);
    if (!faceDown && KIND_NAMES.indexOf(name) >= 5 && KIND_NAMES.indexOf(name) <= 16) {
      text(group, x + CARD_W - 8, y + 13, "☥", "cl-tiny cl-amulet-mark", "middle");
    }
    const label = cardName(name);
    const words = label.split(" ");
    const rows = words.length > 1 && label.length > 11 ? [words.slice(0, -1).join(" "), words[words.length - 1]] : [label];
    rows.forEach((line, i) => text(group, x + CARD_W / 2, y + 23 + i * 13 - (rows.length - 1) * 6, line,
      `cl-card-text${faceDown ? " cl-card-back" : ""}`, "middle"));
    if (count && count > 1) {
      el("circle", { cx: x + CARD_W - 5, cy: y + CARD_H - 5, r: 9, class: "cl-badge" }, group);
      text(group, x + CARD_W - 5, y + CARD_H - 1, String(count), "cl-tiny cl-badge-text", "middle");
    }
    return group;
  }

  function drawMarket(view, top) {
    const layer = el("g", { class: "cl-market" }, svg);
    text(layer, 12, top + 16, t("Market"), "cl-label");
    // Three stalls side by side while each fits in two rows there; else one stall a row, its cards across.
    const sideBySide = Math.floor(((WIDTH - 12) / 3 - 16) / CARD_STEP);
    const longest = Math.max(...view.market.map((stall) => stall.length));
    const columns = sideBySide >= 2 && longest <= 2 * sideBySide ? 3 : 1;
    const colW = (WIDTH - 12) / columns;
    const perStall = Math.max(2, Math.floor((colW - 16) / CARD_STEP));
    let bottom = top + 24;
    let rowTop = top + 24;
    view.market.forEach((stall, s) => {
      const x = 12 + (s % columns) * colW;
      if (s % columns === 0) rowTop = bottom + (s ? 8 : 0);
      const group = item(layer, `stall:${s}`, stall.join("|"), { title: t("Stall {name}", { name: STALL_NAMES[s] }),
        text: stall.length ? stall.map(cardName).join(", ") : t("empty") });
      const height = 30 + Math.max(1, Math.ceil(stall.length / perStall)) * (CARD_H + 6);
      el("rect", { x, y: rowTop, width: colW - 8, height, rx: 8, class: "cl-stall cl-shape" }, group);
      text(group, x + 8, rowTop + 17, t("Stall {name}", { name: STALL_NAMES[s] }), "cl-small");
      stall.forEach((name, i) => card(group, x + 8 + (i % perStall) * CARD_STEP, rowTop + 24 + Math.floor(i / perStall) * (CARD_H + 6),
        name, `stall:${s}:${i}`, name));
      bottom = Math.max(bottom, rowTop + height);
    });
    const perRow = Math.max(1, Math.floor((WIDTH - 12) / CARD_STEP));
    let y = bottom + 22;
    const pile = item(layer, "deck", `${view.deck}`, { title: t("Deck"), text: t("{n} cards, {up} of them face up", { n: view.deck, up: view.deck_face_up }) });
    text(pile, 12, y, t("Deck: {n} ({up} face up)", { n: view.deck, up: view.deck_face_up }), "cl-small");
    const seen = Object.values(view.discards).reduce((a, b) => a + b, 0);
    const unseen = view.discard_pile - seen;
    const pileText = t("Discard pile: {n}", { n: view.discard_pile }) + (unseen > 0 ? ` (${t("{n} unseen", { n: unseen })})` : "");
    if (WIDTH >= 440) text(layer, 220, y, pileText, "cl-small");
    else text(layer, 12, (y += 18), pileText, "cl-small");
    y += 8;
    const discards = Object.entries(view.discards);
    discards.forEach(([name, count], i) => {
      card(layer, 12 + (i % perRow) * CARD_STEP, y + Math.floor(i / perRow) * (CARD_H + 6), name, `discard:${name}`, `${count}`, count);
    });
    y += Math.ceil(discards.length / perRow) * (CARD_H + 6);
    if (view.pending.length) {
      y += 18;
      const group = item(layer, "pending", view.pending.join("|"), { title: t("Drawn cards"), text: view.pending.map(cardName).join(", ") });
      text(group, 12, y, t("Drawn cards"), "cl-small");
      const across = Math.min(view.pending.length, perRow);
      const down = Math.ceil(view.pending.length / perRow);
      el("rect", { x: 8, y: y + 4, width: across * CARD_STEP + 4, height: down * (CARD_H + 6) + 6, rx: 6, class: "cl-pending cl-shape" }, group);
      view.pending.forEach((name, i) => card(group, 12 + (i % perRow) * CARD_STEP, y + 8 + Math.floor(i / perRow) * (CARD_H + 6), name, `pending:${i}`, name));
      y += down * (CARD_H + 6) + 14;
    }
    if (view.offers.length) {
      y += 18;
      text(layer, 12, y, t("Offered to the Envoys"), "cl-small");
      view.offers.forEach(([giver, name], i) => {
        const g = card(layer, 12 + (i % perRow) * CARD_STEP, y + 8 + Math.floor(i / perRow) * (CARD_H + 6), name, `offer:${giver}:${name}`, `${giver}`);
        el("circle", { cx: 12 + (i % perRow) * CARD_STEP + 8, cy: y + 16 + Math.floor(i / perRow) * (CARD_H + 6), r: 6, fill: SEAT_COLOURS[giver] }, g);
      });
      y += 8 + Math.ceil(view.offers.length / perRow) * (CARD_H + 6);
    }
    return y + 10;
  }

  /** A player's name cut to `chars` characters (the whole name is in the piece's text). */
  function short(name, chars) {
    return name.length > chars ? `${name.slice(0, chars - 1)}…` : name;
  }

  function drawPlayers(view, seat, top) {
    const layer = el("g", { class: "cl-players" }, svg);
    let y = top + 16;
    text(layer, 12, y, t("Architects"), "cl-label");
    y += 8;
    const narrow = WIDTH < 560;
    view.players.forEach((p, q) => {
      const mine = q === seat;
      const known = Object.keys(p.known_cards || {}).length;
      const second = narrow && ("talents" in p || known);
      const rowH = second ? 84 : 46;
      const name = mine ? t("{player} (you)", { player: kit.seatName(q) }) : kit.seatName(q);
      const group = item(layer, `player:${q}`, JSON.stringify([p.hand_size, p.merchants, p.statues, p.talents, p.amulets]),
        { title: name,
          text: [t.n("{n} card", "{n} cards", p.hand_size), t.n("{n} Nile merchant", "{n} Nile merchants", p.merchants),
            t.n("{n} Anubis statue", "{n} Anubis statues", p.statues),
            ...(known ? [t("seen in hand: {cards}", { cards: Object.entries(p.known_cards).map(([n, c]) => `${c}× ${cardName(n)}`).join(", ") })] : [])].join(" · ") });
      el("rect", { x: 8, y, width: WIDTH - 16, height: rowH - 4, rx: 6, class: q === view.actor && view.phase !== "end" ? "cl-player cl-acting cl-shape" : "cl-player cl-shape" }, group);
      el("circle", { cx: 24, cy: y + 20, r: 9, fill: SEAT_COLOURS[q] }, group);
      text(group, 40, y + 18, short(name, 14), "cl-small cl-bold");
      text(group, 40, y + 35, t.n("{n} card", "{n} cards", p.hand_size), "cl-small");
      const merchants = item(layer, mine ? "merchants:me" : `merchants:${q}`, String(p.merchants),
        entryText("kit:nile_merchant", t.term("kit", "Nile merchant")));
      el("rect", { x: 158, y: y + 4, width: 68, height: 38, rx: 5, class: "cl-hit cl-shape" }, merchants);
      for (let i = 0; i < Math.max(p.merchants, 1); i += 1) {
        el("circle", { cx: 170 + i * 16, cy: y + 17, r: 7, class: i < p.merchants ? "cl-merchant" : "cl-merchant-none" }, merchants);
      }
      text(merchants, 160, y + 38, t.n("{n} merchant", "{n} merchants", p.merchants), "cl-tiny");
      const statues = item(layer, `statues:${q}`, String(p.statues), entryText("kit:anubis_statue", t.term("kit", "Anubis statue")));
      el("rect", { x: 232, y: y + 4, width: 64, height: 38, rx: 5, class: "cl-hit cl-shape" }, statues);
      for (let i = 0; i < p.statues; i += 1) text(statues, 246 + i * 14, y + 24, "♞", "cl-statue", "middle").setAttribute("fill", SEAT_COLOURS[q]);
      text(statues, 234, y + 38, t.n("{n} statue", "{n} statues", p.statues), "cl-tiny");
      const dx = second ? 40 - 302 : 0;
      const dy = second ? 40 : 0;
      if ("talents" in p) {
        const talents = item(layer, mine ? "talents:me" : `talents:${q}`, String(p.talents), entryText("kit:talent", t.term("kit", "Talent")));
        el("rect", { x: 302 + dx, y: y + 6 + dy, width: 112, height: 32, rx: 5, class: "cl-hit cl-shape" }, talents);
        el("circle", { cx: 318 + dx, cy: y + 20 + dy, r: 10, class: "cl-coin" }, talents);
        text(talents, 334 + dx, y + 25 + dy, t.n("{n} talent", "{n} talents", p.talents), "cl-small");
        const amulets = item(layer, `amulets:${q}`, String(p.amulets), entryText("kit:amulet", t.term("kit", "Amulet")));
        el("rect", { x: 420 + dx, y: y + 6 + dy, width: 110, height: 32, rx: 5, class: "cl-hit cl-shape" }, amulets);
        text(amulets, 430 + dx, y + 26 + dy, "☥", "cl-amulet", "middle");
        text(amulets, 442 + dx, y + 25 + dy, t.n("{n} amulet", "{n} amulets", p.amulets), "cl-small");
      } else if (known) {
        const seen = t("seen: {cards}", { cards: Object.entries(p.known_cards).map(([n, c]) => `${c}× ${cardName(n)}`).join(", ") });
        const room = Math.floor((WIDTH - 316 - dx) / 7.2);
        text(group, 300 + dx, y + 25 + dy, seen.length > room ? `${seen.slice(0, room - 1)}…` : seen, "cl-tiny");
      }
      if (view.final) {
        const fate = view.final.eaten[q] ? t("eaten by the crocodile") : t.n("{n} talent", "{n} talents", view.final.talents[q]);
        text(group, WIDTH - 16, y + rowH - 12, fate, "cl-tiny cl-bold", "end");
      }
      y += rowH;
    });
    if (view.last_offering) {
      const last = view.last_offering;
      const parts = last.bids.map((bid, q) => t.n("{player} bid {bid} ({change} amulet)",
        "{player} bid {bid} ({change} amulets)", Math.abs(last.amulets[q]),
        { player: kit.seatName(q), bid, change: (last.amulets[q] > 0 ? "+" : "") + last.amulets[q] }));
      const group = item(layer, "last-offering", JSON.stringify(last), { title: t("Last Offering"), text: parts.join("\n") });
      y = lines(group, 12, y + 14, `${t("Last Offering")}: ${parts.join("; ")}`, "cl-tiny", WIDTH - 24, 7.2, 16);
    }
    return y + 4;
  }

  function drawHand(view, seat, top) {
    const me = view.players[seat];
    if (!me || !me.hand) return top;
    const layer = el("g", { class: "cl-hand" }, svg);
    text(layer, 12, top + 16, t("Your hand"), "cl-label");
    const entries = Object.entries(me.hand);
    if (!entries.length) text(layer, 12, top + 40, t("empty"), "cl-small");
    const perRow = Math.max(1, Math.floor((WIDTH - 12) / CARD_STEP));
    entries.forEach(([name, count], i) => {
      card(layer, 12 + (i % perRow) * CARD_STEP, top + 26 + Math.floor(i / perRow) * (CARD_H + 8), name, `hand:${name}`, `${count}`, count);
    });
    return top + 30 + Math.max(1, Math.ceil(entries.length / perRow)) * (CARD_H + 8);
  }

  /** Makes the drawn items the legal actions concern playable; the page's bar offers the others. */
  function bindActions(view) {
    const byKey = new Map();
    for (const action of frame.legal) {
      if (action[2] === "bid") continue;
      const keys = BUTTON_RANGES.includes(action[2]) ? [] : targetKeys(action, view).filter((key) => targets.has(key));
      for (const key of keys) {
        if (!byKey.has(key)) byKey.set(key, []);
        byKey.get(key).push(action);
      }
    }
    for (const [key, actions] of byKey) {
      const node = targets.get(key);
      node.setAttribute("data-range", actions[0][2]);
      kit.target(node, actions, { key, title: node.dataset.info || "" });
    }
  }

  function drawOffering(view, seat, top) {
    const layer = el("g", { class: "cl-offering", role: "group", "aria-label": t("Offering to the High Priest") }, svg);
    const bids = frame.legal.filter((a) => a[2] === "bid");
    const perRow = Math.max(1, Math.floor((WIDTH - 40) / 56));
    const rows = Math.ceil(bids.length / perRow);
    const status = (view.offering || []).map((bid, q) => {
      const player = kit.seatName(q);
      if (q === seat && typeof bid === "number" && bid >= 0) return t("{player}: your bid {bid}", { player, bid });
      return bid === "bid" ? t("{player}: has bid", { player }) : t("{player}: waiting", { player });
    });
    let y = top + 28;
    text(layer, 20, y, t("Offering to the High Priest"), "cl-label");
    y = lines(layer, 20, y + 20, status.join(" · "), "cl-tiny", WIDTH - 40, 6.4, 16);
    y = lines(layer, 20, y + 2, bids.length ? t("Your secret bid in talents: all bids are lost") : t("Waiting for the other bids"),
      "cl-small", WIDTH - 40, 7.4, 18);
    const height = y - top + rows * 40 + 6;
    layer.insertBefore(el("rect", { x: 8, y: top + 4, width: WIDTH - 16, height, rx: 10, class: "cl-dialog" }), layer.firstChild);
    bids.forEach((action, i) => {
      const x = 20 + (i % perRow) * 56;
      const by = y - 6 + Math.floor(i / perRow) * 40;
      const group = el("g", { class: "cl-button cl-bid", "data-range": "bid" }, layer);
      el("rect", { x, y: by, width: 50, height: 32, rx: 6, class: "cl-button-box cl-shape" }, group);
      text(group, x + 25, by + 21, String(action[3]), "cl-small cl-button-text", "middle");
      kit.target(group, [action], { key: `bid:${action[3]}` });
    });
    return top + 8 + height;
  }

  return {
    update(next) {
      frame = next;
      draw();
    },
    destroy() {
      kit.destroy();
      svg.remove();
      root.classList.remove("cl-root");
      link.remove();
    },
  };
}
