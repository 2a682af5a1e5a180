// The pyramid of Secret of the Ancient Tomb in the browser: the maze with its walls and openings, face-down
// squares, figures, items, inscriptions and the burial chamber, drawn from the seat's view alone; the legal
// actions are played by clicking (or Tab and Enter on) the squares, figures and tokens they concern, through
// the board kit (/static/boardkit.js), which also shows every component's text on tap and what changed. Every
// item, obstacle and special tile is drawn as its picture (icons.js) and named in the page's language.
import { createKit } from "/static/boardkit.js";
import { iconId, iconPicture, iconShapes } from "/games/tomb/icons.js";

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 9;
const CELLS = SIZE * SIZE;
const CELL = 60;
const MARGIN = 62;
const WIDTH = MARGIN * 2 + CELL * SIZE;
const LETTERS = "ABCDEFGHI";
const BIT = [1, 2, 4, 8];
const DELTA = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const ENTRANCES = ["NW", "NE", "SW", "SE"];
const CORNERS = [0, 8, 72, 80];
const ENTRANCE_AT = [[-1, -1], [1, -1], [-1, 1], [1, 1]];
/** The engine's item order (``board.ITEM_IDS``): the index of the ``buy``, ``chest`` and ``rob`` ranges. */
const ITEM_IDS = ["food", "water", "chocolate", "torch", "scarf", "plan", "first_aid_kit", "money",
  "magic_flask", "golden_key", "papyrus_of_the_dead"];
const ITEM_OF_RANGE = { food: "food", water: "water", chocolate: "chocolate", torch: "torch", scarf: "scarf",
  plan: "plan", papyrus: "papyrus_of_the_dead", buy: "money" };
const SQUARE_RANGES = new Set(["passage", "key", "curse", "map", "look"]);
const SEAT_COLOURS = ["#c0392b", "#2563c9", "#2e8b45", "#d9a400", "#7b3fb0", "#e8e2d4"];
const INSCRIPTION_COLOURS = ["#d2452f", "#2f6fd0", "#2f9e52", "#e2b42a", "#8e5bd6"];
const NAMED_COLOURS = { pink: "#ec6fae", orange: "#ee8a22" };
/** The almanac's groups of obstacles (``data.RULE_GROUP``), drawn in their own colours. */
const OBSTACLE_GROUP = { snake: "kill", poison_gas: "kill", trap: "kill", hunger: "end-turn", fatigue: "end-turn",
  thirst: "end-turn", collapsed_walls: "no-entry", mysterious_doors: "no-entry", bottomless_chasm: "no-entry" };
const FEATURE_OF_CODE = { Map: "tile:map", Psg: "tile:secret_passage", Shr: "tile:dark_shrine", Cst: "tile:chest" };
const ROLL_MS = 600;

function svg(name, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) node.setAttribute(key, value);
  for (const child of children) if (child) node.append(child);
  return node;
}

