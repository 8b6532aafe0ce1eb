// The board of a game, drawn from the server's view of it, into any container.
//
// drawBoard(container, answer, { interactive }) draws the board of `answer` (a view of
// /api/sessions/{id}, or a bare board: a step of /api/sessions/{id}/replay) and fits it to
// the space it has. The cards' size is chosen once for a game and a window (from the
// width, and from the height a long column of the game needs), and kept while the game is
// played: a column that grows long squeezes its fan instead (its face-down cards first,
// every corner kept whole), and the cards shrink only for a column longer than the longest
// the game's columns reach. With `interactive: false` the board is a still
// picture: nothing on it can be picked, focused or pressed.
//
// What the input layer relies on: a card that can be moved has `data-src` (its place in
// move notation), a place a card can be put has `data-dest`, the stock has `data-action`
// (the word its press plays), and every place a player can reach by keys has the class
// `stop`. What the motion layer relies on: every card has `data-key` (its card, or
// `down:PLACE:INDEX` for a face-down card, `stock` for the stock's back) and the place it
// is in (`data-place`); a card drawn under a pile's top (to be seen while the top card moves
// away) has the class `under`.

import { cardElement, cardName, parts, SUITS } from "./cards.js";
import { layoutOf } from "./games.js";
import { buildsBy } from "./moves.js";

const SUIT_WORDS = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const RANKS = "A23456789TJQK";

function element(tag, className, attributes = {}) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  return made;
}

