// The pictures of Secret of the Ancient Tomb's components, drawn inline (no image files): every item token,
// every obstacle and every special tile, each a few shapes on a 24×24 grid, so a person recognises a snake, a
// torch or a chest on the maze and on the players' tokens without reading a code. The board names each picture
// (the component's name in the page's language); the pictures themselves carry no text.

const SVG = "http://www.w3.org/2000/svg";

/** Each component's shapes: `[element, attributes]` on a 24×24 grid, keyed by the help's ids (``item:…``). */
export const ICONS = {
  // Items (the rulebook's almanac, p. 6–10).
  food: [["path", { d: "M6 15c0-5 3-9 7-9s6 3 5 7-4 6-8 6c-2 0-4-1-4-4z", fill: "#c9863a", stroke: "#6b3f12" }],
    ["path", { d: "M8 17l-4 4M3 20l2 2M2 21l2-2", stroke: "#f5efe0", "stroke-width": 2.4, "stroke-linecap": "round" }]],
  water: [["path", { d: "M12 2C9 7 5 11 5 15a7 7 0 0 0 14 0c0-4-4-8-7-13z", fill: "#3b8fd9", stroke: "#174a7a" }],
    ["path", { d: "M9 15a3 3 0 0 0 3 3", stroke: "#e6f2ff", "stroke-width": 1.8, fill: "none" }]],
  chocolate: [["rect", { x: 4, y: 3, width: 16, height: 18, rx: 2, fill: "#6b3a1e", stroke: "#3a1d0c" }],
    ["path", { d: "M4 9h16M4 15h16M12 3v18", stroke: "#a9683f", "stroke-width": 1.5 }]],
  torch: [["path", { d: "M10 11h4l-1 11h-2z", fill: "#8a5a2b", stroke: "#4d2f12" }],
    ["path", { d: "M12 1c-3 3-5 5-4 8 1 2 7 2 8 0 1-3-1-5-4-8z", fill: "#f08a1c", stroke: "#b23a0a" }],
    ["path", { d: "M12 5c-1 2-2 3-1 4h2c1-1 0-2-1-4z", fill: "#ffd54a" }]],
  scarf: [["path", { d: "M3 7c4-3 14-3 18 0l-2 4c-4-2-10-2-14 0z", fill: "#c0392b", stroke: "#6e1d15" }],
    ["path", { d: "M14 10l2 11 3-1-1-11z M9 10l-1 9 3 1 1-10z", fill: "#e0584a", stroke: "#6e1d15" }]],
  plan: [["rect", { x: 3, y: 4, width: 18, height: 16, rx: 1.5, fill: "#f3e6c4", stroke: "#6b5d4a" }],
    ["path", { d: "M6 8h5v4h4v-4h3M6 16h6v-3M15 16h3", stroke: "#1f5f8b", "stroke-width": 1.6, fill: "none" }]],
  first_aid_kit: [["rect", { x: 3, y: 6, width: 18, height: 14, rx: 2, fill: "#fffdf6", stroke: "#7a1a14" }],
    ["path", { d: "M9 6V4h6v2", stroke: "#7a1a14", fill: "none" }],
    ["path", { d: "M10 9h4v3h3v4h-3v3h-4v-3H7v-4h3z", fill: "#d42a20" }]],
  money: [["circle", { cx: 12, cy: 12, r: 9, fill: "#e2b42a", stroke: "#8a6508" }],
    ["circle", { cx: 12, cy: 12, r: 5.5, fill: "none", stroke: "#8a6508", "stroke-width": 1.4 }],
    ["path", { d: "M12 9v6", stroke: "#8a6508", "stroke-width": 1.8 }]],
  magic_flask: [["path", { d: "M10 3h4v6l5 8a3 3 0 0 1-3 4H8a3 3 0 0 1-3-4l5-8z", fill: "#8e5bd6", stroke: "#3d1f6b" }],
    ["path", { d: "M7 16h10", stroke: "#d9c5f5", "stroke-width": 1.5 }], ["circle", { cx: 13, cy: 18, r: 1.3, fill: "#f4ecff" }]],
  golden_key: [["circle", { cx: 7, cy: 12, r: 4.5, fill: "none", stroke: "#b8860b", "stroke-width": 2.6 }],
    ["path", { d: "M11 12h10M17 12v4M20 12v3", stroke: "#b8860b", "stroke-width": 2.6, "stroke-linecap": "round" }]],
  papyrus_of_the_dead: [["rect", { x: 5, y: 5, width: 14, height: 14, fill: "#efdfae", stroke: "#6b5d4a" }],
    ["circle", { cx: 5, cy: 12, r: 2.5, fill: "#d9c48b", stroke: "#6b5d4a" }],
    ["circle", { cx: 19, cy: 12, r: 2.5, fill: "#d9c48b", stroke: "#6b5d4a" }],
    ["path", { d: "M12 8a2 2 0 1 1-.1 0M12 12v5M9.5 13h5", stroke: "#2b2118", "stroke-width": 1.4, fill: "none" }]],
  // Obstacles (almanac p. 6–7): the group's colour is the backing the board draws; the picture says which one.
  snake: [["path", { d: "M4 20c4 0 4-5 8-5s4 4 7 2-1-6-5-6-6-2-4-5 5-2 6 0", stroke: "#2e7d32", "stroke-width": 3.2,
    fill: "none", "stroke-linecap": "round" }], ["circle", { cx: 16, cy: 5.5, r: 1.8, fill: "#2e7d32" }]],
  poison_gas: [["path", { d: "M5 16a4 4 0 0 1 1-8 5 5 0 0 1 9-2 4 4 0 0 1 4 6 3 3 0 0 1-2 4z", fill: "#9ccc65",
    stroke: "#33691e" }], ["path", { d: "M7 20c2-1 3 1 5 0s3 1 5 0", stroke: "#33691e", "stroke-width": 1.6, fill: "none" }]],
  trap: [["path", { d: "M2 20l3-9 3 9 3-11 3 11 3-9 3 9 2-6v7H2z", fill: "#9e9e9e", stroke: "#37474f" }]],
  hunger: [["path", { d: "M3 12h18a9 7 0 0 1-18 0z", fill: "#d7ccc8", stroke: "#5d4037" }],
    ["path", { d: "M8 4v5M11 4v5M14 3c2 1 2 4 0 6", stroke: "#5d4037", "stroke-width": 1.6, fill: "none",
      "stroke-linecap": "round" }]],
  fatigue: [["path", { d: "M15 3a9 9 0 1 0 6 14A8 8 0 0 1 15 3z", fill: "#5c6bc0", stroke: "#283593" }],
    ["circle", { cx: 19, cy: 6, r: 1.2, fill: "#283593" }]],
  thirst: [["circle", { cx: 12, cy: 12, r: 5, fill: "#ffb300", stroke: "#b35c00" }],
    ["path", { d: "M12 1v4M12 19v4M1 12h4M19 12h4M4 4l3 3M17 17l3 3M4 20l3-3M17 7l3-3", stroke: "#b35c00",
      "stroke-width": 1.8, "stroke-linecap": "round" }]],
  collapsed_walls: [["path", { d: "M2 21h20v-4H2zM4 17v-4h7v4M11 13l3-3 6 2-1 5", fill: "#a1887f", stroke: "#3e2723" }],
    ["path", { d: "M6 8l3-2 2 3M15 5l2-1 1 2", stroke: "#3e2723", "stroke-width": 1.6, fill: "none" }]],
  mysterious_doors: [["path", { d: "M5 22V9a7 7 0 0 1 14 0v13z", fill: "#6d4c41", stroke: "#2b1a12" }],
    ["circle", { cx: 12, cy: 13, r: 2, fill: "#ffd54a" }], ["path", { d: "M12 15v3", stroke: "#ffd54a", "stroke-width": 2 }]],
  bottomless_chasm: [["ellipse", { cx: 12, cy: 14, rx: 10, ry: 6, fill: "#1b140d", stroke: "#5d4037", "stroke-width": 2 }],
    ["path", { d: "M6 14l3-2 3 3 3-3 3 2", stroke: "#8d6e63", "stroke-width": 1.4, fill: "none" }]],
  // Special tiles (almanac p. 7).
  map: [["path", { d: "M2 5l6-2 8 3 6-2v15l-6 2-8-3-6 2z", fill: "#f3e6c4", stroke: "#6b5d4a" }],
    ["path", { d: "M8 3v15M16 6v15", stroke: "#6b5d4a", "stroke-width": 1.2 }],
    ["path", { d: "M10 9l4 4M14 9l-4 4", stroke: "#c0392b", "stroke-width": 2, "stroke-linecap": "round" }]],
  secret_passage: [["path", { d: "M3 21h18V3h-4v4h-4v4H9v4H5v4H3z", fill: "#8d7b5e", stroke: "#3f3324" }],
    ["path", { d: "M3 21V9", stroke: "#3f3324", "stroke-width": 1.5, "stroke-dasharray": "2 2" }]],
  dark_shrine: [["path", { d: "M2 9l10-6 10 6z", fill: "#3a2f4f", stroke: "#1b1426" }],
    ["path", { d: "M4 9h16v11H4z", fill: "#5b4a7a", stroke: "#1b1426" }],
    ["path", { d: "M7 11v8M17 11v8", stroke: "#1b1426", "stroke-width": 1.8 }],
    ["path", { d: "M12 13l2 3h-4z", fill: "#c9a9ff" }]],
  chest: [["path", { d: "M3 10a9 5 0 0 1 18 0z", fill: "#a0522d", stroke: "#4a2410" }],
    ["rect", { x: 3, y: 10, width: 18, height: 10, fill: "#b5652f", stroke: "#4a2410" }],
    ["path", { d: "M3 13h18", stroke: "#e2b42a", "stroke-width": 1.6 }],
    ["rect", { x: 10.5, y: 11, width: 3, height: 4, fill: "#e2b42a", stroke: "#4a2410", "stroke-width": 0.8 }]],
  inscription: [["path", { d: "M12 3a3 3 0 1 1-.1 0M12 9v12M7 12h10", stroke: "#fffdf6", "stroke-width": 2.2,
    fill: "none", "stroke-linecap": "round" }]],
};

