// Cards that move. The board is drawn again after each answer (board.js); this layer then
// slides every card from where it was to where it is now, turns a card turned up, flies a
// drawn card from the stock, and deals a new game. The board is always at its final state
// underneath (the animations only move the cards' pictures), so input is never blocked: a
// press, a key or the next answer finishes every running animation at once. With reduced
// motion nothing moves.
//
// The board has data-animating="true" while anything moves (tests wait for it to go).

const SLIDE = 200; // milliseconds a card slides
const FLIP = 220; // and turns over
const DEAL_TOTAL = 700; // the whole deal, at most, from the moment it is drawn
const DEAL_CARD = 200;

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const running = new Set();

function track(board, animation) {
  running.add(animation);
  board.dataset.animating = "true";
  const done = () => {
    running.delete(animation);
    if (![...running].some((other) => other.board === board)) delete board.dataset.animating;
  };
  animation.board = board;
  animation.finished.then(done, done);
  return animation;
}

/** Finish every animation on `board` at once (its cards jump to where they are). */
export function finish(board) {
  for (const animation of [...running]) {
    if (animation.board !== board) continue;
    try {
      animation.finish();
    } catch (_) {
      animation.cancel(); // an animation of an element no longer drawn
    }
  }
  for (const back of board.querySelectorAll(".flip-back")) back.remove();
  for (const card of board.querySelectorAll(".moving")) card.classList.remove("moving");
}

/** Where each card of `board` is now: key -> [{ rect, place, faceUp }] (a two-deck game has
 * two of a card). */
export function snapshot(board) {
  const found = new Map();
  for (const card of board.querySelectorAll(".card[data-key]")) {
    const list = found.get(card.dataset.key) ?? [];
    list.push({ rect: card.getBoundingClientRect(), place: card.dataset.place, element: card });
    found.set(card.dataset.key, list);
  }
  return found;
}

// The card that was at `from` before, for a card drawn now: the same card (in the same
// place first, for a two-deck game's twins), else, for a card now face up that was not
// seen before, where it was face down.
function origin(before, card, used) {
  const key = card.dataset.key;
  const same = (before.get(key) ?? []).filter((item) => !used.has(item));
  const chosen = same.find((item) => item.place === card.dataset.place) ?? same[0];
  if (chosen) return { item: chosen, flip: false };
  if (!card.dataset.card) return null;
  const place = card.dataset.place;
  if (place === "w") {
    const stock = before.get("stock")?.[0];
    if (stock) return { item: stock, flip: true };
  }
  // turned up where a face-down card was (a column's), or in place (a reserve's next card)
  const column = card.closest(".column");
  if (column) {
    const index = [...column.children].indexOf(card);
    const down = before.get(`down:${place}:${index}`)?.[0];
    if (down) return { item: down, flip: true };
  }
  return { item: null, flip: true };
}

// (`now`: where the card is laid out, read by the caller with every other card's before any
// of them moves: a card's box read after another card was set moving lays the page out
// again, once a card)
function slide(board, card, from, { flip, now, duration = SLIDE, delay = 0 }) {
  const dx = from ? from.left - now.left : 0;
  const dy = from ? from.top - now.top : 0;
  if (!flip && Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5) return null;
  card.classList.add("moving");
  // (to a pile whose cards are drawn larger, a waste grown under the columns: the card leaves
  // at the size it had and grows on the way; never larger than its place, for a card on
  // its way is within the board, where the board's fit measures it)
  const scale = !flip && from?.width && now.width ? from.width / now.width : 1;
  const sized = scale < 0.98 && scale > 0.2;
  if (sized) card.style.transformOrigin = "0 0";
  const start = `translate(${dx}px, ${dy}px)${sized ? ` scale(${scale})` : ""}`;
  const frames = flip
    ? [
      { transform: `${start} scaleX(1)`, offset: 0 },
      { transform: `translate(${dx / 2}px, ${dy / 2}px) scaleX(0.02)`, offset: 0.5 },
      { transform: "none", offset: 1 },
    ]
    : [{ transform: start }, { transform: "none" }];
  const time = flip ? Math.max(duration, FLIP) : duration;
  const animation = track(board, card.animate(frames, { duration: time, delay, easing: "ease-out", fill: "backwards" }));
  if (flip) {
    // the back shows until the card is edge on, then its face
    const back = document.createElement("span");
    back.className = "flip-back";
    back.setAttribute("aria-hidden", "true");
    card.append(back);
    const turning = track(board, back.animate([{ opacity: 1 }, { opacity: 1, offset: 0.5 }, { opacity: 0, offset: 0.5001 }, { opacity: 0 }],
      { duration: time, delay, fill: "both" }));
    const gone = () => back.remove();
    turning.finished.then(gone, gone);
  }
  const landed = () => {
    card.classList.remove("moving");
    if (sized) card.style.transformOrigin = "";
  };
  animation.finished.then(landed, landed);
  return animation;
}