const plural = (count, one, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function keyed(made, key, place) {
  made.dataset.key = key;
  made.dataset.place = place;
  return made;
}

// A card that can be played: a button named by its card, reached by keys.
function playable(card, src, place = src) {
  const made = keyed(cardElement(card), card, place);
  made.dataset.src = src;
  made.setAttribute("role", "button");
  made.classList.add("stop");
  return made;
}

// A card under a pile's top card: seen only while the top moves away.
function under(card, place) {
  const made = keyed(cardElement(card), card, place);
  made.classList.add("under");
  made.setAttribute("aria-hidden", "true");
  made.removeAttribute("role");
  return made;
}

// The card below `top` on a foundation built up by suit (`wrap`: turning the corner from
// king to ace).
function below(top, wrap = false) {
  const { rank, suit } = parts(top);
  const index = RANKS.indexOf(rank);
  if (index === 0) return wrap ? `K${suit}` : null;
  return `${RANKS[index - 1]}${suit}`;
}

function countBadge(count) {
  const badge = element("span", "count", { "aria-hidden": "true" });
  badge.textContent = String(count);
  return badge;
}

// A pile that shows its top card (or its last few, fanned sideways).
function pile({ dest = null, label, cards = [], role = null, watermark = "" }) {
  const made = element("div", "pile");
  if (dest) made.dataset.dest = dest;
  if (watermark) {
    const mark = element("span", "watermark", { "aria-hidden": "true" });
    mark.textContent = watermark;
    made.append(mark);
  }
  made.append(...cards);
  const focusable = cards.some((card) => card.classList.contains("stop"));
  if (role === "button" || (dest && !focusable)) {
    made.setAttribute("role", "button");
    made.classList.add("stop");
  } else {
    made.setAttribute("role", "group");
  }
  made.setAttribute("aria-label", label);
  return made;
}

function stockPile(count, move, what) {
  const cards = count ? [keyed(cardElement(null), "stock", "stock")] : [];
  const words = move === "recycle" ? "turn the waste over" : "draw";
  const made = pile({ label: `${what}, ${plural(count, "card")}: ${words}`, cards, role: "button" });
  made.classList.add("stock");
  made.dataset.action = move;
  if (count) made.append(countBadge(count));
  else if (move === "recycle") {
    const mark = element("span", "recycle-mark", { "aria-hidden": "true" });
    mark.textContent = "\u21bb";
    made.append(mark);
    made.title = "Turn the waste over";
  }
  return made;
}

function wastePile(waste, shown, { src = "w", all = false } = {}) {
  const top = waste.slice(-shown);
  const cards = top.map((card, index) => {
    const made = index === top.length - 1 && src ? playable(card, src, "w") : keyed(cardElement(card), card, "w");
    made.classList.add("fanned");
    made.style.setProperty("--index", String(index));
    return made;
  });
  // the cards under the shown ones: the next one (seen as the top card leaves), or all of
  // them for a play-out, which sends them home one after another
  const hidden = waste.slice(0, -shown || undefined);
  const beneath = (all ? hidden : hidden.slice(-1)).map((card) => under(card, "w"));
  const label = waste.length ? `waste, ${plural(waste.length, "card")}, ${cardName(waste.at(-1))} on top` : "waste, empty";
  const made = pile({ label, cards: [...beneath, ...cards] });
  made.classList.add("waste");
  made.dataset.shown = String(shown);
  return made;
}

// Where the sequence a column's cards end in starts (an index of `cards`): the cards from
// there down each build on the one before by the columns' rule (`build`); where the layout
// lifts only sequences (its `pick` "sequence"), only a card of it heads cards that move
// together. (Any other `pick`: every face-up card.)
function runStart(cards, pick, build) {
  if (pick !== "sequence" || !build) return 0;
  let start = cards.length - 1;
  while (start > 0 && buildsBy(cards[start], cards[start - 1], build)) start--;
  return Math.max(0, start);
}

function columns(tableau, { pick = "run", packed = false, build = null } = {}) {
  const made = element("div", `row tableau${packed ? " packed" : ""}`);
  tableau.forEach((column, index) => {
    const place = `t${index + 1}`;
    const item = element("div", "column", { "data-dest": place });
    const total = column.hidden + column.cards.length;
    const run = column.hidden + runStart(column.cards, pick, build);
    for (let k = 0; k < total; k++) {
      const faceUp = k >= column.hidden;
      const card = faceUp ? column.cards[k - column.hidden] : null;
      const exposed = k === total - 1;
      // a face-up card can be picked up where it heads a run (where only the exposed card
      // plays, only that one); a face-up card over cards out of sequence is seen, not lifted
      const src = faceUp && (exposed || (pick !== "exposed" && k >= run)) ? (exposed ? place : `${place}:${card}`) : null;
      const drawn = src ? playable(card, src, place) : keyed(cardElement(card), card ?? `down:${place}:${k}`, place);
      drawn.classList.toggle("face-up", faceUp);
      if (faceUp && !src) drawn.classList.add("held"); // (a press on it says why it stays)
      item.append(drawn);
    }
    const words = total ? `${plural(total, "card")}${column.hidden ? `, ${column.hidden} face down` : ""}` : "empty";
    item.setAttribute("aria-label", `column ${index + 1}, ${words}`);
    if (total) item.setAttribute("role", "group");
    else {
      item.setAttribute("role", "button");
      item.classList.add("stop");
    }
    made.append(item);
  });
  return made;
}

function row(className, ...children) {
  const made = element("div", `row ${className}`);
  made.append(...children);
  return made;
}

const spacer = () => element("div", "spacer");

// A foundation pile's cards: its top, and the card under it.
function foundationCards(top, place, { src = null, wrap = false, count = 2 } = {}) {
  if (!top) return [];
  const lower = count > 1 ? below(top, wrap) : null;
  const shown = src ? playable(top, src, place) : keyed(cardElement(top), top, place);
  return lower ? [under(lower, place), shown] : [shown];
}

// A rank as a pile's mark says it ("10", not "T").
const rankWords = (rank) => (rank === "T" ? "10" : rank);

// Each kind of pile of a game's layout (GET /api/games, docs/api.md): what it draws from
// the board, as a list of elements of its row.
const PILES = {
  stock(spec, board) {
    const count = board[spec.field];
    const word = spec.recycle && !count && board.waste.length ? "recycle" : "draw";
    return [stockPile(count, word, spec.name)];
  },
  waste(spec, board, options) {
    const shown = spec.fan_option ? board.variant[spec.fan_option] : spec.fan ?? 1;
    const made = wastePile(board.waste, shown, { src: spec.take ? "w" : null, all: options.all });
    if (spec.drop) {
      made.dataset.dest = "w";
      made.setAttribute("role", "button");
      made.classList.add("stop"); // a place a card is dragged to, or reached by keys
    }
    return [made];
  },
  spacer: () => [spacer()],
  reserve(spec, board) {
    const { cards, top } = board[spec.field];
    const made = pile({
      label: `reserve, ${plural(cards, "card")}${top ? `, ${cardName(top)} on top` : ""}`,
      cards: top ? [playable(top, "r")] : [],
    });
    if (cards) made.append(countBadge(cards));
    made.classList.add("reserve");
    return [made];
  },
  cell(spec, board) {
    const held = board[spec.field];
    if (spec.slots) {
      // a slot a card: `c1`..`cN` in notation, each a place of its own
      return held.map((card, index) => {
        const place = `c${index + 1}`;
        return pile({
          dest: place,
          label: `${spec.name} ${index + 1}, ${card ? cardName(card) : "empty"}`,
          cards: card ? [playable(card, place)] : [],
        });
      });
    }
    const cards = held.map((card, index) => {
      const made = playable(card, `h:${card}`, "h");
      made.classList.add("fanned");
      made.style.setProperty("--index", String(index));
      return made;
    });
    const made = pile({ dest: "h", label: `${spec.name}, ${held.length} of ${spec.size} cards`, cards });
    made.classList.add(spec.name);
    return [made];
  },
  foundation(spec, board) {
    if (spec.by === "suit") {
      return Object.entries(board.foundation).map(([suit, top]) =>
        pile({
          dest: "f",
          label: `foundation, ${SUIT_WORDS[suit]}${top ? `, up to the ${cardName(top)}` : ", empty"}`,
          cards: foundationCards(top, `f:${suit}`, { src: spec.take ? `f:${suit}` : null }),
          watermark: SUITS[suit],
        }));
    }
    const base = spec.base ? rankWords(board[spec.base]) : "";
    const made = board.foundation.map((slot, index) => {
      const filled = slot ? `${spec.count ? `${plural(slot.cards, "card")}, ` : ""}${cardName(slot.top)} on top` : `empty${base ? `, takes a ${base}` : ""}`;
      const place = `f${index}`;
      return pile({
        dest: "f",
        label: `${spec.name} ${index + 1}, ${filled}`,
        cards: slot ? foundationCards(slot.top, place, { src: spec.take ? place : null, wrap: Boolean(spec.wrap), count: spec.count ? slot.cards : 2 }) : [],
        watermark: slot ? "" : base,
      });
    });
    if (!spec.group) return made;
    const group = element("div", "piles");
    group.append(...made);
    return [group];
  },
};

// A phone held upright (as the page's own styles say it: at most 600 pixels wide, and
// taller than wide by a third): a game whose layout has `upright` rows stands in them.
const UPRIGHT = "(max-width: 600px) and (max-aspect-ratio: 10/13)";

/** The rows of `layout` the window lays the board out in, and the card widths they need
 * across: the game's `upright` ones on a phone held upright (a board played on, and a
 * replay's, whose cards are then as large as the table's), else its own. */
export function arrangementOf(layout) {
  if (layout.upright && window.matchMedia(UPRIGHT).matches) return { ...layout.upright, upright: true };
  return { rows: layout.rows, across: layout.across, upright: false };
}

// The rows of a game's board, top to bottom, as its layout lays them out.
function rows(layout, arrangement, board, options) {
  return arrangement.rows.map((line) => line.name === "tableau"
    ? columns(board.tableau, layout.tableau)
    : row(line.name, ...line.piles.flatMap((spec) => PILES[spec.kind](spec, board, options))));
}

const coarse = () => window.matchMedia("(pointer: coarse)").matches;

// A wide window (as the page's own styles say it): a game whose layout says
// `beside_when_wide` stands its piles beside its columns there.
const WIDE = "(min-width: 1000px) and (min-height: 501px) and (min-aspect-ratio: 4/3)";

/**
 * Draw the board of `answer` into `container` and fit it to the space it has.
 * `answer` is a view of a game (with `board`) or a bare board (with `game` and `tableau`).
 * `all`: every waste card drawn (a play-out sends them home one by one).
 */
export function drawBoard(container, answer, { interactive = true, height = null, all = false } = {}) {
  const board = answer.board ?? answer;
  const game = answer.game ?? board.game;
  container.classList.add("board");
  container.classList.toggle("still", !interactive);
  if (container.dataset.game !== game) delete container.fixedSize;
  container.dataset.game = game;
  const layout = layoutOf(game);
  const arrangement = arrangementOf(layout);
  container.dataset.arrangement = arrangement.upright ? "upright" : "flat";
  // (kept to draw again in the other rows when the window turns between upright and not)
  container.drawn = { answer, options: { interactive, height, all } };
  container.replaceChildren(...rows(layout, arrangement, board, { all }));
  if (!interactive) {
    for (const item of container.querySelectorAll("[data-src], [data-action], .stop")) {
      delete item.dataset.src;
      delete item.dataset.action;
      item.classList.remove("stop");
      item.setAttribute("role", item.classList.contains("card") ? "img" : "group");
    }
  } else {
    for (const stop of container.querySelectorAll(".stop")) stop.tabIndex = -1;
  }
  container.fitHeight = height;
  fitBoard(container);
}

/** Forget the size chosen for the game on `container`: the next fit chooses again (a new
 * game, or new card options). */
export function resetFit(container) {
  delete container.fixedSize;
}

// The columns' lengths: face-up cards past the first, and face-down cards.
function lengthsOf(columnsRow) {
  return [...columnsRow.children].map((column) => {
    const up = column.querySelectorAll(":scope > .card.face-up").length;
    return { up: Math.max(0, up - 1), down: column.querySelectorAll(":scope > .card").length - up };
  });
}

/** Fit a drawn board to its container again (after the window changed size). */
export function fitBoard(container) {
  const layout = layoutOf(container.dataset.game);
  const columnsRow = container.querySelector(".tableau");
  if (!layout || !columnsRow) return;
  const arrangement = arrangementOf(layout);
  if (container.drawn && container.dataset.arrangement !== (arrangement.upright ? "upright" : "flat")) {
    // the window turned between upright and not: the board stands in the other rows
    drawBoard(container, container.drawn.answer, container.drawn.options);
    return;
  }
  // (the classes that change the board's own width first: its width is then the one the
  // board is laid out in, from the first draw of a game on; a board whose piles stand
  // beside its columns on a wide window widens the page)
  container.classList.toggle("upright", arrangement.upright);
  container.classList.toggle("beside-when-short", Boolean(layout.beside_when_short));
  container.classList.toggle("beside-when-wide", Boolean(layout.beside_when_wide));
  let width = container.clientWidth || window.innerWidth;
  const top = container.getBoundingClientRect().top + window.scrollY;
  // (what follows the board on the page, its help line and its foot, keeps its room: the
  // page never scrolls)
  const height = container.fitHeight ?? Math.max(160, window.innerHeight - top - roomAfter(container));
  const large = document.body.classList.contains("large-index");
  // (a phone held upright has rows of its own, which need no folding)
  const narrow = !arrangement.upright && Boolean(layout.narrow) && width < layout.narrow.width;
  container.classList.toggle("narrow", narrow);
  container.style.setProperty("--fold", String(narrow ? layout.narrow.fold ?? 4 : 4));
  const across = narrow ? layout.narrow.across : arrangement.across;
  // (ten columns or more across a phone stand a pixel apart: the cards take the width,
  // each still edged by its border and shadow)
  const crowded = across >= 10 && width < 600;
  if (container.classList.contains("crowded") !== crowded) {
    container.classList.toggle("crowded", crowded);
    width = container.clientWidth || window.innerWidth;
  }
  // (piles beside the columns, on a short wide screen: half the gaps, for wider cards; on
  // a wide window, where the width is to spare, the usual gaps)
  const beside = getComputedStyle(container).display === "grid" && !window.matchMedia(WIDE).matches;
  // (a phone held upright: the rows' cards two pixels apart, and a pixel where seven
  // columns or more share the width, for the widest cards: seven across a 390 px screen
  // are 54 px wide)
  const gap = crowded || (arrangement.upright && across >= 7) ? 1 : arrangement.upright ? 2 : width < 600 || beside ? 3 : 8;
  const finger = coarse() ? (window.innerHeight > 500 ? 22 : 16) : 0;
  const lengths = lengthsOf(columnsRow);
  const portrait = window.innerHeight > window.innerWidth * 1.3;
  const key = `${width}x${Math.round(height)}|${large}|${finger}`;
  const settings = { gap, height, top, finger, layout, rows: arrangement.rows, portrait, beside, upright: arrangement.upright };
  // (a phone on its side whose piles stand beside its columns: the piles grown, at the size
  // chosen only, for they never change whether a size fits)
  const grown = (laid) => {
    if (beside && window.innerHeight < 500) growBeside(container, columnsRow, { cardW: laid.cardW, indexSize: laid.indexSize, height, top });
  };
  const fixed = container.fixedSize;
  // The size chosen for this game and window, while the columns fit it (a column of a real
  // game always does: the size holds the longest the game's columns reach).
  if (fixed?.key === key) {
    const laid = layOut(container, columnsRow, lengths, { ...settings, cardW: fixed.cardW, finger: fixed.finger, corner: fixed.corner, sized: sizedFor(layout, fixed.cardW) });
    if (laid.fits) {
      grown(laid);
      if (bottomOf(container, top) <= height) return;
    }
  }
  const fromWidth = (width - gap * Math.ceil(across)) / across;
  const start = Math.floor(Math.max(MIN_CARD, Math.min(fromWidth, MAX_CARD)));
  // The widest cards whose rows fit across and whose columns fit down, every covered
  // card's corner (its rank and suit) whole: the game's usual longest column, its fan
  // squeezed, its face-down cards first; the longest the game's columns reach, squeezed
  // further (see layOut). Chosen from the window and the game alone, so the same at every
  // reload of the game. On a touch screen a covered card keeps a strip a finger can take,
  // unless the columns cannot fit with it even at the narrowest cards. (a short screen, a
  // phone on its side, keeps cards of a comfortable size and fits the columns there are:
  // the longest may not fit it.) Large cards may have a corner smaller than a quarter of
  // their width (down to MIN_SHARE of it, never under MIN_CORNER pixels), as a player of a
  // desktop solitaire knows them: the cards larger, the corner as large as the longest
  // column then lets it be.
  // (each try lays the board out: the page's most costly work while a deal is drawn, so
  // the size is found in as few as it can be, and the one chosen is not laid out twice)
  let tried = null;
  let laid = null;
  const fitsAt = (cardW, strip, corner) => {
    tried = `${cardW}|${strip}|${corner}`;
    laid = layOut(container, columnsRow, lengths, { ...settings, cardW, finger: strip, corner, sized: sizedFor(layout, cardW) });
    return laid.fits && bottomOf(container, top) <= height;
  };
  const corners = (cardW) => {
    const usual = Math.round(cardW * (large ? 0.34 : 0.25));
    return { usual, least: large ? usual : Math.min(usual, Math.max(MIN_CORNER, Math.round(cardW * MIN_SHARE))) };
  };
  // (with its smallest corner: fitting is then monotone in the width)
  const fits = (cardW, strip) => {
    const { usual, least } = corners(cardW);
    return fitsAt(cardW, strip, least < usual ? least : null);
  };
  for (const strip of finger ? [finger, 0] : [0]) {
    // the widest that fits, by halves (a narrower card fits wherever a wider one does;
    // the narrowest, which fits nearly every window, tried first only where a finger's
    // strip may not fit at all)
    let low = MIN_CARD;
    let high = start;
    if (fits(high, strip)) low = high;
    else if (strip !== 0 && !fits(low, strip)) continue; // the finger's strip cannot be kept: without it
    else {
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (fits(middle, strip)) low = middle;
        else high = middle;
      }
    }
    // the largest corner the cards chosen fit with: their usual one where it fits, else
    // by halves (a smaller corner fits wherever a larger one does), the least at worst
    const { usual, least } = corners(low);
    let corner = null;
    if (least < usual) {
      corner = least;
      if (fitsAt(low, strip, usual)) corner = usual;
      else {
        let over = usual;
        while (over - corner > 1) {
          const middle = Math.floor((corner + over) / 2);
          if (fitsAt(low, strip, middle)) corner = middle;
          else over = middle;
        }
      }
    }
    if (tried !== `${low}|${strip}|${corner}`) fitsAt(low, strip, corner); // laid out at the size chosen
    grown(laid);
    container.fixedSize = { key, cardW: low, finger: strip, corner };
    return;
  }
}

