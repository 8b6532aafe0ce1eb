// "No more moves" in a game whose layout asks for it (`watch_stuck`: a stock that turns
// over without end, foundations one a suit), judged from what the player can see: the
// hand and the waste have gone round once more with only draws and recycles played, and at no moment of that
// round could anything but a draw change the game (no card could go home, none leave the
// waste, none turn a card up or free a place a card could use). The hand's order is never
// looked at: every card of it has been on the waste in that round, in the player's sight.

import { parts } from "./cards.js";
import { layoutOf } from "./games.js";
import { movedCard } from "./moves.js";

const RANKS = "A23456789TJQK";
const rankOf = (card) => RANKS.indexOf(parts(card).rank) + 1;

/** Whether `move` (a legal move of `game` on `board`) could change the game: anything
 * but a draw or recycle, a card taken back from a foundation, or a run moved between
 * columns that turns nothing up, empties nothing a king could use and frees no card for
 * home. */
export function changesTheGame(move, board, game) {
  if (move === "draw" || move === "recycle") return false;
  const [source, dest] = move.split(">");
  if (dest === "f" || source === "w") return true;
  if (source.startsWith("f")) return false;
  if (!/^t\d+$/.test(source.split(":")[0])) return true;
  const column = board.tableau[Number(source.split(":")[0].slice(1)) - 1];
  const head = movedCard(move, board, game);
  const at = column.cards.indexOf(head);
  if (at > 0) {
    // the card the run leaves exposed: of use if it can go home now
    const freed = column.cards[at - 1];
    const { suit } = parts(freed);
    const home = board.foundation[suit];
    return (home ? rankOf(home) : 0) === rankOf(freed) - 1;
  }
  if (column.hidden) return true; // turns a card up
  // empties the column: of use if a king waits for it (the waste's top card, or a king
  // heading a column with cards under it), and the run is not a king's own
  if (rankOf(head) === 13) return false;
  const waiting = (board.waste.length && rankOf(board.waste.at(-1)) === 13)
    || board.tableau.some((other) => other.hidden && other.cards.length && rankOf(other.cards[0]) === 13);
  return waiting;
}

/** Watches a game's answers; `update(view)` says whether it is stuck now. */
export class StuckWatch {
  constructor() {
    this.reset();
  }

  reset() {
    this.seen = new Set(); // positions of the round so far, where nothing changed the game
    this.id = null;
    this.stuck = false;
  }

  update(view) {
    if (!layoutOf(view.game)?.watch_stuck || view.outcome) {
      this.reset();
      return false;
    }
    const board = view.board;
    const useful = view.legal_moves.some((move) => changesTheGame(move, board, view.game));
    const move = view.last?.move;
    const round = move === "draw" || move === "recycle";
    if (view.id !== this.id || !round || useful) {
      this.seen = new Set();
      this.id = view.id;
      this.stuck = false;
    }
    if (useful) return false;
    const position = `${board.hand}|${board.waste.length}|${board.waste.at(-1) ?? ""}`;
    if (this.seen.has(position)) this.stuck = true;
    this.seen.add(position);
    return this.stuck;
  }
}
