// The board of a game, drawn from the server's view of it, into any container.
//
// drawBoard(container, answer, { interactive }) draws the board of `answer` (a view of
// /api/sessions/{id}, or a bare board: a step of /api/sessions/{id}/replay) and fits it to
// the space it has: cards as wide as the width allows, and columns that fan tighter as
// they grow, so that the whole tableau stays in view. With `interactive: false` the board
// is a still picture: nothing on it can be picked, focused or pressed.
//
// What the input layer relies on: a card that can be moved has `data-src` (its place in
// move notation), a place a card can be put has `data-dest`, the stock has `data-action`
// (the word its press plays), and every place a player can reach by keys has the class
// `stop`.

import { cardElement, cardName, SUITS } from "./cards.js";

const SUIT_WORDS = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };

function element(tag, className, attributes = {}) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  return made;
}

// A card that can be played: a button named by its card, reached by keys.
function playable(card, src) {
  const made = cardElement(card);
  made.dataset.src = src;
  made.setAttribute("role", "button");
  made.classList.add("stop");
  return made;
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
  const cards = count ? [cardElement(null)] : [];
  const words = move === "recycle" ? "turn the waste over" : "draw";
  const made = pile({ label: `${what}, ${count} cards: ${words}`, cards, role: "button" });
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

function wastePile(waste, shown, { src = "w" } = {}) {
  const top = waste.slice(-shown);
  const cards = top.map((card, index) => {
    const made = index === top.length - 1 && src ? playable(card, src) : cardElement(card);
    made.classList.add("fanned");
    made.style.setProperty("--index", String(index));
    return made;
  });
  const label = waste.length ? `waste, ${waste.length} cards, ${cardName(waste.at(-1))} on top` : "waste, empty";
  const made = pile({ label, cards });
  made.classList.add("waste");
  made.dataset.shown = String(shown);
  return made;
}

function columns(tableau, { golf = false } = {}) {
  const made = element("div", "row tableau");
  tableau.forEach((column, index) => {
    const place = `t${index + 1}`;
    const item = element("div", "column", { "data-dest": place });
    const total = column.hidden + column.cards.length;
    for (let k = 0; k < total; k++) {
      const faceUp = k >= column.hidden;
      const card = faceUp ? column.cards[k - column.hidden] : null;
      const exposed = k === total - 1;
      // a face-up card can be picked up (in Golf, only a column's exposed card)
      const src = faceUp && (exposed || !golf) ? (exposed ? place : `${place}:${card}`) : null;
      const drawn = src ? playable(card, src) : cardElement(card);
      drawn.classList.toggle("face-up", faceUp);
      item.append(drawn);
    }
    const words = total ? `${total} cards${column.hidden ? `, ${column.hidden} face down` : ""}` : "empty";
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

const BOARDS = {
  klondike(board) {
    const foundations = Object.entries(board.foundation).map(([suit, top]) =>
      pile({
        dest: "f",
        label: `foundation, ${SUIT_WORDS[suit]}${top ? `, up to the ${cardName(top)}` : ", empty"}`,
        cards: top ? [playable(top, `f:${suit}`)] : [],
        watermark: SUITS[suit],
      }));
    const recycle = !board.hand && board.waste.length ? "recycle" : "draw";
    const stock = stockPile(board.hand, recycle, "hand");
    const waste = wastePile(board.waste, board.variant.draw);
    return [row("top", stock, waste, spacer(), ...foundations), columns(board.tableau)];
  },
  golf(board) {
    const waste = wastePile(board.waste, 1, { src: null });
    waste.dataset.dest = "w";
    return [columns(board.tableau, { golf: true }), row("bottom", stockPile(board.stock, "draw", "stock"), waste, spacer())];
  },
  kansas(board) {
    const top = board.reserve.top;
    const reserve = pile({
      label: `reserve, ${board.reserve.cards} cards${top ? `, ${cardName(top)} on top` : ""}`,
      cards: top ? [playable(top, "r")] : [],
    });
    if (board.reserve.cards) reserve.append(countBadge(board.reserve.cards));
    reserve.classList.add("reserve");
    const foundations = board.foundation.map((slot, index) =>
      pile({
        dest: "f",
        label: `foundation ${index + 1}, ${slot ? `${slot.cards} cards, ${cardName(slot.top)} on top` : `empty, takes a ${board.base}`}`,
        cards: slot ? [cardElement(slot.top)] : [],
        watermark: slot ? "" : board.base === "T" ? "10" : board.base,
      }));
    return [row("top", reserve, stockPile(board.stock, "draw", "stock"), wastePile(board.waste, 1), spacer(), ...foundations), columns(board.tableau)];
  },
  expert(board) {
    const cards = board.hand.map((card, index) => {
      const made = playable(card, `h:${card}`);
      made.classList.add("fanned");
      made.style.setProperty("--index", String(index));
      return made;
    });
    const hand = pile({ dest: "h", label: `hand, ${board.hand.length} of 4 cards`, cards });
    hand.classList.add("hand");
    const piles = board.foundation.map((slot, index) =>
      pile({ dest: "f", label: `pile ${index + 1}, ${slot ? `${cardName(slot.top)} on top` : "empty"}`, cards: slot ? [cardElement(slot.top)] : [] }));
    return [row("top", hand, spacer(), ...piles), columns(board.tableau)];
  },
};

// How many card widths each game needs across, the widest row.
const ACROSS = { klondike: 7, golf: 7, kansas: 7.3, expert: 11 };

const coarse = () => window.matchMedia("(pointer: coarse)").matches;

/**
 * Draw the board of `answer` into `container` and fit it to the space it has.
 * `answer` is a view of a game (with `board`) or a bare board (with `game` and `tableau`).
 */
export function drawBoard(container, answer, { interactive = true, height = null } = {}) {
  const board = answer.board ?? answer;
  const game = answer.game ?? board.game;
  container.classList.add("board");
  container.classList.toggle("still", !interactive);
  container.dataset.game = game;
  container.replaceChildren(...BOARDS[game](board));
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

/** Fit a drawn board to its container again (after the window changed size). */
export function fitBoard(container) {
  const game = container.dataset.game;
  const columnsRow = container.querySelector(".tableau");
  if (!game || !columnsRow) return;
  const width = container.clientWidth || window.innerWidth;
  const top = container.getBoundingClientRect().top + window.scrollY;
  const height = container.fitHeight ?? Math.max(160, window.innerHeight - top - 6);
  const gap = width < 600 ? 3 : 8;
  const across = ACROSS[game];
  const fromWidth = (width - gap * Math.ceil(across)) / across;
  // From the height: two rows of cards, and the longest column at a tight fan.
  const lengths = [...columnsRow.children].map((column) => {
    const up = column.querySelectorAll(".card.face-up").length;
    return { up: Math.max(0, up - 1), down: column.children.length - up };
  });
  const longest = Math.max(...lengths.map(({ up, down }) => up * 0.2 + down * 0.06));
  const fromHeight = (height - gap * 3) / (2 + longest) / 1.4;
  // The widest cards that fit: the estimate first, narrower until the board's bottom is in
  // view (the fans' floors are in pixels, which the estimate cannot see).
  // On a touch screen a covered card keeps a strip a finger can take, unless the column
  // cannot fit with it even at the narrowest cards.
  const start = Math.floor(Math.max(MIN_CARD, Math.min(fromWidth, fromHeight, 120)));
  const finger = coarse() ? (window.innerHeight > 500 ? 22 : 16) : 0;
  for (const strip of finger ? [finger, 0] : [0]) {
    for (let cardW = start; ; cardW -= 2) {
      layOut(container, columnsRow, lengths, { cardW, gap, height, top, finger: strip });
      // (a column's last card hangs below the column's box by its border)
      const drawn = container.querySelectorAll(":scope > .row, .column > .card:last-child");
      const bottom = Math.max(...[...drawn].map((item) => item.getBoundingClientRect().bottom)) + window.scrollY - top;
      // and the widest row (Solitaire Expert's hand and eight piles) no wider than the board
      const across = [...container.querySelectorAll(":scope > .row")].every((line) => line.scrollWidth <= line.clientWidth + 1);
      if (bottom <= height + 1 && across) return;
      if (cardW <= MIN_CARD) break;
    }
  }
}

const MIN_CARD = 26;

function layOut(container, columnsRow, lengths, { cardW, gap, height, top, finger }) {
  const game = container.dataset.game;
  const cardH = Math.round(cardW * 1.4);
  const large = document.body.classList.contains("large-index");
  const indexSize = Math.max(cardW < 36 ? 9 : 10, Math.round(cardW * (large ? 0.34 : 0.25)));
  container.style.setProperty("--card-w", `${cardW}px`);
  container.style.setProperty("--card-h", `${cardH}px`);
  container.style.setProperty("--gap", `${gap}px`);
  container.style.setProperty("--index-size", `${indexSize}px`);
  container.classList.toggle("small-cards", cardW < 48); // corners only: no pip to peek out
  if (game === "expert") fanHand(container, cardW);
  // Each column fans as far as it can without running past the bottom.
  const tableauTop = columnsRow.getBoundingClientRect().top + window.scrollY - top;
  const below = game === "golf" ? cardH + gap * 2 : 0;
  const room = height - tableauTop - below;
  const floorUp = Math.max(Math.round(indexSize * 1.15 + 2), finger);
  const wantUp = Math.max(Math.round(cardH * 0.3), finger ? floorUp + 8 : floorUp);
  const floorDown = Math.max(3, Math.round(cardH * 0.05));
  const wantDown = Math.round(cardH * 0.12);
  [...columnsRow.children].forEach((column, index) => {
    const { up, down } = lengths[index];
    const cards = [...column.children];
    const wanted = cardH + up * wantUp + down * wantDown;
    let share = 1;
    if (wanted > room) {
      const spare = room - cardH - up * floorUp - down * floorDown;
      const range = up * (wantUp - floorUp) + down * (wantDown - floorDown);
      share = range > 0 ? Math.max(0, Math.min(1, spare / range)) : 0;
    }
    const stepUp = Math.floor(floorUp + share * (wantUp - floorUp));
    const stepDown = Math.floor(floorDown + share * (wantDown - floorDown));
    let offset = 0;
    cards.forEach((card, k) => {
      card.style.top = `${offset}px`;
      if (k < cards.length - 1) offset += card.classList.contains("face-up") ? stepUp : stepDown;
    });
    column.dataset.fan = String(stepUp);
    column.style.height = `${cardH + offset}px`;
  });
}

// Solitaire Expert's hand fans sideways, each card far enough from the next that its corner
// (rank and suit: "10♠" is the widest) stays in view at any card size and corner size.
function fanHand(container, cardW) {
  const hand = container.querySelector(".hand");
  if (!hand) return;
  const probe = cardElement("Ts");
  probe.style.visibility = "hidden";
  hand.append(probe);
  const corner = probe.querySelector(".corner");
  const needed = corner.offsetLeft + corner.getBoundingClientRect().width + 3;
  probe.remove();
  container.style.setProperty("--hand-step", `${Math.ceil(Math.max(cardW * 0.6, needed))}px`);
}