// The room the page keeps under the board: what follows it on the page (the table's help
// line) and the page's own foot.
function roomAfter(container) {
  const page = container.closest("main");
  if (!page) return 6;
  return Math.max(6, Math.ceil(page.getBoundingClientRect().bottom - container.getBoundingClientRect().bottom) + 1);
}

// The column cards `cardW` wide must hold: the longest the game's columns reach; on a short
// screen (a phone on its side), where that would leave cards too small to read, the usual
// longest one for cards wider than a comfortable size, and none for narrower ones (only
// the columns there are).
function sizedFor(layout, cardW) {
  if (window.innerHeight >= 500) return layout.longest ?? layout.design;
  return cardW > comfort() ? layout.design : null;
}

// Where the drawn board ends, from the container's top (a column's last card hangs below
// the column's box by its border).
function bottomOf(container, top) {
  const drawn = container.querySelectorAll(":scope > .row, .column > .card:last-child");
  return Math.max(...[...drawn].map((item) => item.getBoundingClientRect().bottom)) + window.scrollY - top;
}

const MIN_CARD = 26;
// The widest cards (a large window's: the page's width bounds them too).
const MAX_CARD = 150;
// The smallest corner (rank and suit) large cards may have: pixels of its font, and its
// share of the card's width.
const MIN_CORNER = 16;
const MIN_SHARE = 0.16;
// On a short screen (a phone on its side) cards wider than this hold the game's usual
// longest column; narrower ones are sized for the columns there are.
const comfort = () => 56;

