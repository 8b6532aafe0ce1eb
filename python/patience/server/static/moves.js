// What a move of the server's notation does on the board the player sees: which card it
// moves (a column's move names its run by where it goes: "t6>t2" moves the run of column 6
// whose first card fits on column 2), and, for a tap, the column a card fits best.
// The server decides what is legal; this only reads its legal moves and the board.

import { cardName, parts } from "./cards.js";
import { layoutOf, wordOf } from "./games.js";

const RANKS = "A23456789TJQK";
const rankOf = (card) => RANKS.indexOf(parts(card).rank) + 1;
const isRed = (card) => "dh".includes(parts(card).suit);

/** Whether `card` goes on a column whose exposed card is `target` (null: empty), by the
 * building rule of `game`'s columns (its layout's `tableau.build`). */
export function buildsOn(card, target, game) {
  return buildsBy(card, target, layoutOf(game)?.tableau.build ?? { colours: "alternate", wrap: false, empty: "king" });
}

/** Whether `card` goes on `target` (null: an empty column) by a columns' building rule
 * `build` (a layout's `tableau.build`: { colours, wrap, empty }). */
export function buildsBy(card, target, build) {
  if (!target) return build.empty === "any" || rankOf(card) === 13; // "any": what the rules let fill it
  const below = build.wrap && rankOf(target) === 1 ? 13 : rankOf(target) - 1;
  return rankOf(card) === below && (build.colours === "any" || isRed(card) !== isRed(target));
}

/** The card a move's source picks up on `board`: a named card (t3:Qh, h:Qs), the first
 * card of the column's last run that fits on the move's column, or the top of a waste,
 * reserve or foundation. */
export function movedCard(move, board, game) {
  if (!board) return null;
  const [source, dest] = move.split(">");
  const named = source.match(/^(?:t\d+|h):(\S+)$/);
  if (named) return named[1];
  if (/^t\d+$/.test(source)) {
    const cards = board.tableau?.[Number(source.slice(1)) - 1]?.cards ?? [];
    if (dest && /^t\d+$/.test(dest)) {
      const target = board.tableau?.[Number(dest.slice(1)) - 1]?.cards.at(-1) ?? null;
      // (from the column's foot: the run that moves is its last; a card higher up that
      // would fit too is not part of it)
      const head = cards.findLast((card) => buildsOn(card, target, game));
      if (head) return head;
    }
    return cards.at(-1) ?? null;
  }
  if (source === "w") return board.waste?.at(-1) ?? null;
  if (/^c\d+$/.test(source)) {
    // a free cell's card: the layout's cells in slots name the field that holds them
    const cells = layoutOf(game)?.rows.flatMap((line) => line.piles ?? []).find((pile) => pile.kind === "cell" && pile.slots);
    return cells ? board[cells.field]?.[Number(source.slice(1)) - 1] ?? null : null;
  }
  if (source === "r") return board.reserve?.top ?? null;
  if (source.startsWith("f:") && board.foundation && !Array.isArray(board.foundation)) return board.foundation[source[2]];
  return null;
}

/** Where the card `card` at `src` (a data-src: t3, t3:Qh, w, r, h:Qs) goes on a tap when it
 * has no place home: the column it fits, or the best of several (one with cards before an
 * empty one, then the nearest); null when it fits none. */
export function tapColumn(view, src, card) {
  const legal = view?.legal_moves ?? [];
  const board = view?.board;
  const place = src.split(":")[0];
  const options = [];
  for (const move of legal) {
    const [from, dest] = move.split(">");
    if (!dest || !/^t\d+$/.test(dest) || from.split(":")[0] !== place || dest === place) continue;
    if (movedCard(move, board, view.game) !== card) continue;
    options.push({ move, dest, empty: !(board.tableau?.[Number(dest.slice(1)) - 1]?.cards.length) });
  }
  if (!options.length) return null;
  const here = /^t\d+$/.test(place) ? Number(place.slice(1)) : 0;
  options.sort((a, b) => a.empty - b.empty || Math.abs(Number(a.dest.slice(1)) - here) - Math.abs(Number(b.dest.slice(1)) - here));
  return options[0].move;
}

/** The legal moves of `view` that move the card `card` at `src` (a data-src: t3, t3:Qh, w,
 * r, c2, h:Qs, f:h): a column's move counts where the run it moves is headed by `card`. */
export function movesOf(view, src, card) {
  const place = src.split(":")[0];
  return (view?.legal_moves ?? []).filter((move) => {
    const [from, dest] = move.split(">");
    // (a column's exposed card, at its place alone, may be named by the move: t1:Qs>t3)
    return Boolean(dest) && (from === place || from === src || from === `${place}:${card}`)
      && movedCard(move, view.board, view.game) === card;
  });
}

/** What a tap plays of the card `card` at `src`: home if it can go there, else to the
 * column it fits best (tapColumn), else to a free place that holds a card (a free cell,
 * a hand); null when it has no such move. A foundation's card is not played by a tap (a
 * step back is chosen by a drag, or by keys). */
export function tapMove(view, src, card) {
  if (src.startsWith("f")) return null;
  const moves = movesOf(view, src, card);
  return moves.find((move) => move.endsWith(">f")) ?? tapColumn(view, src, card)
    ?? moves.find((move) => !/>(t\d+|f)$/.test(move)) ?? null;
}

/** The data-src on the board of the card a move picks up (where a hint lights it). */
export function sourceOf(move, board, game) {
  const source = move.split(">")[0];
  if (!/^t\d+$/.test(source)) return source;
  const card = movedCard(move, board, game);
  const cards = board?.tableau?.[Number(source.slice(1)) - 1]?.cards ?? [];
  return card && card !== cards.at(-1) ? `${source}:${card}` : source;
}

/** Why the card `card` at `src` has no move, in words ("No move for the 4 of diamonds: it
 * cannot go to the foundation yet and fits on no column."), with the game's places (its
 * layout's words and piles): its free cells or its hand too, where it has them. */
export function noMoveWords(view, src, card) {
  const game = view?.game;
  const board = view?.board ?? {};
  const because = [];
  if (!src.startsWith("f")) because.push(`it cannot go to ${wordOf(game, "foundation", "the foundation")} yet`);
  because.push(src.startsWith("f") ? "it fits on no column" : "fits on no column");
  const cells = (layoutOf(game)?.rows ?? []).flatMap((line) => line.piles ?? []).find((pile) => pile.kind === "cell");
  if (cells && !src.startsWith("f")) {
    const held = board[cells.field] ?? [];
    const full = cells.slots ? held.every(Boolean) : held.length >= (cells.size ?? Infinity);
    const single = /^t\d+:/.test(src); // a run's head: a cell holds one card
    if (full) because.push(cells.slots ? `every ${cells.name} is taken` : `the ${cells.name} is full`);
    else if (single) because.push(`a ${cells.name} holds a single card, not a run`);
  }
  const words = because.length > 2
    ? `${because.slice(0, -1).join(", ")}, and ${because.at(-1)}` : because.join(" and ");
  return `No move for the ${cardName(card)}: ${words}.`;
}