/** The icon of a component by its help key (``item:torch``, ``obstacle:snake``, ``tile:chest``), or ``null``. */
export function iconId(key) {
  const id = typeof key === "string" ? key.split(":")[1] : null;
  return id && ICONS[id] ? id : null;
}

/** The shapes of icon ``id`` as an SVG group on the 24×24 grid (default strokes 1.2, round joins). */
export function iconShapes(id) {
  const group = document.createElementNS(SVG, "g");
  group.setAttribute("stroke-width", "1.2");
  group.setAttribute("stroke-linejoin", "round");
  for (const [name, attrs] of ICONS[id] || []) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    group.append(node);
  }
  return group;
}

/** A small picture of component ``id`` for a line of text (a token, a stack), named by ``name`` when it stands
 * alone, or hidden from a screen reader when the text next to it already says the name (``name`` null). */
export function iconPicture(id, name = null, size = 20) {
  const picture = document.createElementNS(SVG, "svg");
  picture.setAttribute("viewBox", "0 0 24 24");
  picture.setAttribute("width", String(size));
  picture.setAttribute("height", String(size));
  picture.setAttribute("class", "tomb-pic");
  if (name) {
    picture.setAttribute("role", "img");
    picture.setAttribute("aria-label", name);
  } else {
    picture.setAttribute("aria-hidden", "true");
  }
  picture.append(iconShapes(id));
  return picture;
}
