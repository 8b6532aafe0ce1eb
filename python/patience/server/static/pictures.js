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

/** The picture of a game's layout (its `layout.picture`: cards at [x, y, kind, red,
 * width]), for a player who does not know the game. */
export function gamePicture(cards = []) {
  const picture = svg("svg", { viewBox: "0 0 80 50", class: "picture", "aria-hidden": "true", focusable: "false" });
  picture.append(svg("rect", { x: 0, y: 0, width: 80, height: 50, rx: 3, fill: "rgba(0,0,0,.22)" }));
  for (const [x, y, kind, isRed = false, width = null] of cards) picture.append(card(x, y, kind, isRed, width ?? W));
  return picture;
}
