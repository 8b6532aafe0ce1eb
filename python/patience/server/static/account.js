// The player's pages: sign up, log in, log out and change password (#/account), the
// statistics (#/stats) and the history of finished games with the export (#/history).

import { accounts, api, currentPlayer } from "./api.js";
import { alertLine, dealLabel, facts, h, hoursPlayed, percent, timeElement, timePlayed, variantWords } from "./dom.js";

let titles = null; // game name -> title, from GET /api/games

async function gameTitle(name) {
  if (!titles) {
    try {
      titles = Object.fromEntries((await api.games()).map((game) => [game.name, game.title]));
    } catch (_) {
      titles = {};
    }
  }
  return titles[name] ?? name;
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

// What a field's rule asks, when its value breaks it (its length, or nothing typed), in the
// words of its label ("Password: at least 8 characters (this one has 5)."); null when kept.
function ruleWords(input) {
  const label = (input.closest("label")?.querySelector("span")?.textContent ?? input.name).replace(/\s*\(.*\)$/, "");
  const length = input.value.length;
  const least = input.minLength > 0 ? ` (at least ${input.minLength} characters)` : "";
  if (input.required && !length) return `${label}: fill it in${least}.`;
  if (length && input.minLength > 0 && length < input.minLength) {
    return `${label}: at least ${input.minLength} characters (this one has ${length}).`;
  }
  if (input.maxLength > 0 && length > input.maxLength) return `${label}: at most ${input.maxLength} characters.`;
  return input.validity.valid ? null : `${label}: ${input.validationMessage}`;
}

// A form whose submit runs `action`, showing its refusal in the form's alert line and
// keeping the button disabled while the request is on its way. Its fields' rules are the
// form's own to say (the browser's own check, which would block the submit in silence
// under an older message, is off): each submit says the first rule broken, or the
// server's refusal, and typing clears what was said.
function form(id, heading, fields, button, action) {
  const error = alertLine(`${id}-error`);
  const submit = h("button", { type: "submit" }, button);
  const element = h("form", { id, class: "card-form", "aria-labelledby": `${id}-title`, novalidate: "" },
    h("h3", { id: `${id}-title` }, heading), ...fields, submit, error);
  const inputs = () => [...element.querySelectorAll("input")];
  element.addEventListener("input", () => {
    error.textContent = "";
    for (const input of inputs()) input.removeAttribute("aria-invalid");
  });
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    for (const input of inputs()) input.removeAttribute("aria-invalid");
    const broken = inputs().map((input) => ({ input, words: ruleWords(input) })).find(({ words }) => words);
    if (broken) {
      error.textContent = broken.words;
      broken.input.setAttribute("aria-invalid", "true");
      broken.input.setAttribute("aria-describedby", error.id);
      broken.input.focus();
      return;
    }
    submit.disabled = true;
    try {
      await action(new FormData(element));
      // done: a password typed stays in no field
      for (const input of element.querySelectorAll("input[type=password]")) input.value = "";
    } catch (refusal) {
      error.textContent = refusal.message;
    } finally {
      submit.disabled = false;
    }
  });
  return element;
}

// The sign-up form, or, when the server's sign-up is closed, a note saying so.
function signupForm(...args) {
  const element = form("signup", ...args);
  accounts.signupOpen().then((open) => {
    if (!open) element.replaceWith(h("div", { class: "card-form", id: "signup-closed" }, h("h3", {}, "Create an account"), h("p", {}, "Sign-up is closed on this server: an operator makes the accounts.")));
  }, () => {});
  return element;
}

const nameInput = (id) => h("input", { id, name: "name", autocomplete: "username", required: true, minlength: 2, maxlength: 24 });
const passwordInput = (id, name, autocomplete) =>
  h("input", { id, name, type: "password", autocomplete, required: true, minlength: 8, maxlength: 256 });

