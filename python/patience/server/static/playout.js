// The automatic play-out: the board before it drawn once, then the cards it sent home
// flying to their foundations one after another, 2.5 seconds at most for a whole deck. A
// tap (or a key) ends it at once: the caller draws the board after it.

import { drawBoard } from "./board.js";
import { flyHome } from "./motion.js";

const RANK_ORDER = "A23456789TJQK";

// The board before the play-out (the answer's board with its steps taken back, last first)
// and, for each step, the foundation pile it fills (its index on the board); null when the
// steps do not fit the board.
export function playOutBoards(board, steps) {
  const before = structuredClone(board);
  const landings = new Array(steps.length);
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    const { move, card } = step;
    const rank = RANK_ORDER.indexOf(card[0]);
    const below = rank > 0 ? RANK_ORDER[rank - 1] + card[1] : null;
    if (Array.isArray(before.foundation)) {
      // the pile it went to, as the server says (a two-deck game's twins: either of two
      // piles showing the card may be the one; a guess taken back in the wrong order
      // would draw the piles as they never were)
      const index = Number.isInteger(step.pile) && before.foundation[step.pile]?.top === card
        ? step.pile : before.foundation.findIndex((slot) => slot?.top === card);
      if (index < 0) return null; // not a play-out this board can show
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
  }
  return { before, landings };
}

// The element of a step's card on the board drawn before the play-out: the card itself (a
// two-deck game's twins: the one at the step's source).
function cardOf(container, step, taken) {
  const source = step.move.split(">")[0];
  const place = source === "w" ? "w" : source.startsWith("h") ? "h" : source.split(":")[0];
  const candidates = [...container.querySelectorAll(`.card[data-key="${step.card}"]`)].filter((card) => !taken.has(card));
  return candidates.find((card) => card.dataset.place === place) ?? candidates[0] ?? null;
}

/** Show the cards the game played out flying home, on the board as it was before them;
 * resolves when they have landed (or `current()` says a newer answer is being shown). */
export async function playOut(container, answer, current, draw = (shown, options) => drawBoard(container, shown, options)) {
  const steps = answer.last.auto;
  const unwound = playOutBoards(answer.board, steps);
  if (!unwound) return; // drawn as it ends (the caller draws the board after it)
  const { before, landings } = unwound;
  container.dataset.playingOut = "true";
  draw({ ...answer, board: before }, { all: true });
  const piles = container.querySelectorAll("[data-dest='f']");
  const taken = new Set();
  const flights = [];
  steps.forEach((step, i) => {
    const card = cardOf(container, step, taken);
    const target = piles[landings[i]];
    if (!card || !target) return;
    taken.add(card);
    flights.push({ card, to: target.getBoundingClientRect() });
  });
  if (current()) await flyHome(container, flights);
  delete container.dataset.playingOut;
}
