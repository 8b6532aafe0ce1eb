// Small helpers for the pages: elements built from data (never from HTML text, since names
// and other text come from players), and the formats the pages share.

/** An element: `h("a", { href: "#/x", class: "button" }, "text", child, ...)`. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else if (key === "class") element.className = value;
    else if (value === true) element.setAttribute(key, "");
    else element.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/**
 * Sets `element`'s text, unless it shows that text already: writing the same text again
 * still has the browser lay the page out and paint it (a clock written at every frame kept
 * an idle table busy).
 */
export function writeText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/** A definition list of [term, value] pairs. */
export function facts(pairs, attributes = {}) {
  return h("dl", { class: "facts", ...attributes }, pairs.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]));
}

/** Seconds as m:ss (or h:mm:ss). */
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** Time played, written one way everywhere (the result, the history, the statistics, the
 * standings): minutes, seconds and the tenth, cut, never rounded up: 26.87 s is 0:26.8. */
export function timePlayed(value) {
  if (value === null || value === undefined) return "";
  const tenths = Math.floor(Number(value) * 10 + 1e-6);
  const minutes = Math.floor(tenths / 600);
  const rest = tenths % 600;
  return `${minutes}:${String(Math.floor(rest / 10)).padStart(2, "0")}.${rest % 10}`;
}

/** A long time played: hours and minutes ("3 h 05 min"); under an hour as timePlayed. */
export function hoursPlayed(value) {
  const whole = Math.floor(Number(value ?? 0));
  const hours = Math.floor(whole / 3600);
  if (!hours) return timePlayed(value ?? 0);
  return `${hours} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, "0")} min`;
}

/** Seconds with a tenth (the tenth cut, as timePlayed): kept for times used. */
export const seconds = (value) => timePlayed(value);

/** A deal number as people read it: its digits in groups of three ("9 007 199 254"). */
export function dealNumber(seed) {
  if (seed === null || seed === undefined) return "";
  return String(seed).replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
}

// The letters of a game's code: digits and capitals without I, L, O and U (none read as
// another, none spells a word).
const CODE_LETTERS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A game's short code, "A7K-93Q": the first 30 bits of its public id (16 hex digits, random
 * and unguessable) in six letters. Never made from the deal's seed: a timed deal's seed is
 * secret until its game is over, and nothing shown while it runs may tell of it. */
export function gameCode(id) {
  const bits = parseInt(String(id ?? "").slice(0, 8), 16);
  if (!Number.isFinite(bits)) return "";
  let rest = Math.floor(bits / 4); // 30 bits: six letters of five
  let code = "";
  for (let k = 0; k < 6; k++) {
    code = CODE_LETTERS[rest % 32] + code;
    rest = Math.floor(rest / 32);
  }
  return `${code.slice(0, 3)}-${code.slice(3)}`;
}

/** The longest deal number shown as a number (a practice deal's, six digits at most); a
 * longer one (a timed deal's 19 digits, once public) is named by its game's code. */
export const READABLE_DIGITS = 6;

/** A game's deal as people read it and say it: a numbered deal by its numbering
 * ("Microsoft deal 11982", as the server names it), "Deal 123 456" for a deal number one
 * can read out, else "Game #A7K-93Q" (`short`: "123 456", "#A7K-93Q"); the link is what is
 * shared. */
export function dealLabel({ id, seed, numbered }, { short = false } = {}) {
  if (numbered) return numbered.title;
  const known = seed !== null && seed !== undefined;
  if (known && (String(seed).length <= READABLE_DIGITS || !id)) return short ? dealNumber(seed) : `Deal ${dealNumber(seed)}`;
  const code = gameCode(id);
  if (!code) return "";
  return short ? `#${code}` : `Game #${code}`;
}

/** A Unix time as the player's local date and time. */
export function when(unix) {
  if (!unix) return "";
  return new Date(unix * 1000).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A <time> element for a Unix time. */
export const timeElement = (unix) => h("time", { datetime: new Date(unix * 1000).toISOString() }, when(unix));

/** A variant in words, by its options' names: "draw 3", "wrap", "no wrap" (an option that
 * is on or off is its name, or "no" and its name). */
export function variantWords(variant) {
  const parts = Object.entries(variant ?? {}).map(([key, value]) =>
    value === true ? key : value === false ? `no ${key}` : `${key} ${value}`);
  return parts.join(", ");
}

/** A percentage with one decimal. */
export const percent = (share) => `${(share * 100).toFixed(1)}%`;

/** A message for the page: role=alert so that screen readers say it. */
export const alertLine = (id) => h("p", { class: "error", id, role: "alert" });

/** The keys of the page being shown: pages.js gives it every key press while a page is
 * shown, and none reaches the card table's keys behind it. */
export const pageKeys = { handler: null };

/** The player's own game of a daily deal (`me` of /api/daily), in words: "Won · score 65
 * in 2:10 · rank 1 of 3", "Your game is running", or "" when not played. */
export function dailyResultWords(me) {
  if (!me) return "";
  if (me.running) return "Your game is running";
  const rank = me.rank ? ` · rank ${me.rank} of ${me.ranked}` : "";
  return `${me.won ? "Won" : "Played"} · score ${me.score}${me.elapsed === null || me.elapsed === undefined ? "" : ` in ${timePlayed(me.elapsed)}`}${rank}`;
}

/** A player's daily streak (`streak` of /api/daily/today) in words. */
export function streakWords(streak) {
  const days = (count) => `${count} day${count === 1 ? "" : "s"}`;
  return { head: `Daily streak: ${days(streak.current_streak)}`, rest: ` (best ${days(streak.best_streak)}) · ${streak.played} played, ${streak.won} won.` };
}

/** A page saying there is no such thing, with where to go instead (`links`: [href, words]). */
export function notFound(view, heading, words, links) {
  view.append(
    h("h2", {}, heading),
    h("p", { class: "lead", id: "missing-words" }, words),
    h("ul", { class: "missing-links" }, ...links.map(([href, text]) => h("li", {}, href === LOBBY_LINK[0] ? lobbyLink() : h("a", { href }, text)))),
  );
}

/** The way to the lobby of a page's links: [href, words]. */
export const LOBBY_LINK = ["/", "Go to the lobby"];

/** A link to the lobby: where the header's title goes (the lobby, whatever is on the table). */
export function lobbyLink() {
  return h("a", { href: LOBBY_LINK[0], class: "to-lobby", onclick: (event) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return; // a new tab
    event.preventDefault();
    document.getElementById("home").click();
  } }, LOBBY_LINK[1]);
}
