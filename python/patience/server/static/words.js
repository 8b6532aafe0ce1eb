// Moves, places, refusals and results said in words, for messages and screen readers:
// "Moved the seven of hearts onto the eight of clubs, 5 points", never "t1>t3".

import { cardName } from "./cards.js";
import { wordOf } from "./games.js";
import { movedCard } from "./moves.js";

const SUIT_WORDS = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };

/** A place of move notation in words: "column 3", "the waste", "the foundation". */
export function placeWords(place, game) {
  if (/^t\d+$/.test(place)) return `column ${place.slice(1)}`;
  if (place === "w") return "the waste";
  if (place === "r") return "the reserve";
  if (place === "h") return "the hand";
  if (/^c\d+$/.test(place)) return `free cell ${place.slice(1)}`;
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
  const auto = last.auto?.length ? `; ${last.auto.length} card${last.auto.length === 1 ? "" : "s"} went home by themselves` : "";
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
  if (dest === "h") return `Put ${what} in the hand${points}${auto}`;
  if (/^c\d+$/.test(dest)) return `Put ${what} in ${placeWords(dest, game)}${points}${auto}`;
  if (/^t\d+$/.test(dest)) {
    const target = before?.tableau?.[Number(dest.slice(1)) - 1];
    const onto = target?.cards.length ? `onto the ${cardName(target.cards.at(-1))}` : `to the empty ${placeWords(dest, game)}`;
    const moved = /^t\d+$/.test(source) && after ? runStart(after, dest, target) : card;
    return `Moved the ${moved ? cardName(moved) : "cards"} ${onto}${points}${auto}`;
  }
  return `Played ${move}${points}${auto}`;
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
  if (dest === "f") return `send ${what} to ${placeWords("f", game)}`;
  if (dest === "h") return `put ${what} in the hand`;
  const target = board?.tableau?.[Number(dest.slice(1)) - 1];
  const onto = target?.cards.length ? `onto the ${cardName(target.cards.at(-1))}` : `to the empty ${placeWords(dest, game)}`;
  return `move ${what} ${onto}`;
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

/** Why a game ended, in words. */
export function outcomeWords(result) {
  if (result.won) return "You won!";
  return { ended: "You ended the game", stuck: "No moves left", timeout: "Time is up", closed: "The tournament has closed" }[result.reason] ?? "Game over";
}
