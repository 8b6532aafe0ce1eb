// The automatic play-out, card by card: the board before each step, and the card of each
// step flying to its foundation.

import { drawBoard } from "./board.js";

const RANK_ORDER = "A23456789TJQK";

// The boards of a play-out: boards[i] is the board before step i (the answer's board with
// the steps from i on taken back, last first), landings[i] the foundation pile step i
// fills (its index on the board).
function playOutBoards(board, steps) {
  const before = structuredClone(board);
  const boards = new Array(steps.length);
  const landings = new Array(steps.length);
  for (let i = steps.length - 1; i >= 0; i--) {
    const { move, card } = steps[i];
    const rank = RANK_ORDER.indexOf(card[0]);
    const below = rank > 0 ? RANK_ORDER[rank - 1] + card[1] : null;
    if (Array.isArray(before.foundation)) {
      const index = before.foundation.findIndex((slot) => slot?.top === card);
      landings[i] = index;
      before.foundation[index] = below ? { top: below, cards: before.foundation[index].cards - 1 } : null;
    } else {
      landings[i] = Object.keys(before.foundation).indexOf(card[1]);
      before.foundation[card[1]] = below;
    }
    const source = move.split(">")[0];
    if (source === "w") before.waste.push(card);
    else if (source.startsWith("h")) before.hand.push(card);
    else before.tableau[Number(source.slice(1)) - 1].cards.push(card);
    boards[i] = structuredClone(before);
  }
  return { boards, landings };
}

// The element of the card a play-out step moves, on the board drawn before it.
function playOutSource(container, step) {
  const source = step.move.split(">")[0];
  if (source === "w") return container.querySelector('[data-src="w"]');
  if (source.startsWith("h")) return container.querySelector(`[data-src="h:${step.card}"]`);
  return container.querySelector(`.column[data-dest="${source}"] .card:last-child`);
}

/** Show the cards the game played out flying home one by one, the board drawn again after
 * each (by `draw`); stops early when `current()` says a newer answer is being shown. */
export async function playOut(container, answer, current, draw = (shown) => drawBoard(container, shown)) {
  const steps = answer.last.auto;
  const { boards, landings } = playOutBoards(answer.board, steps);
  const pace = Math.max(40, Math.min(120, 2400 / steps.length)); // milliseconds a card
  container.dataset.playingOut = "true";
  for (let i = 0; i < steps.length && current(); i++) {
    draw({ ...answer, board: boards[i] });
    const card = playOutSource(container, steps[i]);
    const target = container.querySelectorAll("[data-dest='f']")[landings[i]];
    if (!card || !target) continue;
    const from = card.getBoundingClientRect();
    const to = target.getBoundingClientRect();
    card.classList.add("flying");
    const shift = `translate(${to.left - from.left}px, ${to.top - from.top}px)`;
    await card.animate([{ transform: "none" }, { transform: shift }], { duration: pace, easing: "ease-in" }).finished;
  }
  delete container.dataset.playingOut;
}