function layOut(container, columnsRow, lengths, { cardW, gap, height, top, finger, sized, layout, rows, portrait, beside = false, upright = false, corner = null }) {
  const cardH = Math.round(cardW * 1.4);
  const large = document.body.classList.contains("large-index");
  // (small cards on a tall screen, a phone held upright, have the height to spare for a
  // corner a third of their width: the rank and suit read at a glance; `corner`: the
  // corner's size chosen for large cards)
  const share = large ? 0.34 : cardW < 44 && portrait ? 0.31 : 0.25;
  const indexSize = corner ?? Math.max(cardW < 36 ? 9 : 10, Math.round(cardW * share));
  // (the corner measured first, before the board's sizes change: see cornerOf)
  const { step, reach } = cornerStep(container, cardW, indexSize);
  container.style.setProperty("--card-w", `${cardW}px`);
  container.style.setProperty("--card-h", `${cardH}px`);
  container.style.setProperty("--gap", `${gap}px`);
  container.style.setProperty("--index-size", `${indexSize}px`);
  container.classList.toggle("small-cards", cardW < 48); // corners only: no pip to peek out
  container.style.setProperty("--fan-step", `${step}px`);
  // Each column fans as far as it can without running past the bottom.
  const tableauTop = columnsRow.getBoundingClientRect().top + window.scrollY - top;
  // (a row of piles under the columns keeps its place below them, at the board's foot)
  const lines = rows.slice(rows.findIndex((line) => line.name === "tableau") + 1);
  const pilesBelow = lines.length > 0;
  let below = pilesBelow ? cardH + gap * 2 : 0;
  // (a column's cards start inside its border: its last card hangs below it by as much)
  const edge = 2;
  let room = Math.floor(height - tableauTop - below) - edge;
  // A covered face-up card's strip: its rank and suit whole with a margin (and on a touch
  // screen a strip a finger can take) where the column is not squeezed; squeezed, the ink
  // of its rank and suit whole, down to the longest column the game reaches (on a short
  // screen, a phone on its side: with the margin in the usual longest column, its rank,
  // the corner's line but its foot, in the longest); and past that, rather than smaller
  // cards, a sliver of its corner. A face-down card's strip: a twentieth of a card,
  // squeezed first, down to its edge (on a short screen, not squeezed).
  const short = window.innerHeight < 500;
  const floorUp = Math.max(Math.ceil(reach + 2), finger);
  const inkUp = short ? floorUp : Math.max(Math.ceil(reach), finger);
  const tightUp = short ? Math.max(Math.ceil(reach * 0.75), Math.min(finger, floorUp)) : inkUp;
  const sliver = Math.max(6, Math.ceil(reach * 0.4));
  const floorDown = Math.max(3, Math.round(cardH * 0.05));
  const tightDown = short ? floorDown : Math.max(3, Math.round(cardH * 0.025));
  // the usual longest column spread over the height there is (a tall screen's fans are
  // wider), never less than the usual strip nor more than most of a card (in portrait,
  // where the height is plenty, nearly the whole card)
  const usual = Math.max(Math.round(cardH * 0.3), finger ? floorUp + 8 : floorUp);
  const design = layout.design;
  let spread = design.up ? Math.floor((room - cardH) / (design.up + 0.4 * design.down)) : usual;
  // (columns that never grow past their deal, nothing being built on them, spread in
  // portrait down to whole cards side by side, the height there is theirs)
  const fixedColumns = design.up === layout.longest?.up && design.down === layout.longest?.down;
  const most = portrait ? (fixedColumns ? 1 + (3 * gap) / cardH : 0.85) : cardW < 48 ? 0.8 : 0.6;
  // A row under columns that never grow (its layout's `grow`) has the height they leave:
  // its cards up to `grow` times as large, as its width allows (a phone held upright: the
  // pile a player plays on, large under the thumb, rather than a band of bare felt).
  const last = lines.at(-1);
  const grown = last ? container.querySelector(`:scope > .row.${last.name}`) : null;
  let scale = 1;
  if (grown && last.grow && fixedColumns && lines.length === 1) {
    const step = Math.min(Math.max(usual, Math.min(spread, Math.round(cardH * most))), Math.max(floorUp, spread));
    const spare = room - cardH - design.up * step;
    const piles = grown.querySelectorAll(":scope > .pile").length;
    const wide = (container.clientWidth - gap * (piles + 1)) / Math.max(1, piles) / cardW;
    // (a strip of felt as high as a fifth of the grown cards stays between the two)
    scale = Math.max(1, Math.min(last.grow, wide, (cardH + spare) / (cardH * 1.2)));
  }
  if (grown) {
    for (const name of ["--card-w", "--card-h", "--index-size"]) grown.style.removeProperty(name);
    if (scale > 1) {
      const grownW = Math.floor(cardW * scale);
      grown.style.setProperty("--card-w", `${grownW}px`);
      grown.style.setProperty("--card-h", `${Math.round(grownW * 1.4)}px`);
      grown.style.setProperty("--index-size", `${Math.round(indexSize * grownW / cardW)}px`);
      below = Math.round(grownW * 1.4) + gap * 2;
      room = Math.floor(height - tableauTop - below) - edge;
      spread = design.up ? Math.floor((room - cardH) / (design.up + 0.4 * design.down)) : usual;
    }
  }
  ungrow(container); // (grown again once the size is chosen: see growBeside)
  // (every column fans alike: where the usual longest does not fit at the usual strip,
  // the strip it fits at)
  let wantUp = Math.min(Math.max(usual, Math.min(spread, Math.round(cardH * most))), Math.max(floorUp, spread));
  let wantDown = Math.max(Math.round(cardH * 0.12), Math.min(Math.round(wantUp * 0.4), Math.round(cardH * 0.22)));
  if (upright) [wantUp, wantDown] = loosened(lengths, { cardH, room, wantUp, wantDown });
  const need = ({ up, down }, strip = floorUp, downStrip = floorDown) => cardH + up * strip + down * downStrip;
  // (a row fits across when its piles do, as laid out, and the rows fit the board: a card
  // on its way, moved by its animation past a row's end, is not counted)
  const end = container.getBoundingClientRect().right;
  const across = [...container.querySelectorAll(":scope > .row")].every((line) => {
    const right = line.getBoundingClientRect().right;
    return right <= end + 1 && [...line.children].every((item) => item.getBoundingClientRect().right <= right + 1);
  });
  // (a phone on its side whose piles stand beside the columns, which have the whole height:
  // the usual longest column at the tight strip, a finger's, for the larger cards that
  // height then holds)
  const usualUp = beside && short ? tightUp : inkUp;
  const holds = !sized || (need(design, usualUp, tightDown) <= room + 1 && need(sized, tightUp, tightDown) <= room + 1);
  const fits = across && holds
    && lengths.every((length) => need(length, sliver, tightDown) <= room + 1);
  [...columnsRow.children].forEach((column, index) => {
    const { up, down } = lengths[index];
    const cards = [...column.children];
    const wanted = cardH + up * wantUp + down * wantDown;
    let stepUp = wantUp;
    let stepDown = wantDown;
    if (wanted > room) {
      // A column that would run past the board's foot squeezes its fan: its face-down
      // cards first, down to their edges; then its face-up cards, down to their corners'
      // ink (and, in a column longer than the game's longest, a sliver).
      if (down) stepDown = Math.max(tightDown, Math.min(wantDown, Math.floor((room - cardH - up * wantUp) / down)));
      if (up && cardH + up * wantUp + down * stepDown > room) {
        stepUp = Math.max(sliver, Math.min(wantUp, Math.floor((room - cardH - down * stepDown) / up)));
      }
    }
    let offset = 0;
    cards.forEach((card, k) => {
      card.style.top = `${offset}px`;
      if (k < cards.length - 1) offset += card.classList.contains("face-up") ? stepUp : stepDown;
    });
    column.dataset.fan = String(stepUp);
    column.style.height = `${cardH + offset}px`;
  });
  // The tableau keeps the whole height there is: what is below it (a row of piles under
  // the columns, the help line) stays at the board's foot as the columns grow and shorten.
  columnsRow.style.minHeight = `${Math.max(cardH, room + edge)}px`;
  return { fits, cardW, indexSize };
}

