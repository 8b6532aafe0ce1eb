// The end of a game: an overlay in view that tells why it ended, the score's breakdown and
// the deal's number, with a win shown as a cascade of cards: the four kings of the
// foundations, or in a game without foundations the last four cards cleared to the waste (a
// still fan of them when the player asks for reduced motion).

import { cardElement } from "./cards.js";
import { dealLabel, timePlayed } from "./dom.js";
import { layoutOf, wordOf } from "./games.js";
import { outcomeWords, reasonWords } from "./words.js";

const DIFFICULTY_NAMES = { easy: "Easy", medium: "Medium", hard: "Hard", expert: "Expert" };

/** The query that deals `answer`'s deal again: /?game=NAME&OPTION=VALUE&seed=42, or for
 * a numbered deal /?game=NAME&OPTION=VALUE&numbering=NAME&number=617. */
export function dealLink(answer) {
  const numbered = answer.numbered;
  if (!numbered && (answer.seed === null || answer.seed === undefined)) return null;
  const query = new URLSearchParams({ game: answer.game });
  for (const [name, value] of Object.entries(answer.variant ?? {})) query.set(name, String(value));
  if (numbered) {
    query.set("numbering", numbered.numbering);
    query.set("number", String(numbered.number));
  } else query.set("seed", String(answer.seed));
  return `/?${query}`;
}

function row(list, term, value, className = "") {
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  if (value instanceof Node) dd.append(value);
  else dd.textContent = String(value);
  if (className) { dt.className = className; dd.className = className; }
  list.append(dt, dd);
}

// Lines whose count is of moves, not of cards: a card moved off the foundations and sent
// home again is sent home twice (each time scores), so "(53 moves)", never "(53)" of 52 cards.
const COUNTED_IN_MOVES = new Set(["Cards sent home", "Cards moved off the foundations"]);
const countWords = (line) => (COUNTED_IN_MOVES.has(line.label)
  ? ` (${line.count} move${line.count === 1 ? "" : "s"})` : ` (${line.count})`);
const signed = (points) => (points > 0 ? `+${points}` : points < 0 ? `\u2212${-points}` : "0");

/** Fill the result panel for `answer` (a finished game) and show it, focused: why it
 * ended, each line of the score (the points' lines, the time bonus, the score), the time
 * played, the difficulty and the deal. A relaxed game has no score: its cards and time. */
export function showResult(panel, answer, { timeBonus = true, daily = false } = {}) {
  const result = answer.result;
  const home = wordOf(answer.game, "home", "home"); // where the game's cards go: "home", "cleared"
  const relaxed = answer.mode === "relaxed";
  panel.querySelector("#result-title").textContent = outcomeWords(result, daily);
  // The time bonus grows with the cards played home (or cleared) and the time left.
  const reasons = {
    won: `Every card is ${home}.`,
    // (why, in the game's terms where it says: "the king of spades is on the waste...")
    stuck: result.why ? `${reasonWords(result.why)}.` : "No move is left that could change the game.",
    timeout: timeBonus ? "The clock ran out; a game out of time gets no time bonus." : "The clock ran out.",
    closed: daily
      ? "The day's deal closed while this game was running (its clock had been given back time the server was away); it counts with its score as it stood, without a time bonus."
      : "The tournament closed while this attempt was running; it counts with its score as it stood, without a time bonus.",
    ended: timeBonus && !relaxed
      ? `You stopped playing; the time bonus counts the time left and the cards ${home}.`
      : "You stopped playing.",
  };
  let reason = reasons[result.won ? "won" : result.reason] ?? "";
  if (daily) reason += " Today's deal: see how you rank in its standing.";
  panel.querySelector("#result-reason").textContent = reason;
  const list = panel.querySelector("#breakdown");
  list.replaceChildren();
  if (relaxed) {
    row(list, `Cards ${home}`, result.cards_home);
  } else {
    const lines = result.lines ?? [];
    const bonuses = layoutOf(answer.game)?.words.bonus_lines ?? []; // shown without a count
    for (const line of lines) {
      const count = line.count && !bonuses.includes(line.label) ? countWords(line) : "";
      row(list, `${line.label}${count}`, signed(line.points), "line");
    }
    if (!lines.length) row(list, `Cards ${home}`, result.cards_home);
    row(list, "Points", result.points, "sum");
    if (timeBonus) row(list, "Time bonus", signed(result.time_bonus)); // a game without a time bonus has none
    row(list, "Score", result.score, "total");
  }
  row(list, "Time played", timePlayed(result.elapsed));
  if (answer.tier !== null && answer.tier !== undefined) {
    row(list, "Difficulty", `${DIFFICULTY_NAMES[answer.difficulty] ?? ""}, tier ${answer.tier} of 10`);
  }
  const link = dealLink(answer);
  if (link) {
    const anchor = document.createElement("a");
    anchor.href = link;
    anchor.className = "deal-link";
    anchor.textContent = dealLabel(answer, { short: true });
    anchor.title = "This deal's link: copy it to share the deal";
    row(list, "Deal", anchor);
  } else if (daily || answer.id) {
    // The deal is secret (everyone's the same, a daily's or a tournament's): the code is this
    // game's own, which differs from player to player, so it is named as the game's
    row(list, "Deal", daily ? "today's, the same for everyone: shown when today is over"
      : "the tournament's: shown when it closes");
    const code = dealLabel({ id: answer.id }, { short: true });
    if (code) row(list, "Game", code);
  }
  if (daily) {
    const standing = document.createElement("a");
    standing.href = `#/daily/${answer.game}/${encodeURIComponent(JSON.stringify(answer.variant ?? {}))}`;
    standing.id = "daily-standing";
    standing.textContent = "Today's standing";
    row(list, "Standing", standing);
  }
  panel.querySelector("#replay-deal").hidden = !link;
  panel.querySelector("#share").hidden = !link;
  panel.querySelector("#share-done").textContent = "";
  panel.querySelector("#again").hidden = false; // (a tournament's attempt hides it: tournaments.js)
  panel.querySelector("#again").textContent = daily ? "Lobby and today's deals" : "New game";
  panel.querySelector("#to-lobby").hidden = daily;
  panel.classList.toggle("won", result.won);
  const cascade = panel.querySelector("#cascade");
  cascade.replaceChildren();
  panel.hidden = false;
  if (result.won) celebrate(cascade, winningCards(answer));
  panel.querySelector("#again").focus();
}

