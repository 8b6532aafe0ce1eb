// Moves, places, refusals and results said in words, for messages and screen readers:
// "Moved the seven of hearts onto the eight of clubs, 5 points", never "t1>t3".

import { cardName, parts } from "./cards.js";
import { layoutOf, wordOf } from "./games.js";
import { buildsBy, movedCard, movesOf } from "./moves.js";

const SUIT_WORDS = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };

// The kind of layout pile (docs/api.md, "The layout of a game") that each place of move
// notation is: the notation is every game's, so this names no game.
const PILE_KINDS = { w: "waste", r: "reserve", h: "cell", c: "cell", f: "foundation" };

/** The kind of pile a place of move notation is: "column", "cell", "foundation", "waste",
 * "reserve" (null: not a place). */
export function placeKind(place) {
  if (/^t\d+(?::|$)/.test(place)) return "column";
  return PILE_KINDS[String(place).match(/^([wrhcf])(?:\d+|:.*)?$/)?.[1]] ?? null;
}

// The layout's pile a place is on: a free cell (c1) the cell pile in slots, the hand (h) the
// one without; other places the first pile of their kind.
function pileOf(place, game) {
  const kind = placeKind(place);
  const piles = layoutOf(game)?.rows.flatMap((line) => line.piles ?? []).filter((pile) => pile.kind === kind) ?? [];
  if (kind !== "cell") return piles[0] ?? null;
  const slotted = place.startsWith("c");
  return piles.find((pile) => Boolean(pile.slots) === slotted) ?? null;
}

/** A place of move notation in words: "column 3", "the waste", "free cell 2", "the
 * foundation"; a cell by its pile's name in the game's layout ("free cell", "hand"). */
export function placeWords(place, game) {
  if (/^t\d+$/.test(place)) return `column ${place.slice(1)}`;
  if (place === "w") return "the waste";
  if (place === "r") return "the reserve";
  if (placeKind(place) === "cell") {
    const name = pileOf(place, game)?.name ?? (place.startsWith("c") ? "free cell" : "hand");
    const number = place.slice(1).match(/^\d+$/)?.[0];
    if (number) return `${name} ${number}`;
    return place === "c" ? `a ${name}` : `the ${name}`;
  }
  if (place === "f") return wordOf(game, "foundation", "the foundation");
  if (place.startsWith("f:")) return `the ${SUIT_WORDS[place[2]] ?? place.slice(2)} foundation`;
  if (place.startsWith("h:")) return "the hand";
  return place;
}

// The card at a move's source on a board, before the move (a column's run: its first card).
function sourceCard(move, board, game) {
  return movedCard(move, board, game);
}

function pointsWords(points) {
  if (!points) return "";
  return `, ${points > 0 ? "plus" : "minus"} ${Math.abs(points)} point${Math.abs(points) === 1 ? "" : "s"}`;
}

/**
 * A move that was played, in words, from the boards before and after it.
 * `last` is the answer's `last` (move, total_points, auto).
 */
export function playedWords(last, before, after, game) {
  const move = last.move;
  const points = pointsWords(last.total_points);
  const auto = `${turnedUpWords(before, after)}${autoWords(last.auto)}`;
  if (move === "draw") {
    const top = after?.waste?.at(-1);
    return `Drew${top ? ` the ${cardName(top)}` : ""}${points}${auto}`;
  }
  if (move === "recycle") return `Turned the waste over to the hand${points}`;
  if (move === "undo") return `Took back a move${points}`;
  if (move === "end") return "Ended the game";
  const [source, dest] = move.split(">");
  const card = sourceCard(move, before, game);
  const what = card ? `the ${cardName(card)}` : `a card from ${placeWords(source, game)}`;
  if (!dest) return `Played ${what} onto the waste${points}${auto}`; // a card played by its place
  if (dest === "f") return `Sent ${what} to ${placeWords("f", game)}${points}${auto}`;
  if (placeKind(dest) === "cell") return `Put ${what} in ${placeWords(dest, game)}${points}${auto}`;
  if (/^t\d+$/.test(dest)) {
    const target = before?.tableau?.[Number(dest.slice(1)) - 1];
    const onto = target?.cards.length ? `onto the ${cardName(target.cards.at(-1))}` : `to the empty ${placeWords(dest, game)}`;
    const moved = /^t\d+$/.test(source) && after ? runStart(after, dest, target) : card;
    return `Moved the ${moved ? cardName(moved) : "cards"} ${onto}${points}${auto}`;
  }
  return `Played ${move}${points}${auto}`;
}

