// Where a message of the table shows: in free felt, over no card, pile, count, control, the
// header's figures nor the help line, so that the player can check what it says against the
// cards it speaks of while it shows. Of the places that are free, the one nearest the foot of
// the screen's middle (where a message has always been looked for); where none is (a board
// that fills the screen), the one that covers least, cards counting most.

// What a message never covers where it can help it, and what covering costs (per pixel).
const KEEP_CLEAR = [
  ["#board .card, #board .pile, #board .count", 4],
  ["#table .controls :is(button, input, summary, a), #stuck:not([hidden])", 3],
  [".bar", 2],
  ["#table > .help", 1],
];
const MARGIN = 6; // pixels: the room kept between a message and what it must not cover
const STEP = 6; // pixels: the grid the free places are looked for on

const boxesOf = (selector) => [...document.querySelectorAll(selector)]
  .map((item) => item.getBoundingClientRect()).filter((r) => r.width && r.height);

const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
  * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

/** Place `element` (the table's message, position: fixed) where it covers nothing it may
 * speak of: the nearest free place to the foot of the screen's middle, its lines made
 * narrower where only a narrower box fits. */
export function placeMessage(element) {
  const style = element.style;
  style.left = style.top = style.bottom = style.transform = style.maxWidth = "";
  if (!element.textContent || element.closest("[hidden]")) return;
  const width = window.innerWidth, height = window.innerHeight;
  const weighted = KEEP_CLEAR.map(([selector, cost]) => ({ cost, boxes: boxesOf(selector) }));
  const all = weighted.flatMap(({ boxes }) => boxes);
  const natural = element.getBoundingClientRect().width;
  const widths = [natural, natural * 0.7, natural * 0.5].filter((w, k) => k === 0 || w >= 160);
  const put = (left, top, wide) => {
    style.maxWidth = `${Math.floor(wide)}px`;
    style.left = `${left}px`;
    style.top = `${top}px`;
    style.bottom = "auto";
    style.transform = "none";
  };
  const around = (left, top, box) => ({ left: left - MARGIN, top: top - MARGIN, right: left + box.width + MARGIN, bottom: top + box.height + MARGIN });
  const measured = (wide) => {
    style.maxWidth = `${Math.floor(wide)}px`;
    const r = element.getBoundingClientRect();
    return { wide, width: r.width, height: r.height };
  };
  // the places on a grid, nearest the goal first; the first that meets nothing is taken (a
  // narrower box is measured only where the wider found no room)
  let box = null;
  for (const wide of widths) {
    box = measured(wide);
    const goal = { x: (width - box.width) / 2, y: height - box.height - 14 };
    const places = [];
    for (let top = MARGIN; top + box.height <= height - MARGIN; top += STEP) {
      for (let left = MARGIN; left + box.width <= width - MARGIN; left += STEP) {
        places.push({ left, top, distance: Math.hypot(left - goal.x, (top - goal.y) * 2) }); // (nearer the foot first)
      }
    }
    places.sort((a, b) => a.distance - b.distance);
    const free = places.find(({ left, top }) => {
      const here = around(left, top, box);
      return !all.some((r) => overlap(here, r) > 0);
    });
    if (free) { put(free.left, free.top, box.wide); return; }
  }
  // nowhere free (a board that fills the screen): where it covers least, cards counting most
  let best = null;
  for (let top = MARGIN; top + box.height <= height - MARGIN; top += STEP * 3) {
    for (let left = MARGIN; left + box.width <= width - MARGIN; left += STEP * 3) {
      const here = around(left, top, box);
      let covered = 0;
      for (const { cost, boxes } of weighted) for (const r of boxes) covered += cost * overlap(here, r);
      if (!best || covered < best.covered) best = { covered, left, top };
    }
  }
  if (best) put(best.left, best.top, box.wide);
  else style.maxWidth = "";
}

/** Keep `element` placed: when its words change, when the window does, when the board's
 * cards come to rest (a message shown while they moved is placed again where they stand),
 * and when the "no more moves" bar comes or goes. */
export function keepMessagePlaced(element, board) {
  const place = () => placeMessage(element);
  let pending = 0;
  const soon = () => { cancelAnimationFrame(pending); pending = requestAnimationFrame(place); }; // (once a frame)
  new MutationObserver(place).observe(element, { childList: true, characterData: true, subtree: true });
  new MutationObserver(() => { if (!board.dataset.animating && element.textContent) soon(); })
    .observe(board, { attributes: true, attributeFilter: ["data-animating"] });
  const stuck = document.getElementById("stuck");
  if (stuck) new MutationObserver(() => { if (element.textContent) soon(); }).observe(stuck, { attributes: true, attributeFilter: ["hidden"] });
  window.addEventListener("resize", () => { if (element.textContent) soon(); });
}
