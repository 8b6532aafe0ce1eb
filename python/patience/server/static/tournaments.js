// The tournament pages: the lobby (#/tournaments: open, running, finished), a
// tournament's page (#/tournaments/ID: rules, clock, the player's entry and attempts, live
// standings with their rule) and, once it has closed, the verification view, which checks
// in the browser what a browser can: the commitment's SHA-256 and the ranks.

import { api, currentPlayer, tournaments } from "./api.js";
import { ask } from "./dialog.js";
import { alertLine, duration, facts, h, LOBBY_LINK, notFound, timeElement, timePlayed, variantWords } from "./dom.js";
import { optionWords, valueWords } from "./games.js";

const PAGE = 20; // standings rows a page
const LIVE = 5000; // milliseconds between two reads of live standings

const STATUS = { open: "Opens soon", running: "Running", finished: "Finished" };

function policyWords(t) {
  return t.policy === "shared"
    ? "one deal, the same for every entrant"
    : `a deal of difficulty tier ${t.tier} of 10 for each attempt (every entrant's deals of the same tier)`;
}

/**
 * A series of readings whose answers are drawn in order: `read(request)` awaits
 * `request()` and answers its answer, or null when a later reading's answer has been drawn
 * already (so a reading still on its way is never drawn over what came after it, and
 * readings slower than their interval still show). A refusal is thrown on unless a later
 * answer has been drawn (then null too).
 */
function inOrder() {
  let asked = 0;
  let shown = 0;
  return async (request) => {
    const ticket = ++asked;
    let answer;
    try {
      answer = await request();
    } catch (refusal) {
      if (ticket < shown) return null;
      throw refusal;
    }
    if (ticket < shown) return null;
    shown = ticket;
    return answer;
  };
}

const gameWords = (t) => `${t.title}${variantWords(t.variant) ? `, ${variantWords(t.variant)}` : ""}`;

/** #/tournaments: every tournament, by status. */
export async function tournamentsPage(page) {
  page.append(h("h2", {}, "Tournaments"));
  const { tournaments: all } = await tournaments.list();
  const player = currentPlayer();
  if (!player) page.append(h("p", {}, h("a", { href: "#/account" }, "Sign in"), " to enter a tournament; anyone can follow the standings."));
  if (player?.operator) page.append(await createForm());
  for (const status of ["running", "open", "finished"]) {
    const mine = all.filter((t) => t.status === status);
    const heading = { running: "Running now", open: "Opening soon", finished: "Finished" }[status];
    const section = h("section", { class: "tournament-list", id: `tournaments-${status}`, "aria-labelledby": `heading-${status}` },
      h("h3", { id: `heading-${status}` }, heading));
    if (!mine.length) section.append(h("p", { class: "help" }, "None."));
    else section.append(h("ul", {}, mine.map((t) => h("li", { "data-id": t.id },
      h("a", { href: `#/tournaments/${t.id}` }, t.name),
      h("span", { class: "meta" }, ` ${gameWords(t)} · ${t.entrants} of ${t.max_entrants} entrants · `,
        status === "open" ? ["opens ", timeElement(t.opens_at)] : status === "running" ? ["closes ", timeElement(t.closes_at)] : ["closed ", timeElement(t.closes_at)])))));
    page.append(section);
  }
}

