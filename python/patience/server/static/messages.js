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
  const natural = element.getBoundingClientRect().width;
  let best = null;
  for (const wide of [natural, natural * 0.7, natural * 0.5].filter((w) => w >= 160 || w === natural)) {
    style.maxWidth = `${Math.floor(wide)}px`;
    const box = element.getBoundingClientRect();
    const goal = { x: (width - box.width) / 2, y: height - box.height - 14 };
    for (let top = MARGIN; top + box.height <= height - MARGIN; top += STEP) {
      for (let left = MARGIN; left + box.width <= width - MARGIN; left += STEP) {
        const here = { left: left - MARGIN, top: top - MARGIN, right: left + box.width + MARGIN, bottom: top + box.height + MARGIN };
        let covered = 0;
        for (const { cost, boxes } of weighted) for (const r of boxes) covered += cost * overlap(here, r);
        const distance = Math.hypot(left - goal.x, (top - goal.y) * 2); // (nearer the foot first)
        if (!best || covered < best.covered || (covered === best.covered && distance < best.distance)) {
          best = { covered, distance, left, top, wide };
        }
      }
    }
    if (best?.covered === 0) break; // a free place at this width: no narrower lines needed
  }
  if (!best) { style.maxWidth = ""; return; }
  style.maxWidth = `${Math.floor(best.wide)}px`;
  style.left = `${best.left}px`;
  style.top = `${best.top}px`;
  style.bottom = "auto";
  style.transform = "none";
}

/** Keep `element` placed: when its words change, when the window does, and when the board's
 * cards come to rest (a message shown while they moved is placed again where they stand). */
export function keepMessagePlaced(element, board) {
  const place = () => placeMessage(element);
  new MutationObserver(place).observe(element, { childList: true, characterData: true, subtree: true });
  new MutationObserver(() => { if (!board.dataset.animating) place(); })
    .observe(board, { attributes: true, attributeFilter: ["data-animating"] });
  window.addEventListener("resize", place);
}