// The cards a move turned up in the columns, from the boards before and after it: a column
// with fewer face-down cards shows the ones turned over first ("; turned up the three of
// spades"). A card turned up and then sent home by the play-out is named by the play-out.
function turnedUpWords(before, after) {
  const cards = (after?.tableau ?? []).flatMap((column, k) => {
    const was = before?.tableau?.[k];
    const count = was && column ? was.hidden - column.hidden : 0;
    return count > 0 ? column.cards.slice(0, count) : [];
  });
  return cards.length ? `; turned up ${listWords(cards.map((card) => `the ${cardName(card)}`))}` : "";
}

// The automatic play-out in words: its one card, or how many went and the last of them.
function autoWords(steps) {
  if (!steps?.length) return "";
  const last = steps.at(-1).card;
  if (steps.length === 1) return last ? `; the ${cardName(last)} went home by itself` : "; a card went home by itself";
  return `; ${steps.length} cards went home by themselves${last ? `, the last the ${cardName(last)}` : ""}`;
}

function listWords(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

// The first card of a run that landed on column `dest`.
function runStart(after, dest, before) {
  const column = after.tableau?.[Number(dest.slice(1)) - 1];
  if (!column) return null;
  const index = before ? before.hidden + before.cards.length - column.hidden : 0;
  return column.cards[Math.max(0, index)] ?? null;
}

/** A move not yet played (a hint) in words. */
export function moveWords(move, board, game) {
  if (move === "draw") return "draw a card";
  if (move === "recycle") return "turn the waste over";
  const [source, dest] = move.split(">");
  const card = sourceCard(move, board, game);
  const what = card ? `the ${cardName(card)}` : `a card from ${placeWords(source, game)}`;
  if (!dest) return `play ${what} onto the waste`;
  const kind = placeKind(dest);
  if (kind === "foundation") return `send ${what} to ${placeWords(dest, game)}`;
  if (kind === "cell") return `put ${what} in ${placeWords(dest, game)}`;
  if (kind === "column") {
    const target = board?.tableau?.[Number(dest.slice(1)) - 1];
    const onto = target?.cards.length ? `onto the ${cardName(target.cards.at(-1))}` : `to the empty ${placeWords(dest, game)}`;
    return `move ${what} ${onto}`;
  }
  return `move ${what} to ${placeWords(dest, game)}`;
}

/** A server's reason, written in notation, put in words. */
export function reasonWords(reason) {
  let text = String(reason);
  text = text.replace(/^\S*>\S*:\s*/, ""); // "t1>t3: " names the move the player just made
  text = text.replace(/\bf:([cdhs])\b/g, (_, suit) => `the ${SUIT_WORDS[suit]} foundation`);
  text = text.replace(/\b(?:10|[2-9AJQKT])[cdhs]\b/g, (card) => `the ${cardName(card)}`);
  text = text.replace(/\bt(\d+)\b/g, "column $1");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A replay's step in words: the move, from the boards before and after it. */
export function stepWords(move, before, after, game) {
  return playedWords({ move, total_points: 0, auto: [] }, before, after, game);
}

/** Why a game ended, in words (`daily`: a game of a daily deal, whose close is the day's). */
export function outcomeWords(result, daily = false) {
  if (result.won) return "You won!";
  return { ended: "You ended the game", stuck: "No moves left", timeout: "Time is up", closed: daily ? "Today's deal has closed" : "The tournament has closed" }[result.reason] ?? "Game over";
}

// The cards a drag of the card at `src` lifts: from it to its column's foot (one card
// elsewhere).
function liftedCount(board, src, card) {
  const place = src.split(":")[0];
  if (!/^t\d+$/.test(place)) return 1;
  const cards = board?.tableau?.[Number(place.slice(1)) - 1]?.cards ?? [];
  const at = cards.lastIndexOf(card);
  return at < 0 ? 1 : cards.length - at;
}

// How a game's columns build, in words ("columns build down by one rank, in alternating
// colours"), from its layout's `tableau.build`.
function buildWords(build) {
  const colours = build.colours === "alternate" ? "in alternating colours" : "in any suit";
  return `columns build down by one rank, ${colours}${build.wrap ? ", a king under an ace" : ""}`;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** Why a drop of the card `card` at `src` (a data-src) on the place `dest` (a data-dest;
 * in a game played card by card, the waste) is refused on `view`, in words; null when the
 * server's legal moves take it. The server stays the referee: this only says at once, and
 * without asking, what it would answer, from the legal moves it sent and the board the
 * player sees. */
export function dropRefusal(view, src, card, dest) {
  const game = view?.game;
  const board = view?.board ?? {};
  const legal = view?.legal_moves ?? [];
  const name = cardName(card);
  if (layoutOf(game)?.direct) {
    if (legal.includes(src)) return null;
    const top = board.waste?.at(-1);
    const rule = wordOf(game, "drop_rule");
    return `The ${name} does not play on ${top ? `the ${cardName(top)}` : "the waste"}${rule ? `: ${rule}` : " now"}.`;
  }
  if (movesOf(view, src, card).some((move) => move.split(">")[1] === dest)) return null;
  const lifted = liftedCount(board, src, card);
  const run = lifted > 1 ? `The ${lifted} cards from the ${name} down` : `The ${name}`;
  if (/^t\d+$/.test(dest)) {
    const column = board.tableau?.[Number(dest.slice(1)) - 1];
    const target = column?.cards.at(-1) ?? null;
    const build = layoutOf(game)?.tableau.build ?? { colours: "alternate", wrap: false, empty: "king" };
    if (column && !target && column.hidden) return `${run} cannot go to column ${dest.slice(1)} now.`;
    if (!target) {
      if (build.empty === "king" && parts(card).rank !== "K") return `Only a king fills an empty column: the ${name} cannot go there.`;
      return `${run} cannot go to the empty column ${dest.slice(1)} now.`;
    }
    if (!buildsBy(card, target, build)) return `The ${name} does not go on the ${cardName(target)}: ${buildWords(build)}.`;
    return lifted > 1
      ? `${run} cannot move together to column ${dest.slice(1)} now: there are too few free places to move them a card at a time.`
      : `${run} cannot go to column ${dest.slice(1)} now.`;
  }
  const kind = placeKind(dest);
  if (kind === "foundation") {
    const home = wordOf(game, "foundation", "the foundation");
    if (lifted > 1) return `Only a column's last card goes to ${home}: the ${name} has cards on it.`;
    return `The ${name} cannot go to ${home} yet.`;
  }
  if (kind === "cell") {
    const cells = (layoutOf(game)?.rows ?? []).flatMap((line) => line.piles ?? []).find((pile) => pile.kind === "cell");
    const held = cells ? board[cells.field] ?? [] : [];
    const here = placeWords(dest, game);
    if (cells?.slots) {
      const inCell = held[Number(dest.slice(1)) - 1];
      if (inCell) return `${capital(here)} holds the ${cardName(inCell)}: a ${cells.name} holds one card.`;
    } else if (cells && held.length >= (cells.size ?? Infinity)) return `${capital(here)} is full: it holds ${cells.size} cards.`;
    if (lifted > 1) return `A ${cells?.name ?? "cell"} holds a single card, not a run.`;
    return `The ${name} cannot go to ${here} now.`;
  }
  return `The ${name} cannot go to ${placeWords(dest, game)}.`;
}