// An operator's form for a new tournament (POST /api/tournaments); its deals are claimed
// from the catalog at once, so a catalog without enough deals is refused with the reason.
async function createForm() {
  const games = await api.games();
  const error = alertLine("create-error");
  const number = (name, value, min, max, label) =>
    h("label", { class: "field" }, h("span", {}, label), h("input", { name, type: "number", value, min, max, required: true, inputmode: "numeric" }));
  const gameSelect = h("select", { name: "game", id: "create-game" }, games.map((game) => h("option", { value: game.name }, game.title)));
  const options = h("div", { class: "options" });
  const drawOptions = () => {
    const game = games.find((g) => g.name === gameSelect.value);
    options.replaceChildren(...(game?.options ?? []).map((option) => h("label", { class: "field" }, h("span", {}, optionWords(game, option.name)?.label ?? option.name),
      h("select", { name: `option:${option.name}` }, option.values.map((value) =>
        h("option", { value: JSON.stringify(value), selected: value === option.default }, valueWords(game, option.name, value)?.label ?? String(value)))))));
  };
  gameSelect.addEventListener("change", drawOptions);
  drawOptions();
  const tier = number("tier", 5, 1, 10, "Tier (1 easiest, 10 hardest)");
  const policy = h("select", { name: "policy", id: "create-policy" },
    h("option", { value: "shared" }, "One deal, the same for everyone"),
    h("option", { value: "tier" }, "One deal of a tier for each attempt"));
  const showTier = () => { tier.hidden = policy.value !== "tier"; };
  policy.addEventListener("change", showTier);
  showTier();
  const submit = h("button", { type: "submit" }, "Create");
  const form = h("form", { id: "create", class: "card-form", "aria-labelledby": "create-title" },
    h("h3", { id: "create-title" }, "New tournament (operators)"),
    h("label", { class: "field" }, h("span", {}, "Name"), h("input", { name: "name", id: "create-name", required: true, maxlength: 64 })),
    h("div", { class: "columns" },
      h("label", { class: "field" }, h("span", {}, "Game"), gameSelect), options,
      h("label", { class: "field" }, h("span", {}, "Deals"), policy), tier,
      number("clock", "", 10, 3600, "Clock, seconds an attempt"),
      number("attempts", 1, 1, 100, "Attempts per player"),
      number("max_entrants", 100, 1, 100000, "Most entrants"),
      number("opens_in", 0, 0, 525600, "Opens in (minutes)"),
      number("minutes", 60, 1, 525600, "Runs for (minutes)")),
    h("p", { class: "help" }, "Every deal is claimed from the server's catalog of certified deals at once, and its SHA-256 commitment published."),
    submit, error);
  form.querySelector("[name=clock]").required = false;
  form.querySelector("[name=clock]").placeholder = "the game's own";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const variant = {};
    for (const [key, value] of data.entries()) if (key.startsWith("option:")) variant[key.slice(7)] = JSON.parse(value);
    const opens = Date.now() / 1000 + Number(data.get("opens_in")) * 60;
    const request = {
      name: data.get("name"),
      game: data.get("game"),
      variant,
      policy: data.get("policy"),
      tier: data.get("policy") === "tier" ? Number(data.get("tier")) : null,
      opens_at: opens,
      closes_at: opens + Number(data.get("minutes")) * 60,
      attempts: Number(data.get("attempts")),
      max_entrants: Number(data.get("max_entrants")),
      clock: data.get("clock") ? Number(data.get("clock")) : null,
    };
    submit.disabled = true;
    error.textContent = "";
    try {
      const made = await tournaments.create(request);
      location.hash = `#/tournaments/${made.id}`;
    } catch (refusal) {
      error.textContent = refusal.message;
    } finally {
      submit.disabled = false;
    }
  });
  return h("details", { class: "create", id: "create-details" }, h("summary", {}, "New tournament"), form);
}

