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

/** A game's deal in words: a numbered deal by its numbering ("Microsoft deal 11982", as
 * the server names it), any other by its seed ("Deal 482 113"); "" for none. */
export function dealWords(game) {
  if (game?.numbered) return game.numbered.title;
  const number = dealNumber(game?.seed);
  return number ? `Deal ${number}` : "";
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