// A phone on its side where a game's piles stand beside its columns as on a wide window
// (few, long columns, whose cards the height bounds): the piles' two lines have the height
// beside the columns, their cards drawn larger in it, up to half as large again, as far as
// the height and the width beside the columns allow.
const GROW_BESIDE = 1.5;
const GROWN = ["--card-w", "--card-h", "--index-size"];
// The scales tried, largest first (a smaller one fits wherever a larger one does).
const GROW_SCALES = [];
for (let scale = GROW_BESIDE; scale > 1.001; scale -= 0.05) GROW_SCALES.push(scale);

function besidePiles(container) {
  return container.classList.contains("beside-when-wide") && !container.classList.contains("beside-when-short")
    ? container.querySelector(":scope > .row.top") : null;
}

// The piles beside the columns drawn at the board's card size again (every try of a size
// is laid out so; the size chosen then grows them).
function ungrow(container) {
  const piles = besidePiles(container);
  if (piles) for (const name of GROWN) piles.style.removeProperty(name);
}

// Called once the board is laid out at the size chosen: the largest scale that fits, found
// by halves (each try a layout).
function growBeside(container, columnsRow, { cardW, indexSize, height, top }) {
  const piles = besidePiles(container);
  if (!piles) return; // (and its piles as layOut left them: not grown)
  const right = container.getBoundingClientRect().right;
  const grow = (scale) => {
    const grownW = Math.floor(cardW * scale);
    piles.style.setProperty("--card-w", `${grownW}px`);
    piles.style.setProperty("--card-h", `${Math.round(grownW * 1.4)}px`);
    piles.style.setProperty("--index-size", `${Math.round(indexSize * grownW / cardW)}px`);
  };
  const fitsAt = (scale) => {
    grow(scale);
    const box = piles.getBoundingClientRect();
    const foot = Math.max(...[...piles.querySelectorAll(".pile")].map((pile) => pile.getBoundingClientRect().bottom));
    return foot + window.scrollY - top <= height && box.right <= right + 1 && columnsRow.getBoundingClientRect().right <= box.left;
  };
  // the first of the scales that fits (none: the piles as large as the board's cards)
  let low = 0;
  let high = GROW_SCALES.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (fitsAt(GROW_SCALES[middle])) high = middle;
    else low = middle + 1;
  }
  if (low < GROW_SCALES.length) grow(GROW_SCALES[low]);
  else for (const name of GROWN) piles.style.removeProperty(name);
}