/** #/tournaments/ID: the tournament, its standings, and the verification once closed. */
export async function tournamentPage(page, id) {
  let t;
  try {
    t = await tournaments.read(id);
  } catch (error) {
    if (error.status === 404) {
      notFound(page, `No tournament ${id}`, "There is no tournament with that id: the link may be mistyped or cut short, or of another server.",
        [["#/tournaments", "See the list of tournaments"], LOBBY_LINK]);
    } else {
      page.append(h("h2", {}, "Tournament"), h("p", { class: "error", role: "alert" }, `This tournament could not be read: ${error.message}`),
        h("a", { href: "#/tournaments" }, "All tournaments"));
    }
    return;
  }
  if (t.status !== "finished") keepCommitment(t);
  const clock = h("span", { class: "clock", id: "tournament-clock", role: "timer", "aria-live": "off" });
  const clockLine = h("p", { class: "clock-line" });
  const entry = h("section", { id: "entry", "aria-labelledby": "entry-title" });
  const standings = h("section", { id: "standings", "aria-labelledby": "standings-title" });
  page.append(
    h("p", { class: "crumbs" }, h("a", { href: "#/tournaments" }, "All tournaments")),
    h("h2", {}, t.name),
    h("p", { class: `status status-${t.status}`, id: "tournament-status" }, STATUS[t.status]),
    clockLine,
    entry,
    standings,
    h("section", { id: "tournament-rules", "aria-labelledby": "tournament-rules-title" },
      h("h3", { id: "tournament-rules-title" }, "Rules"),
      facts([
        ["Game", gameWords(t)],
        ["Deals", policyWords(t)],
        ["Clock", `${duration(t.clock)} an attempt`],
        ["Attempts", `${t.attempts} per player; each counts once dealt, the best counts`],
        ["Entrants", h("span", { id: "entrants" }, `${t.entrants} of ${t.max_entrants}`)],
        ["Opens", timeElement(t.opens_at)],
        ["Closes", timeElement(t.closes_at)],
        ["Commitment", h("code", { class: "hash", id: "commitment" }, t.commitment)],
      ]),
      h("p", { class: "help" }, "The commitment is the SHA-256 of the tournament's deals, rules and a secret salt, published before anyone plays; after the close the salt and deals are revealed so anyone can check that the deals were fixed in advance.")));

  // The clock: to the opening, then to the close; at either, the page is read again.
  let timer = null;
  let leave = null; // the page drawn again after a change of status, to stop in its turn
  let standingsView = { stop() {}, entered() {} };
  const drawClock = () => {
    const now = Date.now() / 1000;
    const target = t.status === "open" ? t.opens_at : t.status === "running" ? t.closes_at : null;
    if (target === null) {
      // how it closed, as the publication records it: early (by whom), or cancelled
      const closing = t.closing ?? {};
      const how = [];
      if (closing.early) how.push(` early, by ${closing.by ?? "an operator"}: games running then ended there`);
      if (closing.cancelled) how.push(". It was cancelled: nobody is ranked");
      clockLine.replaceChildren(`Closed `, timeElement(t.closes_at), ...how, ".");
      return;
    }
    clock.textContent = duration(target - now);
    clock.setAttribute("aria-label", `${t.status === "open" ? "opens in" : "closes in"} ${clock.textContent}`);
    clockLine.replaceChildren(t.status === "open" ? "Opens in " : "Closes in ", clock);
    if (target - now <= 0) refresh();
  };
  // (a reading still on its way when the player joined or played is never drawn over what
  // came after)
  const read = inOrder();
  const refresh = async () => {
    try {
      const fresh = await read(() => tournaments.read(id));
      if (!fresh) return;
      const changed = fresh.status !== t.status;
      // the entry is drawn again only when it changed: a redraw would take the keyboard's
      // focus off its buttons
      const same = JSON.stringify(fresh.me) === JSON.stringify(t.me) && fresh.entrants === t.entrants;
      t = fresh;
      if (changed) {
        // a status changes what the whole page shows: draw it again
        stop();
        page.replaceChildren();
        leave = await tournamentPage(page, id);
        return;
      }
      if (!same) {
        drawEntry(entry, t, refresh);
        standingsView.entered(t);
      }
      page.querySelector("#entrants")?.replaceChildren(`${t.entrants} of ${t.max_entrants}`);
    } catch (_) { /* the next tick tries again */ }
  };
  drawClock();
  timer = setInterval(drawClock, 1000);
  // While it is open or running, the entrants and one's own entry are read again now and
  // then (another device may have played an attempt).
  const reread = t.status === "finished" ? null : setInterval(() => { if (!document.hidden) refresh(); }, LIVE * 2);
  drawEntry(entry, t, refresh);
  standingsView = await drawStandings(standings, t);
  let verification = null;
  if (t.status === "finished") {
    verification = h("section", { id: "verification", "aria-labelledby": "verification-title" });
    page.append(verification);
    await drawVerification(verification, t);
  }
  const stop = () => {
    clearInterval(timer);
    clearInterval(reread);
    standingsView.stop();
  };
  return () => {
    stop();
    leave?.();
  };
}

