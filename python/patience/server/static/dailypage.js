// The daily deals' pages: #/daily (today's deals and yesterday's, revealed) and
// #/daily/GAME/VARIANT[/DAY] (one day's deal: when it ends, the player's own game, the
// standing of signed-in players, and, once the day is over, the deal's number, its tier
// and its best games to replay).

import { currentPlayer, daily, whoAmI } from "./api.js";
import { READABLE_DIGITS, dailyResultWords, dealNumber, h, streakWords, timePlayed, variantWords } from "./dom.js";

const name = (deal) => `${deal.title}${variantWords(deal.variant) ? `, ${variantWords(deal.variant)}` : ""}`;
const link = (game, variant, day) => `#/daily/${game}/${encodeURIComponent(JSON.stringify(variant ?? {}))}${day ? `/${day}` : ""}`;

function dayWords(day) {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
}

function untilWords(at) {
  const seconds = Math.max(0, Math.round(at - Date.now() / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours ? `${hours} h ${String(minutes).padStart(2, "0")} min` : `${minutes} min`;
}

const play = (game, variant) => document.dispatchEvent(new CustomEvent("patience:daily", { detail: { game, variant } }));

function leaveForTable() {
  // the table's own entry in the history, its game on its way (app.js): Back comes here
  if (location.hash) history.pushState({ table: true }, "", location.pathname + location.search);
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

/** #/daily: today's deals, each with the player's own game of it (won or played, its
 * score and rank in the day's standing, or the way to play it), and yesterday's; a
 * signed-in player's daily streak. */
export async function dailyListPage(page) {
  const today = await daily.today();
  await whoAmI(); // a fresh load may not know yet who is signed in
  const player = currentPlayer();
  page.append(
    h("h2", {}, "Daily deals"),
    h("p", { class: "lead" }, `One deal a game a day, the same for everyone, played on the clock. Today's (${dayWords(today.day)}) ends in ${untilWords(today.ends_at)}; its deal number and its best games are shown once the day is over.`));
  if (today.streak) {
    const { head, rest } = streakWords(today.streak);
    page.append(h("p", { id: "daily-streak", class: "daily-streak" }, h("b", {}, head), `${rest} Days in a row with a daily deal won.`));
  } else if (!player) {
    page.append(h("p", { class: "help" }, h("a", { href: "#/account" }, "Sign in"), " to play the daily deals: each player plays each once, for the standings, and keeps a daily streak."));
  }
  page.append(
    h("h3", {}, "Today"),
    h("ul", { class: "daily-days daily-today", id: "daily-today" }, today.deals.map((deal) => h("li", { "data-game": deal.game },
      h("span", { class: "daily-name" }, h("a", { href: link(deal.game, deal.variant) }, name(deal)),
        h("span", { class: "daily-count" }, deal.games ? ` · ${deal.games} played` : "")),
      h("span", { class: "daily-mine" }, dailyResultWords(deal.me)),
      playButton(deal, player)))),
    h("h3", {}, `Yesterday (${dayWords(today.yesterday)})`),
    h("ul", { class: "links daily-days", id: "daily-yesterday" }, today.deals.map((deal) => h("li", {},
      h("a", { href: link(deal.game, deal.variant, today.yesterday) }, name(deal))))));
}

// Play (or go on with) today's deal; one played already shows so, with its standing.
function playButton(deal, player) {
  if (!player && !deal.me) return h("a", { class: "daily-sign-in", href: "#/account", "aria-label": `Sign in to play: ${name(deal)}` }, "Sign in to play");
  const start = (words) => h("button", { type: "button", class: "small daily-play", "aria-label": `${words}: ${name(deal)}`,
    onclick: () => { leaveForTable(); play(deal.game, deal.variant); } }, words);
  if (deal.me?.running) return start("Continue");
  if (deal.me) return h("a", { class: "daily-done", href: link(deal.game, deal.variant), "aria-label": `${deal.me.won ? "Won" : "Played"}: ${name(deal)}'s standing` }, deal.me.won ? "Won \u2713" : "Played");
  return start("Play");
}

/** #/daily/GAME/VARIANT[/DAY]: one day's deal. */
export async function dailyPage(page, game, variantText, day) {
  let variant = {};
  try {
    variant = JSON.parse(decodeURIComponent(variantText));
  } catch (_) { /* the game's default */ }
  const deal = await daily.day(game, variant, day);
  await whoAmI(); // a fresh load may not know yet who is signed in
  const player = currentPlayer();
  const title = name(deal);
  page.append(
    h("p", { class: "crumbs" }, h("a", { href: "#/daily" }, "All daily deals")),
    h("h2", {}, `Daily deal: ${title}`),
    h("p", { class: "lead", id: "daily-when" }, deal.today
      ? `Today, ${dayWords(deal.day)}: ends in ${untilWords(deal.ends_at)}. The same deal for everyone, timed; its deal number is shown when the day is over.`
      : `${dayWords(deal.day)}.`));
  // the player's own game, or the way to play
  const mine = h("section", { id: "daily-mine", "aria-labelledby": "daily-mine-title" }, h("h3", { id: "daily-mine-title" }, "Your game"));
  if (deal.me?.running) {
    mine.append(h("button", { type: "button", id: "daily-play", onclick: () => { leaveForTable(); play(game, variant); } }, "Continue your game"));
  } else if (deal.me?.score !== undefined) {
    mine.append(h("p", {}, `${deal.me.won ? "Won" : "Played"}: score ${deal.me.score} in ${timePlayed(deal.me.elapsed)}, rank ${deal.me.rank} of ${deal.ranked}.`));
  } else if (deal.today) {
    if (player) {
      mine.append(h("p", {}, "You have not played it yet: one game, on the clock."),
        h("button", { type: "button", id: "daily-play", onclick: () => { leaveForTable(); play(game, variant); } }, "Play today's deal"));
    } else {
      // each player plays it once: a guest's games could not be counted, and so could show the day's cards
      mine.append(h("p", { id: "daily-sign-in" }, h("a", { href: "#/account" }, "Sign in to play today's deal"), ": each player plays it once, on the clock, for the day's standing."));
    }
  } else {
    mine.append(h("p", {}, "You did not play it."));
  }
  page.append(mine);
  // the deal, once revealed
  if (deal.revealed) {
    const readable = String(deal.seed).length <= READABLE_DIGITS;
    const practice = `/?game=${encodeURIComponent(game)}${Object.entries(deal.variant).map(([key, value]) => `&${key}=${value}`).join("")}&seed=${deal.seed}`;
    page.append(h("section", { id: "daily-deal", "aria-labelledby": "daily-deal-title" },
      h("h3", { id: "daily-deal-title" }, "The deal"),
      h("p", {}, `${readable ? `Deal ${dealNumber(deal.seed)}` : "The day's deal"}${deal.tier ? `, tier ${deal.tier} of 10` : ""}. `,
        h("a", { href: practice, id: "daily-practice" }, "Play it as practice"), "."),
      // a long seed is not a name to read out, but anyone may check the deal against it
      readable ? null : h("p", { class: "help" }, `Its seed, to check it against the shuffle: ${dealNumber(deal.seed)}.`)));
  } else if (!deal.today) {
    page.append(h("p", { class: "help" }, deal.dealt ? `Its deal is shown once every game of it has ended, from ${new Date(deal.reveal_at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.` : "Nobody played it."));
  }
  // the standing
  const rows = deal.standing.map((row) => h("tr", { class: row.mine ? "mine" : null, "aria-current": row.mine ? "true" : null },
    h("td", { "data-label": "Rank" }, row.rank),
    h("th", { scope: "row", "data-label": "Player" }, row.name),
    h("td", { "data-label": "Score" }, row.score),
    h("td", { "data-label": "Time" }, timePlayed(row.elapsed)),
    h("td", { "data-label": "Result" }, row.won ? "won" : "not won"),
    h("td", { "data-label": "Replay" }, row.game ? h("a", { href: `#/watch/${row.game}`, "aria-label": `Replay ${row.name}'s game` }, "Replay") : "after the day")));
  page.append(h("section", { id: "daily-standing", "aria-labelledby": "daily-standing-title" },
    h("h3", { id: "daily-standing-title" }, deal.today ? "Standing (live)" : "Standing"),
    h("p", { class: "rule" }, "Signed-in players' games, ranked by score, then by the time used. ", `${deal.games} played, ${deal.ranked} finished and ranked.`),
    h("table", { class: "standings history" },
      h("caption", { class: "sr-only" }, `Standing of the daily deal of ${title}`),
      h("thead", {}, h("tr", {}, ["Rank", "Player", "Score", "Time", "Result", "Replay"].map((column) => h("th", { scope: "col" }, column)))),
      h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: 6 }, "No finished game yet."))))));
  if (deal.today) {
    const yesterday = new Date((deal.starts_at - 1) * 1000).toISOString().slice(0, 10);
    page.append(h("p", {}, h("a", { href: link(game, variant, yesterday), id: "daily-yesterday-link" }, "Yesterday's deal and its best games")));
  }
}