// The cards a win shows: what the game built (its foundations' kings), or in a game whose
// layout has no foundations the last cards cleared, the top of the waste, the last first.
function winningCards(answer) {
  const rows = layoutOf(answer.game)?.rows ?? [];
  const built = rows.some((line) => (line.piles ?? []).some((pile) => pile.kind === "foundation"));
  if (built || !answer.board?.waste) return ["Kh", "Ks", "Kd", "Kc"];
  return answer.board.waste.slice(-4).reverse();
}

// The room a cascade's cards have: above the strip they play in (up to the window's top,
// over the dimmed table: the dialog clips nothing of them) and to either side of it (up to
// the window's sides), in pixels from the strip's own corner.
function roomOf(cascade, card) {
  const strip = cascade.getBoundingClientRect();
  // (a card turning reaches past its upright box by up to half its diagonal's excess)
  const diagonal = Math.hypot(card.width, card.height);
  const sideways = (diagonal - card.width) / 2 + 4;
  const upwards = (diagonal - card.height) / 2 + 4;
  return {
    above: Math.max(0, Math.min(BOUNCE, strip.top - upwards)),
    left: Math.max(0, strip.left - sideways),
    right: Math.max(0, window.innerWidth - sideways - strip.left - card.width),
  };
}
const BOUNCE = 80; // pixels: how high a cascade's card bounces, where the window has room

function celebrate(cascade, cards) {
  if (!cards.length) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const count = still ? cards.length : cards.length * 4;
  let room = null;
  for (let k = 0; k < count; k++) {
    const card = cardElement(cards[k % cards.length]);
    card.setAttribute("aria-hidden", "true");
    card.removeAttribute("role");
    card.classList.add("cascade-card");
    card.style.setProperty("--k", String(k % 4));
    cascade.append(card);
    if (still) continue;
    // each card leaves the top, bounces across the strip above the heading in arcs (as
    // high above it as the window has room for, and never lower than the strip's floor,
    // so never over the dialog's words), and fades
    const width = cascade.clientWidth || 300;
    room ??= roomOf(cascade, card.getBoundingClientRect());
    const direction = k % 2 ? -1 : 1;
    const start = (k % 4) * (width / 5);
    const travel = Math.min(width * 0.6, direction > 0 ? room.right - start : room.left + start);
    const floor = Math.max(0, cascade.clientHeight - card.offsetHeight);
    const frames = [];
    for (let step = 0; step <= 12; step++) {
      const t = step / 12;
      const x = start + direction * t * travel;
      const y = Math.abs(Math.sin(t * Math.PI * 2.5)) * -room.above * (1 - t) + t * floor; // lands in the strip
      frames.push({ transform: `translate(${x}px, ${y}px) rotate(${direction * t * 90}deg)`, opacity: 1 - t * 0.8 });
    }
    card.animate(frames, { duration: 1600, delay: k * 120, easing: "linear", fill: "both" });
  }
}