// The player's own part: join, attempts left, play the next attempt or go back to one.
function drawEntry(section, t, refresh) {
  const player = currentPlayer();
  const error = alertLine("entry-error");
  section.replaceChildren(h("h3", { id: "entry-title", tabindex: -1 }, "Your entry"));
  if (!player) {
    if (t.status === "finished") section.append(h("p", {}, "The tournament has closed."));
    else if (t.entrants >= t.max_entrants) section.append(h("p", {}, "The tournament is full."));
    else section.append(h("p", {}, h("a", { href: "#/account" }, "Sign in or create an account"), " to join."));
    return;
  }
  const me = t.me ?? { joined: false, attempts_used: 0, attempts_left: t.attempts, best_score: null, running: null };
  const act = (label, id, action) => h("button", { type: "button", id, onclick: async (event) => {
    event.target.disabled = true;
    error.textContent = "";
    const button = event.target;
    try {
      await action();
    } catch (refusal) {
      error.textContent = refusal.message;
    }
    button.disabled = false;
    // the entry drawn again without this button (joined, say): the keyboard's focus goes
    // to what comes next there
    if (!button.isConnected && section.isConnected) section.querySelector("button, h3")?.focus();
  } }, label);
  const parts = [];
  if (!me.joined) {
    if (t.status === "finished") parts.push(h("p", {}, "You did not enter this tournament."));
    else if (t.entrants >= t.max_entrants) parts.push(h("p", {}, "The tournament is full."));
    else parts.push(h("p", {}, "You have not joined yet."), act("Join", "tournament-join", async () => {
      await tournaments.join(t.id);
      await refresh();
    }));
  } else {
    parts.push(facts([
      ["Attempts left", `${me.attempts_left} of ${t.attempts}`],
      ["Your best score", me.best_score ?? "no finished attempt yet"],
    ], { id: "my-entry" }));
    if (me.running && t.status === "running") {
      parts.push(act("Back to your attempt", "tournament-resume", async () => play(await api.read(me.running), null, t, me.attempts_used)));
    } else if (t.status === "running" && me.attempts_left > 0) {
      parts.push(act(`Play attempt ${me.attempts_used + 1}`, "tournament-play", async () => {
        const answer = await tournaments.attempt(t.id);
        play(answer, answer.token, t, me.attempts_used + 1);
      }));
      parts.push(h("p", { class: "help" }, `An attempt counts as soon as it is dealt: ${duration(t.clock)} on the clock, no re-deal.`));
    } else if (t.status === "open") {
      parts.push(h("p", {}, "You are in. Attempts can be played once the tournament opens."));
    }
  }
  section.append(...parts, error);
  if (player.operator && t.status !== "finished") {
    section.append(h("div", { class: "operator" }, h("h4", {}, "Operator"),
      act("Close the tournament now", "tournament-close", async () => {
        if (!(await ask(`Close ${t.name} now? Games still running end with what they have.`, "Close it", { no: "Keep it open" }))) return;
        await tournaments.close(t.id);
        await refresh();
      }),
      act("Cancel the tournament", "tournament-cancel", async () => {
        if (!(await ask(`Cancel ${t.name}? It closes now and nobody is ranked; its deals are still published.`, "Cancel it", { no: "Keep it" }))) return;
        await tournaments.cancel(t.id);
        await refresh();
      })));
  }
}