/** #/account: sign in or sign up as a guest; the account, password and log-out once in. */
export function accountPage(page) {
  const player = currentPlayer();
  if (!player) {
    page.append(
      h("h2", {}, "Sign in"),
      h("p", { class: "lead" }, "Guests can play as they are. With an account your games, statistics and history are yours on any device, and you can enter tournaments."),
      h("div", { class: "columns" },
        form("login", "Log in", [field("Name", nameInput("login-name")), field("Password", passwordInput("login-password", "password", "current-password"))],
          "Log in", async (data) => {
            await accounts.logIn(data.get("name"), data.get("password"));
            location.hash = "#/stats";
          }),
        signupForm("Create an account", [
          field("Name (2 to 24 characters)", nameInput("signup-name")),
          field("Password (at least 8 characters)", passwordInput("signup-password", "password", "new-password")),
          h("p", { class: "help" }, "The games you played as a guest on this browser become your account's."),
        ], "Sign up", async (data) => {
          const answer = await accounts.signUp(data.get("name"), data.get("password"));
          sessionStorage.setItem("patience-claimed", String(answer.claimed ?? 0));
          location.hash = "#/stats";
        })));
    return;
  }
  const done = h("p", { class: "ok", role: "status", id: "password-done" });
  page.append(
    h("h2", {}, `Signed in as ${player.name}`),
    ...(player.operator ? [h("p", { class: "badge" }, "Operator")] : []),
    h("ul", { class: "links" },
      h("li", {}, h("a", { href: "#/stats" }, "Your statistics")),
      h("li", {}, h("a", { href: "#/history" }, "Your finished games and their replays")),
      h("li", {}, h("a", { href: "/api/me/export", download: "patience-games.jsonl" }, "Export your games (JSON lines of game records)")),
      h("li", {}, h("a", { href: "#/tournaments" }, "Tournaments")),
      ...(player.operator ? [h("li", {}, h("a", { href: "#/operator" }, "The operator's page: accounts and the server"))] : [])),
    h("div", { class: "columns" },
      form("password", "Change password", [
        field("Current password", passwordInput("old-password", "old", "current-password")),
        field("New password", passwordInput("new-password", "new", "new-password")),
        h("p", { class: "help" }, "Every other device signed in to this account is signed out."),
      ], "Change password", async (data) => {
        await accounts.changePassword(data.get("old"), data.get("new"));
        done.textContent = "Password changed.";
      }),
      h("div", { class: "card-form" },
        h("h3", {}, "Log out"),
        h("p", {}, "Your games stay in your account."),
        h("button", { type: "button", id: "logout", onclick: async () => { await accounts.logOut(); location.hash = "#/account"; window.dispatchEvent(new HashChangeEvent("hashchange")); } }, "Log out"))),
    done);
}

function signInFirst(page, heading) {
  page.append(h("h2", {}, heading), h("p", {}, "Sign in to see this: ", h("a", { href: "#/account" }, "Sign in or create an account"), "."));
}

const MODES = { timed: "timed", practice: "practice", relaxed: "relaxed" };
const SVG = "http://www.w3.org/2000/svg";

// A chart of a group's recent scores, oldest first (a won game's bar bright), with the same
// figures in words for a screen reader. A few games' bars carry their scores (a first
// game is one labelled bar, not an empty space); many are read from their heights.
const LABELLED = 6; // bars labelled with their score up to this many games

function scoreChart(recent) {
  const scored = recent.filter((game) => game.score !== null);
  if (!scored.length) return null;
  const chart = document.createElementNS(SVG, "svg");
  const width = 300;
  const height = 60;
  const labelled = scored.length <= LABELLED;
  const room = labelled ? 14 : 4; // above the tallest bar: its score's line
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  chart.setAttribute("class", "stats-chart");
  chart.setAttribute("preserveAspectRatio", "xMinYMax meet"); // on the left, like the figures
  chart.setAttribute("role", "img");
  const top = Math.max(1, ...scored.map((game) => game.score));
  // (a bar as wide for 3 games as for 20; a labelled bar as wide as its score's line, so
  // that neighbours' scores stay apart)
  const step = width / (labelled ? LABELLED : Math.max(scored.length, 20));
  const baseline = document.createElementNS(SVG, "line");
  for (const [name, value] of [["x1", 0], ["x2", width], ["y1", height - 0.5], ["y2", height - 0.5]]) baseline.setAttribute(name, String(value));
  baseline.setAttribute("stroke", "rgba(255,255,255,.35)");
  chart.append(baseline);
  scored.forEach((game, index) => {
    const bar = document.createElementNS(SVG, "rect");
    const tall = Math.max(2, (Math.max(0, game.score) / top) * (height - room));
    bar.setAttribute("x", String(index * step + 1));
    bar.setAttribute("y", String(height - tall));
    bar.setAttribute("width", String(Math.max(2, step - 3)));
    bar.setAttribute("height", String(tall));
    bar.setAttribute("rx", "2");
    bar.setAttribute("fill", game.won ? "#ffe066" : "rgba(255,255,255,.55)");
    chart.append(bar);
    if (labelled) {
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("x", String(index * step + 1 + Math.max(2, step - 3) / 2));
      label.setAttribute("y", String(height - tall - 3));
      label.setAttribute("text-anchor", "middle");
      label.setAttribute("class", "bar-label");
      label.textContent = `${game.score}${game.won ? " \u2713" : ""}`;
      chart.append(label);
    }
  });
  chart.setAttribute("aria-label", `Recent scores, oldest first: ${scored.map((game) => `${game.score}${game.won ? " (won)" : ""}`).join(", ")}`);
  return chart;
}