function html(name, attrs = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) node.setAttribute(key, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

const squareName = (cell) => LETTERS[cell % SIZE] + String(Math.floor(cell / SIZE) + 1);

function parseSquare(name) {
  if (typeof name !== "string" || name.length !== 2) return -1;
  const col = LETTERS.indexOf(name[0]);
  const row = Number(name[1]) - 1;
  return col >= 0 && row >= 0 && row < SIZE ? row * SIZE + col : -1;
}

function neighbour(cell, d) {
  const col = cell % SIZE + DELTA[d][0];
  const row = Math.floor(cell / SIZE) + DELTA[d][1];
  return col >= 0 && col < SIZE && row >= 0 && row < SIZE ? row * SIZE + col : -1;
}

/** Where a figure stands in the view's words: a square, an entrance, the reserve or the chamber. */
function place(where) {
  if (typeof where !== "string") return { kind: "reserve" };
  if (where.endsWith(" entrance")) return { kind: "entrance", entrance: ENTRANCES.indexOf(where.split(" ")[0]) };
  const cell = parseSquare(where);
  return cell >= 0 ? { kind: "square", cell } : { kind: where };
}

const cellX = (cell) => MARGIN + (cell % SIZE) * CELL;
const cellY = (cell) => MARGIN + Math.floor(cell / SIZE) * CELL;

function entranceXY(index) {
  const corner = CORNERS[index];
  const [dx, dy] = ENTRANCE_AT[index];
  return [cellX(corner) + CELL / 2 + dx * (CELL * 0.78), cellY(corner) + CELL / 2 + dy * (CELL * 0.78)];
}

export function mount(root, ctx) {
  const t = ctx.t;
  const kit = createKit(root, ctx, { label: t("The pyramid") });
  const shapeNames = { "dead end": t.term("shape", "dead end"), straight: t.term("shape", "straight"),
    corner: t.term("shape", "corner"), "t junction": t.term("shape", "t junction"), cross: t.term("shape", "cross") };
  const phaseNames = {
    roll: t.term("phase", "roll"), "choose archaeologist": t.term("phase", "choose archaeologist"),
    move: t.term("phase", "move"), reveal: t.term("phase", "reveal"), "orient tile": t.term("phase", "orient tile"),
    "place curse": t.term("phase", "place curse"), "take from chest": t.term("phase", "take from chest"),
    map: t.term("phase", "map"), "plan: look": t.term("phase", "plan: look"), "plan: peek": t.term("phase", "plan: peek"),
    "plan: swap?": t.term("phase", "plan: swap?"), "golden key": t.term("phase", "golden key"),
    rob: t.term("phase", "rob"), "take item": t.term("phase", "take item"), over: t.term("phase", "over"),
  };
  const entranceNames = [t.term("entrance", "NW"), t.term("entrance", "NE"), t.term("entrance", "SW"),
    t.term("entrance", "SE")];
  const help = new Map();
  const byCode = new Map();
  let view = null;
  let legal = [];
  let frame = null;
  let rollKey = null;
  let rollTimer = null;
  /** Each square's text (title and text) as last drawn: squares are redrawn only when they change. */
  const cellAbout = [];

  const link = html("link", { rel: "stylesheet", href: "/games/tomb/board.css" });
  document.head.append(link);

  const status = html("div", { class: "tomb-status" });
  const dieBox = svg("svg", { class: "tomb-die", viewBox: "0 0 40 40", width: "40", height: "40", "aria-hidden": "true" });
  const statusText = html("div", { class: "tomb-status-text", "aria-live": "polite" });
  status.append(dieBox, statusText);
  const maze = svg("svg", { class: "tomb-maze", viewBox: `0 0 ${WIDTH} ${WIDTH}`, role: "group",
    "aria-label": t("The pyramid") });
  const seats = html("div", { class: "tomb-seats" });
  const supply = html("div", { class: "tomb-supply" });
  const side = html("div", { class: "tomb-side" }, status, seats, supply);
  const board = html("div", { class: "tomb" }, html("div", { class: "tomb-main" }, maze), side);
  root.prepend(board);
  kit.keepReadable(maze);

  // The maze: a layer of squares that stay in place (so a change can glow and focus stays), the entrances,
  // then the figures, which slide from square to square.
  const ground = svg("g", { class: "tomb-ground" });
  const cells = [];
  const cellSig = [];
  for (let cell = 0; cell < CELLS; cell++) {
    const group = svg("g", { class: "tomb-cell", "data-square": squareName(cell), "data-target": `sq:${squareName(cell)}`,
      transform: `translate(${cellX(cell)} ${cellY(cell)})` });
    group.append(svg("g", { class: "art" }), svg("rect", { class: "ring", x: 2, y: 2, width: CELL - 4, height: CELL - 4, rx: 4 }));
    cells.push(group);
    cellSig.push(null);
    ground.append(group);
  }
  const labels = svg("g", { class: "tomb-coords", "aria-hidden": "true" });
  for (let i = 0; i < SIZE; i++) {
    labels.append(svg("text", { x: MARGIN + i * CELL + CELL / 2, y: MARGIN - 12, "text-anchor": "middle" }, LETTERS[i]));
    labels.append(svg("text", { x: MARGIN - 16, y: MARGIN + i * CELL + CELL / 2 + 5, "text-anchor": "middle" }, String(i + 1)));
  }
  const entrances = svg("g", { class: "tomb-entrances" });
  const entranceNodes = ENTRANCES.map((name, index) => {
    const [x, y] = entranceXY(index);
    const node = svg("g", { class: "tomb-entrance", "data-target": `ent:${name}`, transform: `translate(${x} ${y})` },
      svg("circle", { r: 19, class: "door" }),
      svg("text", { y: index < 2 ? -27 : 38, "text-anchor": "middle", class: "door-name" }, entranceNames[index]),
      svg("circle", { r: 22, class: "ring" }));
    entrances.append(node);
    return node;
  });
  const figures = svg("g", { class: "tomb-figures", "aria-hidden": "true" });
  const figureNodes = new Map();
  maze.append(svg("rect", { class: "tomb-sand", x: 0, y: 0, width: WIDTH, height: WIDTH, rx: 12 }), labels, ground,
    entrances, figures);

  function describeTarget(key) {
    if (!key) return "";
    const [kind, what, item] = key.split(":");
    if (kind === "sq") return t("Square {square}", { square: what });
    if (kind === "ent") return t("The {entrance} entrance", { entrance: entranceNames[ENTRANCES.indexOf(what)] });
    if (kind === "chest") return t("The chest");
    if (kind === "item") return itemName(item);
    return "";
  }

  /** The square, figure or token an action is about (``null``: a button of its own). */
  function targetOf([, , range, index]) {
    const turn = view.turn || {};
    const pending = view.pending || {};
    if (range === "select") return index < CELLS ? `sq:${squareName(index)}` : `ent:${ENTRANCES[index - CELLS]}`;
    if (range === "enter") return `ent:${ENTRANCES[index]}`;
    if (range === "step" || range === "flask") {
      const from = parseSquare(turn.active);
      const to = from >= 0 ? neighbour(from, index) : -1;
      return to >= 0 ? `sq:${squareName(to)}` : null;
    }
    if (range === "step_in") {
      const at = place(turn.active);
      return at.kind === "entrance" ? `sq:${squareName(CORNERS[at.entrance])}` : null;
    }
    if (SQUARE_RANGES.has(range)) return `sq:${squareName(index)}`;
    if ((range === "orient" || range === "take") && pending.square) return `sq:${pending.square}`;
    if (ITEM_OF_RANGE[range]) return `item:${view.seat}:${ITEM_OF_RANGE[range]}`;
    if (range === "chest") return `chest:${ITEM_IDS[index]}`;
    if (range === "rob" && pending.victim !== undefined) return `item:${pending.victim}:${ITEM_IDS[index]}`;
    return null;
  }

  // Names and texts: the help (in the page's language) for components, the catalog for everything else.
  function itemName(id) {
    const entry = help.get(`item:${id}`);
    return entry ? entry.name : id.replaceAll("_", " ");
  }

  /** An inscription by its colour in words ("red inscription", "červený nápis"). */
  const inscriptionName = (colour) => t.term("inscription", `${colour} inscription`);

  /** A component's text for the kit: its name, its numbers (without the terminal map's code, which the page
   * draws as a picture instead) and its text. */
  function about(key) {
    const entry = help.get(key);
    if (!entry) return { title: itemName(key.split(":")[1] || key) };
    const kind = key.split(":")[0];
    const numbers = Object.entries(entry.numbers || {}).slice(kind === "item" || kind === "obstacle" ? 1 : 0);
    return { title: entry.name, numbers: numbers.map(([k, v]) => `${k} ${v}`).join(" · "), text: entry.text || "" };
  }

  function colourOf(colour) {
    if (NAMED_COLOURS[colour]) return NAMED_COLOURS[colour];
    const index = (view ? view.colours : []).indexOf(colour);
    return INSCRIPTION_COLOURS[index >= 0 ? index % INSCRIPTION_COLOURS.length : 0];
  }

  /** What a tile kind ``[code, name]`` is: its shape, the help entry of its feature and its colour. */
  function kindOf(kind) {
    const [code, name] = kind;
    const shape = Object.keys(shapeNames).find((s) => name === s || name.startsWith(`${s} with `)) || null;
    if (code === "CHM") return { shape: null, key: "tile:chamber", special: "chamber" };
    if (name === "outer wall") return { shape: null, key: null, special: "wall" };
    if (code.startsWith("I:")) {
      const mark = code.slice(2);
      const colours = view.colours;
      const colour = /^[0-9]$/.test(mark) ? colours[Number(mark) - 1] : colours.find((c) => c.startsWith(mark));
      return { shape, key: "tile:inscription", colour };
    }
    if (byCode.has(code)) return { shape, key: byCode.get(code) };
    if (FEATURE_OF_CODE[code]) return { shape, key: FEATURE_OF_CODE[code] };
    return { shape, key: "tile:plain" };
  }

  function kindText(kind) {
    const what = kindOf(kind);
    const entry = what.key ? help.get(what.key) : null;
    if (what.special === "wall") return { title: t.term("shape", "outer wall"), text: t("The printed outer wall: walked like any tile.") };
    const shape = what.shape ? shapeNames[what.shape] : "";
    let title = entry ? entry.name : "";
    if (what.colour) title = inscriptionName(what.colour);
    if (shape && what.key !== "tile:plain") title = `${title} · ${shape}`;
    else if (shape) title = shape;
    const numbers = what.key ? about(what.key).numbers : "";
    return { title, text: [entry ? entry.text : "", numbers].filter(Boolean).join(" — ") };
  }

  // Drawing one square: corridors from the middle toward each opening, walls where there is none.
  function drawCorridors(mask, stone) {
    const parts = [svg("rect", { class: stone, x: 1, y: 1, width: CELL - 2, height: CELL - 2, rx: 3 })];
    const w = CELL * 0.42;
    const c = CELL / 2;
    parts.push(svg("rect", { class: "floor", x: c - w / 2, y: c - w / 2, width: w, height: w }));
    if (mask & 1) parts.push(svg("rect", { class: "floor", x: c - w / 2, y: 0, width: w, height: c }));
    if (mask & 2) parts.push(svg("rect", { class: "floor", x: c, y: c - w / 2, width: c, height: w }));
    if (mask & 4) parts.push(svg("rect", { class: "floor", x: c - w / 2, y: c, width: w, height: c }));
    if (mask & 8) parts.push(svg("rect", { class: "floor", x: 0, y: c - w / 2, width: c, height: w }));
    return parts;
  }

  /** A tile's picture in the middle of its square: the component's icon on a badge whose shape and colour say
   * its group (an item: a round token; an obstacle: a square framed in its danger's colour; a special tile or an
   * inscription: a plaque, the inscription in its colour). */
  function featureMark(kind, known) {
    const what = kindOf(kind);
    const c = CELL / 2;
    if (what.special || what.key === "tile:plain") return null;
    const id = iconId(what.key);
    const group = (what.key || "").split(":")[0];
    const picture = id ? svg("g", { transform: `translate(${c - 11} ${c - 11}) scale(${22 / 24})` }, iconShapes(id)) : null;
    const seen = known ? " seen" : "";
    if (what.key === "tile:inscription") {
      return svg("g", { class: `mark inscription${seen}` },
        svg("rect", { class: "badge", x: c - 14, y: c - 14, width: 28, height: 28, rx: 6, fill: colourOf(what.colour) }), picture);
    }
    if (group === "obstacle") {
      const danger = OBSTACLE_GROUP[what.key.split(":")[1]] || "kill";
      return svg("g", { class: `mark obstacle ${danger}${seen}` },
        svg("rect", { class: "badge", x: c - 15, y: c - 15, width: 30, height: 30, rx: 4 }), picture);
    }
    if (group === "item") {
      return svg("g", { class: `mark item${seen}` }, svg("circle", { class: "badge", cx: c, cy: c, r: 15 }), picture);
    }
    return svg("g", { class: `mark special${seen}` },
      svg("rect", { class: "badge", x: c - 15, y: c - 14, width: 30, height: 28, rx: 3 }), picture);
  }

  function drawCell(cell) {
    const name = squareName(cell);
    const here = view.board[cell];
    const known = (view.known || {})[name];
    const cursed = view.curse === name;
    const peeked = (view.peeked || {})[name];
    const sig = JSON.stringify([here, known || null, cursed, peeked || null, view.chamber_open, help.size]);
    const group = cells[cell];
    if (cellSig[cell] === sig) return false;
    cellSig[cell] = sig;
    const art = group.firstChild;
    const parts = [];
    let title;
    let text = "";
    group.removeAttribute("data-known");
    group.removeAttribute("data-kind");
    if (here === null) {
      parts.push(svg("rect", { class: "back", x: 1, y: 1, width: CELL - 2, height: CELL - 2, rx: 3 }),
        svg("path", { class: "back-glyph", d: `M${CELL / 2} 14 L${CELL - 16} ${CELL - 16} L16 ${CELL - 16} Z` }));
      title = t("{square}: a face-down tile", { square: name });
      if (known) {
        const kind = view.kinds.find((k) => k[1] === known) || ["", known];
        const seen = kindText(kind);
        parts.push(featureMark(kind, true));
        group.setAttribute("data-known", name);
        title = t("{square}: face down; you saw {tile} with your plan", { square: name, tile: seen.title });
        text = seen.text;
      }
      if (peeked) {
        parts.push(svg("circle", { class: "peek", cx: CELL - 10, cy: 10, r: 5 }));
        text = [text, t("Looked at with a plan by {players}", { players: peeked.map((seat) => kit.seatName(seat)).join(", ") })]
          .filter(Boolean).join(" — ");
      }
    } else {
      const kind = view.kinds[here[0]] || ["", ""];
      const what = kindOf(kind);
      const mask = here[1];
      group.setAttribute("data-kind", kind[1]);
      if (what.special === "chamber") {
        parts.push(...drawCorridors(view.chamber_open ? 15 : 0, view.chamber_open ? "chamber open" : "chamber"));
        parts.push(svg("path", { class: "sarcophagus", d: `M${CELL / 2 - 8} 14 h16 l4 32 h-24 Z` }));
        const entry = help.get("tile:chamber");
        title = `${name}: ${entry ? entry.name : t.term("shape", "burial chamber")} (${view.chamber_open ? t("open") : t("closed")})`;
        text = entry ? entry.text : "";
      } else {
        parts.push(...drawCorridors(mask, what.special === "wall" ? "stone wall" : "stone"));
        const mark = featureMark(kind, false);
        if (mark) parts.push(mark);
        const described = kindText(kind);
        title = `${name}: ${described.title}`;
        text = described.text;
      }
    }
    if (cursed) {
      parts.push(svg("g", { class: "curse" }, svg("circle", { cx: CELL / 2, cy: CELL / 2, r: 16 }),
        svg("path", { d: `M${CELL / 2 - 9} ${CELL / 2 - 9} l18 18 M${CELL / 2 + 9} ${CELL / 2 - 9} l-18 18` })));
      title = `${title} — ${t("cursed: nobody may enter")}`;
    }
    art.replaceChildren(...parts.filter(Boolean));
    cellAbout[cell] = { title, text };
    return true;
  }

  // Figures: one node per archaeologist, moved by a transform so that each step slides.
  function figurePositions() {
    const spots = new Map();
    const out = [];
    view.players.forEach((player, seat) => {
      player.figures.forEach((where, index) => {
        const at = place(where);
        let key = null;
        if (at.kind === "square") key = `sq:${squareName(at.cell)}`;
        else if (at.kind === "entrance" && at.entrance >= 0) key = `ent:${ENTRANCES[at.entrance]}`;
        if (key === null) return;
        const list = spots.get(key) || [];
        list.push({ seat, index, at });
        spots.set(key, list);
      });
    });
    for (const list of spots.values()) {
      list.forEach((figure, i) => {
        const per = list.length > 4 ? 3 : 2;
        const spread = list.length === 1 ? 0 : 13;
        const dx = list.length === 1 ? 0 : ((i % per) - (per - 1) / 2) * spread;
        const dy = list.length === 1 ? 0 : (Math.floor(i / per) - (Math.ceil(list.length / per) - 1) / 2) * spread;
        let x;
        let y;
        if (figure.at.kind === "square") {
          x = cellX(figure.at.cell) + CELL / 2;
          y = cellY(figure.at.cell) + CELL / 2;
        } else {
          [x, y] = entranceXY(figure.at.entrance);
        }
        out.push({ ...figure, x: x + dx, y: y + dy, small: list.length > 1 });
      });
    }
    return out;
  }

  function drawFigures() {
    const seen = new Set();
    const active = view.turn ? view.turn.active : null;
    for (const figure of figurePositions()) {
      const key = `${figure.seat}:${figure.index}`;
      seen.add(key);
      let node = figureNodes.get(key);
      if (!node) {
        node = svg("g", { class: "tomb-figure", "data-seat": String(figure.seat) },
          svg("g", { class: "body" },
            svg("circle", { cx: 0, cy: -9, r: 6, fill: SEAT_COLOURS[figure.seat % SEAT_COLOURS.length] }),
            svg("path", { d: "M-9 10 Q-8 -3 0 -3 Q8 -3 9 10 Z", fill: SEAT_COLOURS[figure.seat % SEAT_COLOURS.length] })));
        figures.append(node);
        figureNodes.set(key, node);
        node.style.transform = `translate(${figure.x}px, ${figure.y}px) scale(${figure.small ? 0.7 : 1})`;
        void node.getBoundingClientRect();
      }
      node.style.transform = `translate(${figure.x}px, ${figure.y}px) scale(${figure.small ? 0.7 : 1})`;
      const where = view.players[figure.seat].figures[figure.index];
      node.classList.toggle("tomb-active", view.turn && figure.seat === view.turn.player && where === active);
    }
    for (const [key, node] of figureNodes) {
      if (!seen.has(key)) {
        figureNodes.delete(key);
        node.remove();
      }
    }
  }

  // The die: a few random faces, then the number rolled.
  function drawDie(value) {
    const pips = { 1: [[20, 20]], 2: [[11, 11], [29, 29]], 3: [[11, 11], [20, 20], [29, 29]],
      4: [[11, 11], [29, 11], [11, 29], [29, 29]], 5: [[11, 11], [29, 11], [20, 20], [11, 29], [29, 29]],
      6: [[11, 10], [29, 10], [11, 20], [29, 20], [11, 30], [29, 30]] };
    dieBox.replaceChildren(svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, class: "face" }),
      ...(pips[value] || []).map(([x, y]) => svg("circle", { cx: x, cy: y, r: 3.6, class: "pip" })));
  }

  function rollDie(value) {
    clearInterval(rollTimer);
    dieBox.classList.remove("rolling");
    void dieBox.getBoundingClientRect();
    dieBox.classList.add("rolling");
    const started = Date.now();
    rollTimer = setInterval(() => {
      if (Date.now() - started >= ROLL_MS) {
        clearInterval(rollTimer);
        dieBox.classList.remove("rolling");
        drawDie(value);
        return;
      }
      drawDie(1 + Math.floor(Math.random() * 6));
    }, 80);
  }

  function drawStatus() {
    const turn = view.turn || {};
    const key = `${turn.player}:${view.round}:${turn.die}`;
    if (turn.die && key !== rollKey && rollKey !== null) rollDie(turn.die);
    else if (!rollTimer || !dieBox.classList.contains("rolling")) drawDie(turn.die);
    rollKey = key;
    dieBox.setAttribute("data-die", String(turn.die || 0));
    const lines = [];
    if (view.terminal) {
      lines.push(t("The game is over."));
    } else {
      const phase = phaseNames[turn.phase] || turn.phase;
      lines.push(t("{player} to act: {phase}", { player: kit.seatName(turn.player), phase }));
      if (turn.die) lines.push(t("Die {die}, steps taken {steps}", { die: turn.die, steps: turn.steps }));
      if (turn.scarf) lines.push(t("scarf worn: stepping back allowed"));
      if (turn.ghost) lines.push(t("ghost walk"));
    }
    lines.push(t("Round {round}; chamber {state}; {count} inscriptions open it", { round: view.round,
      state: view.chamber_open ? t("open") : t("closed"), count: view.needed }));
    statusText.replaceChildren(...lines.map((line) => html("p", {}, line)));
  }

  function token(id, seat, extra = "") {
    const key = `item:${seat}:${id}`;
    const node = html("span", { class: `tomb-token item-${id} ${extra}`.trim(), "data-target": key, "data-item": id },
      iconPicture(id), itemName(id));
    kit.info(node, about(`item:${id}`));
    return kit.item(node, key, "1");
  }

  function drawSeats() {
    const turn = view.turn || {};
    seats.replaceChildren(...view.players.map((player, seat) => {
      const reserve = player.figures.filter((w) => w === "reserve").length;
      const head = [kit.seatName(seat)];
      if (seat === view.seat) head.push(t("you"));
      if (!view.terminal && seat === turn.player) head.push(t("to act"));
      const have = new Set(player.inscriptions);
      const inscriptions = view.colours.map((colour) => {
        const node = html("span", { class: `tomb-inscription${have.has(colour) ? " read" : ""}`,
          "data-colour": colour });
        kit.info(node, { title: `${inscriptionName(colour)}: ${have.has(colour) ? t("read") : t("not read yet")}` });
        if (have.has(colour)) node.style.backgroundColor = colourOf(colour);
        node.style.borderColor = colourOf(colour);
        return kit.item(node, `ins:${seat}:${colour}`, have.has(colour) ? "read" : "");
      });
      const swatch = html("span", { class: "tomb-swatch", "aria-hidden": "true" });
      swatch.style.backgroundColor = SEAT_COLOURS[seat % SEAT_COLOURS.length];
      const acting = !view.terminal && seat === turn.player;
      return html("div", { class: `tomb-seat${seat === view.seat ? " mine" : ""}${acting ? " acting" : ""}`,
        "data-seat": String(seat) },
      html("h3", {}, swatch, head.join(" · ")),
      html("p", { class: "tomb-row" }, html("span", { class: "tomb-what" },
        t("Inscriptions {n}/{needed}", { n: player.inscriptions.length, needed: view.needed })), ...inscriptions),
      html("p", { class: "tomb-row" }, html("span", { class: "tomb-what" }, t("Items")),
        ...(player.items.length ? player.items.map((id) => token(id, seat)) : [html("span", { class: "tomb-none" }, t("none"))])),
      html("p", { class: "tomb-row" }, player.place
        ? t("In the burial chamber, place {place}", { place: player.place })
        : t.n("{n} archaeologist in reserve", "{n} archaeologists in reserve", reserve)));
    }));
  }

  function drawSupply() {
    const discovered = new Set(view.discovered || []);
    const parts = [html("h3", {}, t("Supply"))];
    const row = html("p", { class: "tomb-row" });
    for (const [id, count] of Object.entries(view.supply || {})) {
      const entry = help.get(`item:${id}`);
      const name = itemName(id);
      const state = discovered.has(id) ? t("discovered") : t("not discovered yet");
      const stack = html("span", { class: `tomb-stack${discovered.has(id) ? " up" : ""}`, "data-item": id },
        iconPicture(id), `${name} ${count}`);
      kit.info(stack, { title: `${name}: ${count} · ${state}`, text: entry ? entry.text : "" });
      row.append(stack);
    }
    parts.push(row);
    if (view.chest) {
      const chest = html("p", { class: "tomb-row" }, html("span", { class: "tomb-what" }, t("Chest")));
      const items = Object.keys(view.chest);
      for (const id of items) {
        const node = html("span", { class: "tomb-token", "data-target": `chest:${id}`, "data-item": id },
          iconPicture(id), `${itemName(id)} ${view.chest[id]}`);
        kit.info(node, about(`item:${id}`));
        chest.append(kit.item(node, `chest:${id}`, String(view.chest[id])));
      }
      if (!items.length) chest.append(html("span", { class: "tomb-none" }, t("empty")));
      parts.push(chest);
    }
    supply.replaceChildren(...parts);
  }

  /** Makes the squares, entrances and tokens the legal actions concern playable (the page's bar takes the rest). */
  function markTargets() {
    const groups = new Map();
    for (const entry of legal) {
      const key = targetOf(entry);
      if (key === null) continue;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(entry);
    }
    const icon = (action) => (action[2] === "orient" ? tileIcon(action[3]) : null);
    for (const node of root.querySelectorAll("[data-target]")) {
      const key = node.getAttribute("data-target");
      const actions = groups.get(key);
      if (actions) kit.target(node, actions, { key, title: describeTarget(key), icon });
    }
  }

  /** Marks what changed: a square by its tile and the figures on it, the entrances by who waits there. */
  function noteChanges() {
    const here = new Map();
    view.players.forEach((player, seat) => player.figures.forEach((where) => {
      if (typeof where === "string") here.set(where, [...(here.get(where) || []), seat]);
    }));
    for (let cell = 0; cell < CELLS; cell++) {
      const name = squareName(cell);
      kit.item(cells[cell], `sq:${name}`, [view.board[cell], view.curse === name, here.get(name) || []]);
      kit.info(cells[cell], cellAbout[cell]);
      // A square is a picture named by what it shows (a square the seat may play becomes a button).
      cells[cell].setAttribute("role", "img");
      cells[cell].setAttribute("aria-label", cellAbout[cell].title);
    }
    ENTRANCES.forEach((name, index) => kit.item(entranceNodes[index], `ent:${name}`, here.get(`${name} entrance`) || []));
  }

  function render() {
    if (!view) return;
    kit.begin(frame);
    for (let cell = 0; cell < CELLS; cell++) drawCell(cell);
    ENTRANCES.forEach((name, index) => {
      const count = view.players.reduce((n, p) => n + p.figures.filter((w) => w === `${name} entrance`).length, 0);
      const text = t("The {entrance} entrance: placing an archaeologist here is the first step", {
        entrance: entranceNames[index] });
      kit.info(entranceNodes[index], { title: count ? `${text} (${t.n("{n} figure", "{n} figures", count)})` : text });
    });
    noteChanges();
    drawFigures();
    drawStatus();
    drawSeats();
    drawSupply();
    markTargets();
    kit.end();
  }

  kit.ready.then((doc) => {
    for (const entry of (doc && doc.entries) || []) {
      help.set(entry.key, entry);
      const kind = entry.key.split(":")[0];
      const code = Object.values(entry.numbers || {})[0];
      if ((kind === "item" || kind === "obstacle") && typeof code === "string") byCode.set(code, entry.key);
    }
    cellSig.fill(null);
    render();
  });

  return {
    update(next) {
      if (view === null) cellSig.fill(null);
      frame = next;
      view = next.view;
      legal = next.legal || [];
      render();
    },
    destroy() {
      clearInterval(rollTimer);
      kit.destroy();
      board.remove();
      link.remove();
    },
  };
}

/** A small picture of a tile's corridors for an orientation choice (the openings mask). */
function tileIcon(mask) {
  const icon = svg("svg", { class: "tomb-icon", viewBox: "0 0 24 24", width: "24", height: "24", "aria-hidden": "true" });
  icon.append(svg("rect", { x: 0, y: 0, width: 24, height: 24, rx: 3, class: "stone" }),
    svg("rect", { x: 8, y: 8, width: 8, height: 8, class: "floor" }));
  if (mask & 1) icon.append(svg("rect", { x: 8, y: 0, width: 8, height: 12, class: "floor" }));
  if (mask & 2) icon.append(svg("rect", { x: 12, y: 8, width: 12, height: 8, class: "floor" }));
  if (mask & 4) icon.append(svg("rect", { x: 8, y: 12, width: 8, height: 12, class: "floor" }));
  if (mask & 8) icon.append(svg("rect", { x: 0, y: 8, width: 12, height: 8, class: "floor" }));
  return icon;
}
