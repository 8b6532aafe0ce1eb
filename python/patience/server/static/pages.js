// The pages beside the card table, by hash route: #/account, #/stats, #/history,
// #/replay/ID, #/tournaments, #/tournaments/ID and #/operator (operators). While one is shown, the body's
// data-page hides the lobby and the table (pages.css); an empty route shows them again as
// app.js left them. The header's navigation says who is signed in.

import { currentPlayer, onPlayerChange, whoAmI } from "./api.js";
import { h, LOBBY_LINK, lobbyLink, notFound, pageKeys } from "./dom.js";
import { accountPage, historyPage, statsPage } from "./account.js";
import { adminPage } from "./admin.js";
import { dailyListPage, dailyPage } from "./dailypage.js";
import { asking } from "./dialog.js";
import { replayPage, watchPage } from "./replay.js";
import { tournamentPage, tournamentsPage } from "./tournaments.js";

const ROUTES = [
  [/^#\/account$/, accountPage, "Account"],
  [/^#\/stats$/, statsPage, "Statistics"],
  [/^#\/history$/, historyPage, "History"],
  [/^#\/replay\/([\w-]+)$/, replayPage, "Replay"],
  [/^#\/watch\/([\w-]+)$/, watchPage, "Replay"],
  [/^#\/daily$/, dailyListPage, "Daily"],
  [/^#\/daily\/(\w+)\/([^/]+)(?:\/(\d{4}-\d{2}-\d{2}))?$/, dailyPage, "Daily"],
  [/^#\/tournaments$/, tournamentsPage, "Tournaments"],
  [/^#\/tournaments\/([\w-]+)$/, tournamentPage, "Tournament"],
  [/^#\/operator$/, adminPage, "Operator"],
  // a page's address mistyped, or of a kind there is none of: a page that says so
  [/^#\/(tournaments)\/(.+)$/, missingPage, "Not found"],
  [/^#\/(daily)\/(.+)$/, missingPage, "Not found"],
  [/^#\/(replay|watch)\/(.+)$/, missingPage, "Not found"],
  [/^#\/(.+)$/, missingPage, "Not found"],
];

// A deal's link as a route (#/play/NAME?...): no page, the table deals it (app.js, links.js).
const PLAY = /^#\/play\//;

// What an address of no page shows: a tournament, a game or a page of that name there is none
// of (an id that cannot be one, or a page's address mistyped).
function missingPage(view, kind, id) {
  const named = decodeURIComponent(id ?? kind).slice(0, 60);
  if (kind === "tournaments") {
    notFound(view, `No tournament ${named}`, "There is no tournament with that id: the link may be mistyped or cut short.",
      [["#/tournaments", "See the list of tournaments"], LOBBY_LINK]);
  } else if (kind === "daily") {
    notFound(view, "No such daily deal", "A daily deal's page is one game's deal of one day (today's, or a past day's once it is over): choose it from the list of daily deals.",
      [["#/daily", "See the daily deals"], LOBBY_LINK]);
  } else if (kind === "replay" || kind === "watch") {
    notFound(view, `No game ${named}`, "There is no game with that id to replay: the link may be mistyped or cut short.",
      [["#/history", "Your history of games"], LOBBY_LINK]);
  } else {
    notFound(view, "No such page", `There is no page at #/${named}: the link may be mistyped.`, [LOBBY_LINK]);
  }
}

/** Show a page of words that no address names (a deal's link that cannot be dealt): its
 * heading, its words and its links, with the way to the lobby. It goes as the next page or
 * the lobby is shown. */
export function problemPage(heading, words, links = []) {
  leaving?.();
  leaving = null;
  ++shown;
  document.body.dataset.page = "problem";
  document.title = `${heading} · patience`;
  page.hidden = false;
  const view = h("div", { class: "view" });
  page.replaceChildren(view);
  notFound(view, heading, words, [...links, LOBBY_LINK]);
  const title = view.querySelector("h2");
  title.tabIndex = -1;
  title.focus({ preventScroll: true });
}

const page = document.getElementById("page");
let leaving = null; // what the page being shown does when it goes (stop its timers)
let shown = 0; // which route is being shown: an older one still loading stops itself

async function route() {
  leaving?.();
  leaving = null;
  const ticket = ++shown;
  const hash = location.hash;
  const found = PLAY.test(hash) ? null : ROUTES.find(([pattern]) => pattern.test(hash));
  drawNav();
  if (!found) {
    delete document.body.dataset.page;
    page.hidden = true;
    page.replaceChildren();
    document.title = "patience";
    return;
  }
  const [pattern, render, title] = found;
  document.body.dataset.page = title.toLowerCase();
  document.title = `${title} · patience`;
  page.hidden = false;
  // Each route draws into a view of its own: one still loading when another is asked for
  // goes on drawing into a view no longer on the page.
  const view = h("div", { class: "view" });
  page.replaceChildren(view);
  window.scrollTo(0, 0);
  let stop = null;
  try {
    await whoAmI();
    stop = await render(view, ...hash.match(pattern).slice(1));
  } catch (error) {
    view.append(h("p", { class: "error", role: "alert" }, `This page could not be shown: ${error.message}`),
      h("p", {}, lobbyLink()));
  }
  if (ticket !== shown) {
    if (typeof stop === "function") stop();
    return;
  }
  if (typeof stop === "function") leaving = stop;
  // Move the keyboard's focus to the new page's heading, as a page load would.
  const heading = view.querySelector("h2");
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}

/** Leave the pages for the card table (the lobby or a game app.js shows). */
export function toTable() {
  if (location.hash) history.pushState(null, "", location.pathname + location.search);
  route();
}

function drawNav() {
  const player = currentPlayer();
  const here = location.hash;
  const link = (href, text) => h("a", { href, "aria-current": here === href ? "page" : null }, text);
  const items = [link("#/daily", "Daily deals"), link("#/tournaments", "Tournaments")];
  if (player) items.push(link("#/stats", "Statistics"), link("#/history", "History"));
  if (player?.operator) items.push(link("#/operator", "Operator"));
  items.push(player
    ? h("a", { href: "#/account", class: "who", "aria-current": here === "#/account" ? "page" : null, title: "Your account" }, player.name)
    : link("#/account", "Sign in"));
  document.getElementById("nav").replaceChildren(...items);
}

window.addEventListener("hashchange", route);
// While a page is shown its keys are its own: the card table's (space draws, u undoes...)
// listen on the document, which this listener, capturing on the window, goes before.
window.addEventListener("keydown", (event) => {
  if (!document.body.dataset.page || asking()) return; // (a question's keys are its own)
  pageKeys.handler?.(event);
  event.stopPropagation();
}, true);
// app.js shows the lobby when the title is clicked; the pages step aside.
document.getElementById("home").addEventListener("click", () => toTable());
onPlayerChange(drawNav);
route();