/** What a group's chart shows, in a line above it. */
function chartTitle(count) {
  return count === 1 ? "Your first game's score (each game adds a bar)" : `The last ${count} games' scores`;
}

/** #/stats: per game, variant and mode, the figures of GET /api/me/stats. */
export async function statsPage(page) {
  if (!currentPlayer()) return signInFirst(page, "Statistics");
  page.append(h("h2", {}, "Statistics"));
  const claimed = Number(sessionStorage.getItem("patience-claimed") ?? 0);
  sessionStorage.removeItem("patience-claimed");
  if (claimed) page.append(h("p", { class: "ok", role: "status" }, `${claimed} game${claimed === 1 ? "" : "s"} you played as a guest on this browser ${claimed === 1 ? "is" : "are"} now yours.`));
  const { stats, totals, daily } = await accounts.stats();
  if (!stats.length && !daily.played) {
    page.append(h("p", { id: "no-stats" }, "No finished games yet. ", h("a", { href: "/" }, "Deal one"), "."));
    return;
  }
  page.append(h("div", { class: "stats", id: "stats-totals" },
    h("section", { class: "stat-group", "aria-labelledby": "totals-title", id: "totals" }, h("h3", { id: "totals-title" }, "All games"),
      facts([
        // the record is the timed games' (dealt by the server, on the clock); practice and
        // relaxed games (any deal, hints, undo) are counted apart, each under its name
        ["Timed games", totals.timed.games],
        ["Timed wins", `${totals.timed.wins} (${percent(totals.timed.win_rate)})`],
        ["Practice games", `${totals.practice.games}, ${totals.practice.wins} won`],
        ["Relaxed games", `${totals.relaxed.games}, ${totals.relaxed.wins} won`],
        ["Time played", hoursPlayed(totals.time_played)],
      ]),
      h("p", { class: "help" }, "Your record is your timed games'. Practice and relaxed games (any deal, hints, undo) are counted apart; the time played is every game's.")),
    h("section", { class: "stat-group", "aria-labelledby": "daily-stats-title", id: "daily-stats" }, h("h3", { id: "daily-stats-title" }, "Daily deals"),
      facts([
        ["Played", daily.played],
        ["Won", daily.won],
        ["Daily streak", `${daily.current_streak} day${daily.current_streak === 1 ? "" : "s"}`],
        ["Best daily streak", `${daily.best_streak} day${daily.best_streak === 1 ? "" : "s"}`],
      ]),
      h("p", { class: "help" }, "Days in a row with a daily deal won. ", h("a", { href: "#/daily" }, "Today's deals")))));
  const list = h("div", { class: "stats", id: "stats" });
  for (const group of stats) {
    const title = `${await gameTitle(group.game)}${variantWords(group.variant) ? `, ${variantWords(group.variant)}` : ""} (${MODES[group.mode] ?? group.mode})`;
    const relaxed = group.mode === "relaxed";
    const rows = [
      ["Games", group.games],
      ["Wins", group.wins],
      ["Win rate", percent(group.win_rate)],
      ["Time played", hoursPlayed(group.time_played)],
      ...(relaxed ? [] : [
        ["Current streak", group.current_streak],
        ["Best streak", group.best_streak],
        ["Best score", group.best_score ?? "none"],
        ["Average score", group.average_score === null ? "none" : group.average_score.toFixed(1)],
        ["Fastest win", group.fastest_win === null ? "none yet" : timePlayed(group.fastest_win)],
      ]),
    ];
    const section = h("section", { class: "stat-group", "data-game": group.game, "data-mode": group.mode, "aria-label": title },
      h("h3", {}, title), facts(rows));
    const chart = scoreChart(group.recent ?? []);
    if (chart) section.append(h("p", { class: "help chart-title" }, chartTitle(group.recent.filter((game) => game.score !== null).length)), chart);
    if (group.tiers.length) {
      section.append(h("table", { class: "tiers" },
        h("caption", {}, "By difficulty tier (1 easiest, 10 hardest)"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Tier"), h("th", { scope: "col" }, "Games"), h("th", { scope: "col" }, "Wins"), h("th", { scope: "col" }, "Win rate"))),
        h("tbody", {}, group.tiers.map((tier) => h("tr", {},
          h("th", { scope: "row" }, tier.tier), h("td", {}, tier.games), h("td", {}, tier.wins), h("td", {}, percent(tier.games ? tier.wins / tier.games : 0)))))));
    }
    list.append(section);
  }
  page.append(list);
}

// A relaxed game (no clock, no score) that ends without a win was ended by its player,
// never lost; a timed or practice game ended so, or out of time, is lost.
const RESULT = (game) => (game.won ? "Won" : game.won === false && game.mode !== "relaxed" ? "Lost" : "Ended");

// A finished game's tier in the history: its deal's difficulty when it came rated; a
// tournament's or daily deal's still sealed (shown with the deal, at the close); a deal
// played by its number has none (it was never rated: not "unrated" as a practice deal of
// ours is, but outside the tiers altogether).
function tierCell(game) {
  if (game.tier !== null && game.tier !== undefined) return String(game.tier);
  if (game.numbered) return h("span", { title: `${dealLabel(game)}: a deal played by its number has no difficulty tier` }, "numbered deal");
  return game.seed === null ? "sealed" : "unrated";
}

// A cell with nothing to show reads "—" (its reason in its title): on a phone, where each
// row is a block of label: value lines, an empty cell would take no line of its own and
// slip every later label against the value of its neighbour.
const none = (why) => h("span", { class: "none", title: why }, "\u2014");

/** #/history: the finished games, newest first, a page at a time, each with its replay. */
export async function historyPage(page) {
  if (!currentPlayer()) return signInFirst(page, "History");
  const body = h("tbody", {});
  const more = h("button", { type: "button", id: "more", hidden: true }, "Older games");
  const error = alertLine("history-error");
  page.append(
    h("h2", {}, "History"),
    h("p", {}, "Your finished games, the newest first. ",
      h("a", { href: "/api/me/export", download: "patience-games.jsonl", id: "export" }, "Export them all"),
      " as JSON lines of game records (one game a line), to replay with ", h("code", {}, "patience replay"), "."),
    h("table", { class: "history", id: "history" },
      h("caption", { class: "sr-only" }, "Finished games"),
      h("thead", {}, h("tr", {}, ["Date", "Game", "Deal", "Tier", "Result", "Score", "Time", "Replay"].map((name) => h("th", { scope: "col" }, name)))),
      body),
    more, error);
  let before = null;
  async function load() {
    more.disabled = true;
    try {
      const answer = await accounts.games(before);
      for (const game of answer.games) {
        const title = `${await gameTitle(game.game)}${variantWords(game.variant) ? `, ${variantWords(game.variant)}` : ""}${game.mode === "timed" ? "" : ` (${game.mode})`}`;
        // what it was played for: a tournament (linked) or a daily deal
        const occasion = game.occasion?.tournament
          ? [" \u00b7 ", h("a", { href: `#/tournaments/${game.occasion.tournament}`, class: "occasion" }, `${game.occasion.name}, attempt ${game.occasion.attempt}`)]
          : game.occasion?.daily ? [" \u00b7 ", h("span", { class: "occasion" }, `daily deal of ${game.occasion.daily}`)] : [];
        const cells = [
          ["Date", timeElement(game.ended_at)],
          ["Game", h("span", {}, title, ...occasion)],
          ["Deal", game.seed === null && !game.numbered ? h("span", { title: "a tournament's or daily deal's deal stays sealed until it closes" }, `${dealLabel(game, { short: true })} (sealed)`) : dealLabel(game, { short: true })],
          ["Tier", tierCell(game)],
          ["Result", RESULT(game)],
          ["Score", game.mode === "relaxed" ? none("a relaxed game has no score") : game.score ?? none("no score")],
          ["Time", timePlayed(game.elapsed) || none("no time recorded")],
          ["Replay", game.seed === null && !game.numbered ? "after the close" : h("a", { href: `#/replay/${game.id}`, "aria-label": `Replay the game of ${timeElement(game.ended_at).textContent}` }, "Replay")],
        ];
        body.append(h("tr", { "data-id": game.id }, cells.map(([label, value]) => h("td", { "data-label": label }, value === "" || value === null || value === undefined ? none("none") : value))));
      }
      if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 8 }, "No finished games yet.")));
      before = answer.games.at(-1)?.ended_at ?? before;
      more.hidden = !answer.more;
    } catch (refusal) {
      error.textContent = refusal.message;
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", load);
  await load();
}