// A phone held upright has height to spare under its columns (their cards are as wide as
// the width allows, and the usual longest column fits at the usual fan): every column fans
// wider, all alike, as far as the longest of them then fits, up to most of a card for a
// face-up card and under half of one for a face-down card (its back stays the narrower
// strip). The usual fan where the columns do not fit even at that one: a column too long
// for it squeezes its own fan (see layOut).
function loosened(lengths, { cardH, room, wantUp, wantDown }) {
  const mostUp = Math.max(wantUp, Math.round(cardH * 0.7));
  const mostDown = Math.max(wantDown, Math.round(cardH * 0.42));
  let share = 1;
  for (const { up, down } of lengths) {
    const more = up * (mostUp - wantUp) + down * (mostDown - wantDown);
    if (more > 0) share = Math.min(share, (room - cardH - up * wantUp - down * wantDown) / more);
  }
  share = Math.max(0, share);
  return [Math.floor(wantUp + share * (mostUp - wantUp)), Math.floor(wantDown + share * (mostDown - wantDown))];
}

// How far apart sideways-fanned cards are (cards held in a hand, a draw-3 waste): far
// enough that the corner of each (rank and suit: "10♠" is the widest) stays in view at any
// card size and corner size. And how far down a covered card's corner reaches: the foot of
// its rank's and suit's ink (measured on the corner's own font), the tightest strip a
// column's face-up card keeps.
function cornerStep(container, cardW, indexSize) {
  const { needed, reach } = cornerOf(indexSize);
  const step = Math.ceil(Math.max(cardW * 0.3, needed));
  container.style.setProperty("--hand-step", `${Math.ceil(Math.max(cardW * 0.6, needed))}px`);
  return { step, reach };
}

