// Cards drawn as elements: rank and suit in the corner, a large pip, red or black.

const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const RANKS = { T: "10" };

export function cardElement(card) {
  const element = document.createElement("div");
  if (!card) {
    element.className = "card back";
    element.setAttribute("aria-label", "face-down card");
    return element;
  }
  const rank = card.slice(0, -1).toUpperCase();
  const suit = card.slice(-1).toLowerCase();
  element.className = `card${suit === "d" || suit === "h" ? " red" : ""}`;
  element.dataset.card = card;
  element.setAttribute("aria-label", card);
  const shown = RANKS[rank] ?? rank;
  element.innerHTML = `<span class="corner">${shown}<br>${SUITS[suit]}</span><span class="pip">${SUITS[suit]}</span>`;
  return element;
}