/**
 * Move the cards of the board drawn now from where they were in `before` (a snapshot):
 * slides, turns and draws. `origins` (key -> rect) overrides where some cards start (a
 * card dropped by a drag starts where it was let go). Which sounds to play is returned:
 * { moved, flipped, drawn } counts.
 */
export function animate(board, before, { origins = null } = {}) {
  const counts = { moved: 0, flipped: 0, drawn: 0 };
  if (!before) return counts;
  const used = new Set();
  const moves = [];
  for (const card of board.querySelectorAll(".card[data-key]")) {
    const found = origin(before, card, used);
    if (!found) continue;
    if (found.item) used.add(found.item);
    const override = origins?.get(card.dataset.key);
    const from = override ?? found.item?.rect ?? null;
    if (card.classList.contains("under") && !override) {
      if (found.flip) continue; // a card under a pile's top that was not drawn before
    }
    moves.push({ card, found, from });
  }
  const still = reducedMotion();
  const places = still ? [] : moves.map(({ card }) => card.getBoundingClientRect());
  for (const [k, { card, found, from }] of moves.entries()) {
    const played = still ? null : slide(board, card, from, { flip: found.flip && Boolean(card.dataset.card), now: places[k] });
    if (found.flip && card.dataset.card && !card.classList.contains("under")) {
      if (found.item?.place === "stock") counts.drawn += 1;
      else counts.flipped += 1;
    } else if (played && !card.classList.contains("under")) counts.moved += 1;
  }
  return counts;
}

/** Deal a new game: every card flies from the stock (or the board's top left corner) to
 * its place, one after another, face as it lies, the whole deal within DEAL_TOTAL
 * milliseconds of this call however many cards (a two-deck deal's 104 too) and however
 * busy the page is: every card's flight is timed from this moment, not from when the
 * browser got round to starting it. Any press or key finishes it at once (app.js). */
export function deal(board) {
  if (reducedMotion()) return;
  const cards = [...board.querySelectorAll(".card[data-key]:not(.under)")];
  if (!cards.length) return;
  const stock = board.querySelector(".stock")?.getBoundingClientRect() ?? board.getBoundingClientRect();
  // columns row by row, as a deal is dealt
  const order = cards.map((card) => {
    const column = card.closest(".column");
    const index = column ? [...column.children].indexOf(card) : -1;
    const across = column ? [...column.parentElement.children].indexOf(column) : 0;
    return { card, index, across };
  }).sort((a, b) => a.index - b.index || a.across - b.across);
  const step = Math.min(35, (DEAL_TOTAL - DEAL_CARD) / Math.max(1, order.length - 1));
  const start = document.timeline.currentTime;
  const places = order.map(({ card }) => card.getBoundingClientRect());
  order.forEach(({ card }, k) => {
    const flight = slide(board, card, stock, { flip: false, now: places[k], duration: DEAL_CARD, delay: k * step });
    if (flight && start !== null) flight.startTime = start;
  });
}

/**
 * The automatic play-out: the cards of `steps` (each { card element, target rect }) fly to
 * their foundations one after another, within `total` milliseconds in all. Resolves when
 * they have landed, or at once when `skip()` is called (a tap).
 */
export function flyHome(board, flights, { total = 2500, flight = 220 } = {}) {
  if (!flights.length || reducedMotion()) return Promise.resolve();
  const gap = flights.length > 1 ? Math.min(90, (total - flight) / (flights.length - 1)) : 0;
  // (every card's place read before any of them flies: see slide)
  const places = flights.map(({ card }) => placeOf(card));
  const animations = flights.map(({ card, to }, k) => {
    // from the card's place on the board, not from where a slide still running shows it
    // (a card the last move brought to its column): the flight is added to that slide,
    // so it leaves from where the card is seen and lands on its pile all the same
    const from = places[k];
    card.classList.add("flying");
    card.style.zIndex = String(40 + k);
    const shift = `translate(${to.left - from.left}px, ${to.top - from.top}px)`;
    return track(board, card.animate([{ transform: "translate(0px, 0px)" }, { transform: shift }],
      { duration: flight, delay: k * gap, easing: "ease-in", fill: "forwards", composite: "add" }));
  });
  return Promise.all(animations.map((animation) => animation.finished.catch(() => {}))).then(() => {});
}

// Where a card is laid out: its box without the moves its animations add to it now.
function placeOf(card) {
  const seen = card.getBoundingClientRect();
  const moved = getComputedStyle(card).transform;
  if (!moved || moved === "none") return seen;
  const matrix = new DOMMatrixReadOnly(moved);
  return { left: seen.left - matrix.m41, top: seen.top - matrix.m42 };
}