// A corner's measures at each size: the room "10♠" takes from the card's left edge, and the
// foot of its ink from the card's top. Measured once a size (they depend on the size and
// the page's font alone; and, by a fraction of a pixel, on the zoom, which the key
// holds), on a card of their own, out of sight and off the board, in a box whose layout is
// its own: a measure taken while a board is fitted lays out that card alone, not the board.
const cornerSizes = new Map();
let measuring = null;
function cornerOf(indexSize) {
  const key = `${indexSize}|${window.devicePixelRatio}`;
  if (!cornerSizes.has(key)) {
    if (!measuring?.isConnected) {
      measuring = document.createElement("div");
      measuring.setAttribute("aria-hidden", "true");
      measuring.style.cssText = "position: fixed; left: 0; top: 0; width: 400px; height: 400px; visibility: hidden; pointer-events: none; contain: strict; --card-w: 150px; --card-h: 210px;";
      document.body.append(measuring);
    }
    const probe = cardElement("Ts");
    probe.style.setProperty("--index-size", `${indexSize}px`);
    measuring.replaceChildren(probe);
    const corner = probe.querySelector(".corner");
    const box = corner.getBoundingClientRect();
    const needed = corner.offsetLeft + box.width + 3;
    const lineTop = box.top - probe.getBoundingClientRect().top;
    cornerSizes.set(key, { needed, reach: lineTop + inkFoot(getComputedStyle(corner)) });
    measuring.replaceChildren();
  }
  return cornerSizes.get(key);
}

// The foot of the ink of a corner's every rank and suit, from the top of its line, in the
// corner's font (`style`, its computed style).
const feet = new Map();
function inkFoot(style) {
  const font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const line = parseFloat(style.lineHeight);
  const key = `${font}|${line}`;
  if (!feet.has(key)) {
    const context = document.createElement("canvas").getContext("2d");
    context.font = font;
    const ink = context.measureText("10AJQK\u2663\u2666\u2665\u2660");
    const size = parseFloat(style.fontSize);
    const ascent = ink.fontBoundingBoxAscent ?? size * 0.93;
    const descent = ink.fontBoundingBoxDescent ?? size * 0.24;
    const baseline = (line - ascent - descent) / 2 + ascent;
    feet.set(key, Number.isFinite(baseline) ? baseline + Math.max(0, ink.actualBoundingBoxDescent ?? 0) : line);
  }
  return feet.get(key);
}
