// Cards drawn as elements (rank and suit side by side in the corner, a large pip) and
// named in words for screen readers and messages ("seven of hearts").

export const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const RANK_NAMES = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
};
const SHOWN_RANKS = { T: "10" };

/** The rank letter and suit letter of a card string such as "Th". */
export function parts(card) {
  return { rank: card.slice(0, -1).toUpperCase().replace("10", "T"), suit: card.slice(-1).toLowerCase() };
}

/** "ten of hearts" for "Th". */
export function cardName(card) {
  if (!card) return "face-down card";
  const { rank, suit } = parts(card);
  return `${RANK_NAMES[rank] ?? rank} of ${SUIT_NAMES[suit] ?? suit}`;
}

/** The name of a rank alone ("seven", "ace"). */
export function rankName(rank) {
  return RANK_NAMES[rank] ?? rank;
}

/** A card's element; a face-down card when `card` is null. */
export function cardElement(card) {
  const element = document.createElement("div");
  element.setAttribute("role", "img");
  if (!card) {
    element.className = "card back";
    element.setAttribute("aria-label", "face-down card");
    return element;
  }
  const { rank, suit } = parts(card);
  element.className = `card suit-${suit}${suit === "d" || suit === "h" ? " red" : ""}`;
  element.dataset.card = card;
  element.setAttribute("aria-label", cardName(card));
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  corner.textContent = `${SHOWN_RANKS[rank] ?? rank}${SUITS[suit]}`;
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  pip.textContent = SUITS[suit];
  element.append(corner, pip);
  return element;
}