// Open a tournament attempt on the card table (the table listens for patience:play); its
// header names the tournament and the attempt (`attempt`, counted from 1).
function play(answer, token, t, attempt) {
  sessionStorage.setItem("patience-tournament", JSON.stringify({ tournament: t.id, game: answer.id }));
  watchClose(t, answer.id);
  const request = { game: answer.game, variant: answer.variant, mode: answer.mode, tournament: { id: t.id, name: t.name, attempt } };
  document.dispatchEvent(new CustomEvent("patience:play", { detail: { answer, token, request } }));
  // the table's own entry in the history (app.js): Back goes to this page again
  if (location.hash) history.pushState({ table: answer.id }, "", location.pathname + location.search);
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

// While an attempt is on the table, its tournament is watched: the moment it closes (at its
// closing time, or closed early by an operator), the game is read again, which the close
// has ended, and the result says why.
let watching = null; // { timer, until, game, closed }

function watchClose(t, game) {
  clearInterval(watching?.timer);
  clearTimeout(watching?.until);
  const state = { game, closed: false };
  const closed = () => {
    if (state.closed) return;
    state.closed = true;
    clearInterval(state.timer);
    clearTimeout(state.until);
    document.dispatchEvent(new Event("patience:refresh"));
  };
  state.timer = setInterval(async () => {
    const held = JSON.parse(sessionStorage.getItem("patience-tournament") ?? "null");
    if (held?.game !== game) { clearInterval(state.timer); return; }
    try {
      const fresh = await tournaments.read(t.id);
      if (fresh.status === "finished") closed();
    } catch (_) { /* the next tick asks again */ }
  }, 2000);
  state.until = setTimeout(closed, Math.max(0, t.closes_at * 1000 - Date.now()) + 300);
  watching = state;
}

// An attempt put on the table another way than by this page's Play (the lobby's Continue,
// Back to its table's entry, a reload) is watched from then on as a fresh one is: told at
// once when its tournament has closed, or the moment it does.
document.addEventListener("patience:table", async (event) => {
  const { id, request } = event.detail ?? {};
  const tournament = request?.tournament;
  if (!tournament?.id) { // another game: the attempt left is watched again when it is back
    if (watching && watching.game !== id) { clearInterval(watching.timer); clearTimeout(watching.until); watching = null; }
    return;
  }
  if (watching?.game === id && !watching.closed) return;
  sessionStorage.setItem("patience-tournament", JSON.stringify({ tournament: tournament.id, game: id }));
  let t;
  try {
    t = await tournaments.read(tournament.id);
  } catch (_) {
    return; // the server is away: the game's own clock and its next move still tell
  }
  const held = JSON.parse(sessionStorage.getItem("patience-tournament") ?? "null");
  if (held?.game === id) watchClose(t, id);
});

// When a tournament attempt ends, the result offers the way back to the tournament's page
// first, and no "New game": it would deal an ordinary game of the same kind, no attempt of
// the tournament. The next attempt is dealt from the tournament's page, which shows the
// attempts left and what an attempt costs before the player deals it.
document.addEventListener("patience:ended", (event) => {
  document.getElementById("to-tournament")?.remove();
  let attempt = null;
  try {
    attempt = JSON.parse(sessionStorage.getItem("patience-tournament") ?? "null");
  } catch (_) { /* nothing kept */ }
  if (!attempt || attempt.game !== event.detail?.id) return;
  const buttons = document.querySelector("#result .buttons");
  if (!buttons) return;
  const again = document.getElementById("again");
  if (again) again.hidden = true; // (the next result shows it again: result.js)
  if (watching?.game === event.detail.id) {
    clearInterval(watching.timer);
    clearTimeout(watching.until);
    // the server says "closed" for an attempt the close ended; "timeout" came from a server
    // that did not yet tell the two apart
    const reason = event.detail.result?.reason;
    if (reason === "closed" || (watching.closed && reason === "timeout")) {
      document.getElementById("result-title").textContent = "The tournament has closed";
      document.getElementById("result-reason").textContent = "Your attempt ends here, with its score as it stood.";
    }
  }
  const back = h("button", { type: "button", id: "to-tournament", onclick: () => {
    sessionStorage.removeItem("patience-tournament");
    document.getElementById("result").hidden = true;
    location.hash = `#/tournaments/${attempt.tournament}`;
  } }, "Back to the tournament");
  buttons.prepend(back);
  back.focus();
});

// -- standings ---------------------------------------------------------------------------

// The standings' pages, live while the tournament runs; "Around me" (a signed-in player's)
// finds a place only with an entry: without one it stays in the row, disabled, and says
// why (read by a screen reader as its description), until the player joins. Resolves to
// { stop, entered(t) }: entered with the tournament read again, whose entry may be new.
async function drawStandings(section, t) {
  let offset = 0;
  let around = false;
  const body = h("tbody", {});
  const summary = h("p", { id: "standings-summary", "aria-live": "polite" });
  const previous = h("button", { type: "button", id: "standings-previous" }, "Previous");
  const next = h("button", { type: "button", id: "standings-next" }, "Next");
  const aroundMe = h("button", { type: "button", id: "standings-me", "aria-pressed": "false", "aria-describedby": "standings-me-why" }, "Around me");
  const why = h("span", { id: "standings-me-why", class: "sr-only" });
  const entered = (read) => {
    const joined = Boolean(read.me?.joined);
    const reason = joined ? "" : read.status === "finished" ? "You did not enter this tournament: you have no place in it" : "Join the tournament to see your place";
    why.textContent = reason;
    if (joined) {
      aroundMe.removeAttribute("aria-disabled");
      aroundMe.removeAttribute("title");
    } else {
      aroundMe.setAttribute("aria-disabled", "true");
      aroundMe.title = reason;
    }
  };
  entered(t);
  const top = h("button", { type: "button", id: "standings-top" }, "Top");
  const error = alertLine("standings-error");
  const me = currentPlayer();
  const finished = t.status === "finished";
  let replays = new Map(); // player -> their best game, once closed
  if (finished) {
    try {
      for (const game of (await tournaments.games(t.id)).games) if (!replays.has(game.name)) replays.set(game.name, game.game);
    } catch (_) { replays = new Map(); }
  }
  const columns = ["Rank", "Player", "Score", "Time used", "Attempts", ...(finished ? ["Replay"] : [])];
  const narrowOnly = (name) => (name === "Attempts" ? "wide-column" : null); // (a phone leaves it out)
  section.append(
    h("h3", { id: "standings-title" }, t.status === "running" ? "Standings (live)" : "Standings"),
    h("p", { class: "rule", id: "ranking-rule" }, h("strong", {}, "How players are ranked: "), t.rule),
    h("table", { class: "standings" },
      h("caption", { class: "sr-only" }, `Standings of ${t.name}`),
      h("thead", {}, h("tr", {}, columns.map((name) => h("th", { scope: "col", class: narrowOnly(name) }, name)))),
      body),
    summary,
    h("div", { class: "pager" }, top, previous, next, ...(me ? [aroundMe, why] : [])),
    error);
  // (a live reading still on its way when another page is asked for, Next, Top..., is
  // never drawn over it)
  const read = inOrder();
  async function load() {
    try {
      const answer = await read(() => around ? tournaments.aroundMe(t.id) : tournaments.standings(t.id, offset, PAGE));
      if (!answer) return;
      body.replaceChildren(...answer.entries.map((row) => h("tr", { class: me && row.name === me.name ? "mine" : null, "aria-current": me && row.name === me.name ? "true" : null },
        h("td", { "data-label": "Rank" }, row.rank),
        h("th", { scope: "row", "data-label": "Player" }, row.name),
        h("td", { "data-label": "Score" }, row.score),
        h("td", { "data-label": "Time used" }, timePlayed(row.elapsed)),
        h("td", { "data-label": "Attempts", class: "wide-column" }, row.attempts),
        finished ? h("td", { "data-label": "Replay" }, replays.has(row.name)
          ? h("a", { href: `#/watch/${replays.get(row.name)}`, "aria-label": `Replay ${row.name}'s best game` }, "Replay") : "") : null)));
      const none = answer.cancelled ? "The tournament was cancelled: nobody is ranked." : around ? "You have no finished attempt yet." : "No finished attempt yet.";
      if (!answer.entries.length) body.append(h("tr", {}, h("td", { colspan: columns.length }, none)));
      if (around) summary.textContent = answer.me ? `You are ranked ${answer.me}.` : "";
      else summary.textContent = answer.total ? `Places ${Math.min(answer.total, offset + 1)} to ${Math.min(answer.total, offset + PAGE)} of ${answer.total} with a finished attempt.` : "";
      previous.disabled = around || offset === 0;
      next.disabled = around || offset + PAGE >= (answer.total ?? 0);
      top.disabled = !around && offset === 0;
      aroundMe.setAttribute("aria-pressed", String(around));
      error.textContent = "";
    } catch (refusal) {
      error.textContent = refusal.message;
    }
  }
  previous.addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
  next.addEventListener("click", () => { offset += PAGE; load(); });
  top.addEventListener("click", () => { around = false; offset = 0; load(); });
  aroundMe.addEventListener("click", () => {
    if (aroundMe.getAttribute("aria-disabled") === "true") return; // (no entry: no place)
    around = true;
    load();
  });
  await load();
  // Live while the tournament runs (not while the page is hidden).
  const live = t.status === "running" ? setInterval(() => { if (!document.hidden) load(); }, LIVE) : null;
  return { stop: () => clearInterval(live), entered };
}

// -- verification ------------------------------------------------------------------------

// The commitment as this browser saw it before the close: the check after the close is
// worth something only against a copy kept from before.
function keepCommitment(t) {
  try {
    localStorage.setItem(`patience-commitment:${t.id}`, t.commitment);
  } catch (_) { /* private mode: nothing kept */ }
}

/** The canonical text of a JSON value (docs/fairness.md): keys sorted at every level, no
 * whitespace, non-ASCII characters as themselves. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

const better = (a, b) => a.score > b.score || (a.score === b.score && (a.elapsed < b.elapsed || (a.elapsed === b.elapsed && a.finished_at < b.finished_at)));
const same = (a, b) => a.score === b.score && a.elapsed === b.elapsed && a.finished_at === b.finished_at;

// Each entry's best attempt from its published attempts, and the ranks those give.
function ranksOf(entries) {
  const bests = entries.map((entry) => entry.attempts.reduce((best, attempt) => (!best || better(attempt, best) ? attempt : best), null));
  return {
    bests,
    ranks: bests.map((mine) => (mine ? 1 + bests.filter((other) => other && !same(other, mine) && better(other, mine)).length : null)),
  };
}

async function drawVerification(section, t) {
  section.append(h("h3", { id: "verification-title" }, "Verification"));
  let published;
  try {
    published = await tournaments.verification(t.id);
  } catch (error) {
    section.append(h("p", { class: "error", role: "alert" }, error.message));
    return;
  }
  const checks = [];
  const check = (ok, text) => checks.push(h("li", { class: ok ? "pass" : "fail", "data-ok": String(ok) }, h("span", { class: "mark", "aria-hidden": "true" }, ok ? "\u2713" : "\u2717"), h("span", { class: "sr-only" }, ok ? "Passed: " : "Failed: "), text));

  // 1. the commitment: SHA-256 of the canonical document
  const text = canonical(published.document);
  let digest = null;
  if (globalThis.crypto?.subtle) digest = await sha256Hex(text);
  if (digest === null) check(false, "This browser cannot compute SHA-256 here (the page is not served over HTTPS); run patience tournament verify instead.");
  else check(digest === published.commitment, `SHA-256 of the revealed document is ${digest}, ${digest === published.commitment ? "equal to" : "NOT equal to"} the published commitment.`);
  check(published.commitment === t.commitment, "The commitment published now is the one on the tournament's page.");
  const seen = localStorage.getItem(`patience-commitment:${t.id}`);
  if (seen) check(seen === published.commitment, "The commitment is the one this browser saw before the close.");
  // 2. the document is this tournament's
  const d = published.document;
  check(d.tournament === t.id && d.game === t.game && canonical(d.variant) === canonical(t.variant) && d.policy === t.policy && d.attempts === t.attempts,
    "The revealed document names this tournament, its game, variant, deal policy and attempts.");
  // 3. every attempt is of a committed deal and of this game; the ranks follow the rule
  const attempts = published.entries.flatMap((entry) => entry.attempts);
  check(attempts.every((a) => a.deal >= 0 && a.deal < d.deals.length && a.record.game === d.game && canonical(a.record.variant) === canonical(d.variant)),
    `Every one of the ${attempts.length} published attempts names a committed deal and is a game of ${t.title}.`);
  const { bests, ranks } = ranksOf(published.entries);
  const ranked = published.entries.every((entry, index) => ranks[index] === entry.rank && (bests[index]?.score ?? null) === entry.score);
  check(ranked, "Each entrant's best attempt and rank follow from the published scores, times and finishing times by the rule.");
  const passed = checks.every((item) => item.dataset.ok === "true");

  section.append(
    h("p", { id: "verification-result", class: passed ? "pass" : "fail", role: "status" },
      passed ? "Verified in this browser." : "Verification FAILED in this browser."),
    h("ul", { class: "checks", id: "checks" }, checks),
    h("p", {}, "What this page cannot check: that each seed deals the cards of its game record and is of its committed tier (that needs the seeded shuffle and the rating), and that each record replays, move by move, to its published score. ",
      h("code", {}, `patience tournament verify ${location.origin}/api/tournaments/${t.id}/verification`), " checks all of it."),
    h("details", { id: "check-it-yourself" }, h("summary", {}, "How to check it with code of your own"),
      h("ol", {},
        h("li", {}, "Download the publication below: a JSON object with the revealed document, its commitment and every entrant's attempts with their game records."),
        h("li", {}, "Write the document as canonical JSON (keys sorted at every level, no spaces, non-ASCII characters as themselves) and take its SHA-256: it must equal the commitment published before the tournament opened (kept by this browser, above, if you saw it then)."),
        h("li", {}, "Deal each committed seed with the game's seeded shuffle of the named shuffle version and compare it with the deal of each attempt's record; rate it as the catalog did (in full, or by the rating model the deal names) and compare its tier. First rate the reference deal in full: if your figures differ from the reference rating below, your rater is not the one that made the document, and its tiers cannot judge these."),
        h("li", {}, "Replay each record move by move by the game's rules: its score must be the published one, and the ranks must follow from the scores, times and finishing times by the ranking rule."))),
    h("h4", {}, "Revealed"),
    facts([
      ["Salt", h("code", { class: "hash", id: "salt" }, d.salt)],
      ["Shuffle version", d.shuffle_version],
      ["Rating version", d.rating_version],
      ["Made with", d.patience ? `patience ${d.patience}` : "not recorded"],
      ["Reference rating", d.rating_witness
        ? `seed ${d.rating_witness.seed}: ${d.rating_witness.nodes} nodes, ${d.rating_witness.moves} moves, score ${d.rating_witness.score}, tier ${d.rating_witness.tier ?? "none"}`
        : "none"],
    ]),
    h("table", { class: "deals", id: "deals" },
      h("caption", {}, "Committed deals"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Deal"), h("th", { scope: "col" }, "Seed"), h("th", { scope: "col" }, "Tier"), h("th", { scope: "col" }, "Rated by"))),
      h("tbody", {}, d.deals.slice(0, 50).map((deal, index) => h("tr", {}, h("td", {}, index), h("td", { class: "seed" }, deal.seed), h("td", {}, deal.tier ?? "unrated"),
        h("td", {}, deal.tier == null ? "" : deal.model ? `model ${deal.model}` : "full rating"))))),
    ...(d.deals.length > 50 ? [h("p", { class: "help" }, `The first 50 of ${d.deals.length} deals; every one is in the publication.`)] : []),
    h("details", {}, h("summary", {}, "The canonical document that was hashed"), h("pre", { class: "document", tabindex: 0 }, text)),
    h("p", {}, h("a", { href: `/api/tournaments/${t.id}/verification`, download: `tournament-${t.id}.json` }, "Download the publication")));
}
