// A small picture of each game's layout for the lobby (an SVG drawn here): where its
// columns, stock, waste, foundations, reserve or hand lie, face-down cards blue and
// face-up cards white with a red or black mark.

const NS = "http://www.w3.org/2000/svg";
const W = 9; // a card's width in the picture's units
const H = 12.6;

function svg(tag, attributes) {
  const made = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, String(value));
  return made;
}

// A card at (x, y): "down", "up" (a face, its mark red when `red`) or "slot" (an empty pile).
function card(x, y, kind, red = false, width = W) {
  const height = width * (H / W);
  const group = svg("g", {});
  if (kind === "slot") {
    group.append(svg("rect", { x, y, width, height, rx: 1.2, fill: "none", stroke: "rgba(255,255,255,.5)", "stroke-width": 0.5, "stroke-dasharray": "1 0.8" }));
    return group;
  }
  group.append(svg("rect", { x, y, width, height, rx: 1.2, fill: kind === "down" ? "#2f5ea3" : "#fffdf7", stroke: kind === "down" ? "#fff" : "#999", "stroke-width": 0.4 }));
  if (kind === "up") group.append(svg("circle", { cx: x + width / 4, cy: y + width / 3.7, r: width / 7.5, fill: red ? "#c0142b" : "#1b1b1b" }));
  return group;
}

const red = (k) => k % 3 === 1;

const LAYOUTS = {
  klondike(add) {
    add(2, 2, "down");
    add(13, 2, "up", true);
    for (let k = 0; k < 4; k++) add(35 + k * 11, 2, "slot");
    for (let c = 0; c < 7; c++) {
      for (let r = 0; r < c; r++) add(2 + c * 11, 17 + r * 2.2, "down");
      add(2 + c * 11, 17 + c * 2.2, "up", red(c));
    }
  },
  golf(add) {
    for (let c = 0; c < 7; c++) for (let r = 0; r < 5; r++) add(2 + c * 11, 2 + r * 4, "up", red(c + r));
    add(2, 36, "down");
    add(13, 36, "up", true);
  },
  kansas(add) {
    add(2, 2, "up", true);
    add(13, 2, "down");
    add(24, 2, "up");
    add(46, 2, "up");
    for (let k = 1; k < 4; k++) add(46 + k * 8, 2, "slot");
    for (let c = 0; c < 3; c++) add(2 + c * 14, 19, "up", red(c));
  },
  expert(add) {
    const w = 6.6;
    for (let k = 0; k < 4; k++) add(2 + k * 2.6, 2, "up", red(k), w);
    for (let k = 0; k < 8; k++) add(17 + k * 7.7, 2, "slot", false, w);
    for (let c = 0; c < 10; c++) for (let r = 0; r < 7; r++) add(2 + c * 7.7, 15 + r * 3, "up", red(c + r), w);
  },
};

/** The picture of game `name`'s layout, for a player who does not know the game. */
export function gamePicture(name) {
  const picture = svg("svg", { viewBox: "0 0 80 50", class: "picture", "aria-hidden": "true", focusable: "false" });
  picture.append(svg("rect", { x: 0, y: 0, width: 80, height: 50, rx: 3, fill: "rgba(0,0,0,.22)" }));
  LAYOUTS[name]?.((x, y, kind, isRed = false, width = W) => picture.append(card(x, y, kind, isRed, width)));
  return picture;
}
