// The pages beside the card table, by hash route: #/account, #/stats, #/history,
// #/replay/ID, #/tournaments, #/tournaments/ID and #/operator (operators). While one is shown, the body's
// data-page hides the lobby and the table (pages.css); an empty route shows them again as
// app.js left them. The header's navigation says who is signed in.

import { currentPlayer, onPlayerChange, whoAmI } from "./api.js";
import { h, pageKeys } from "./dom.js";
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
];

const page = document.getElementById("page");
let leaving = null; // what the page being shown does when it goes (stop its timers)
let shown = 0; // which route is being shown: an older one still loading stops itself

async function route() {
  leaving?.();
  leaving = null;
  const ticket = ++shown;
  const hash = location.hash;
  const found = ROUTES.find(([pattern]) => pattern.test(hash));
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
    view.append(h("p", { class: "error", role: "alert" }, `This page could not be shown: ${error.message}`));
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
