// The lobby: Continue (the games in progress, their clocks counting down), today's daily
// deals, and a new game: each game with a picture of its layout, its variants in words,
// the mode (timed, practice, relaxed), the difficulty and a deal number.

import { accounts, api, currentPlayer, daily, whoAmI } from "./api.js";
import { dailyResultWords, dealLabel, h, streakWords, variantWords, writeText } from "./dom.js";
import { optionWords, valueWords } from "./games.js";
import { gamePicture } from "./pictures.js";
import { forgetGame, keepGame, savedGames } from "./saved.js";

const $ = (id) => document.getElementById(id);

let games = [];
let counting = null; // the timer of the Continue clocks
let hooks = null; // { resume(saved, answer), startDaily(game, variant) }

/** Set what the lobby's buttons do. */
export function lobbyHooks(given) {
  hooks = given;
}

/** Draw the lobby for `list` (GET /api/games), keeping the player's choices. */
export async function drawLobby(list) {
  games = list;
  const form = new FormData($("new-game"));
  const chosen = form.get("game") ?? games[0]?.name;
  const options = [...form.entries()].filter(([key]) => key.startsWith("option:"));
  const choice = $("game-choice");
  choice.querySelectorAll("label").forEach((label) => label.remove());
  for (const game of games) {
    const input = h("input", { type: "radio", name: "game", value: game.name, id: `game-${game.name}` });
    input.checked = game.name === chosen;
    choice.append(h("label", { class: "game-card", for: `game-${game.name}` },
      input, gamePicture(game.layout?.picture),
      h("span", { class: "game-name" }, game.title),
      h("span", { class: "game-line" }, game.layout?.words.one_line ?? "")));
  }
  renderOptions();
  for (const [key, value] of options) {
    const radio = document.querySelector(`#options input[name="${key}"][value='${value}']`);
    if (radio) radio.checked = true;
  }
  updateForm();
  listResumable();
  drawDaily();
}

/** The options of the chosen game, as radio buttons in words. */
export function renderOptions() {
  const game = chosenGame();
  const options = $("options");
  options.replaceChildren();
  for (const option of game?.options ?? []) {
    const group = h("fieldset", { class: "variant" }, h("legend", {}, optionWords(game, option.name)?.label ?? option.name));
    for (const value of option.values) {
      const words = valueWords(game, option.name, value)?.label ?? `${option.name} ${value}`;
      const input = h("input", { type: "radio", name: `option:${option.name}`, value: JSON.stringify(value) });
      input.checked = value === option.default;
      group.append(h("label", {}, input, ` ${words}`));
    }
    options.append(group);
  }
  options.hidden = !options.children.length;
  renderNumberings(game);
}

/** A field for each numbering of the chosen game's deals players know from elsewhere
 * (`numberings` in GET /api/games): "Microsoft deal number", its range said. */
function renderNumberings(game) {
  const rows = $("numbering-rows");
  rows.replaceChildren(...(game?.numberings ?? []).map((numbering) => {
    const range = `${numbering.first.toLocaleString("en")} to ${numbering.last.toLocaleString("en")}`;
    const id = `numbering-${numbering.name}`;
    return h("div", { class: "numbering-row" },
      h("label", { for: id }, `${numbering.title} number`),
      " ",
      h("input", { id, "data-numbering": numbering.name, inputmode: "numeric", autocomplete: "off", placeholder: range, "aria-describedby": `${id}-help` }),
      h("p", { class: "help", id: `${id}-help` }, `${numbering.rule}: the same deal as in other programs, for practice. Leave it empty for a deal of ours.`));
  }));
}

/** The numbered deal the lobby's fields ask for: `{ ok, numbered, title }` (numbered
 * undefined when every field is empty), or `{ ok: false, error, input }` for a number
 * that is not one of its numbering's. */
export function chosenNumbered() {
  const game = chosenGame();
  for (const numbering of game?.numberings ?? []) {
    const input = document.querySelector(`#numbering-rows input[data-numbering="${numbering.name}"]`);
    const typed = (input?.value ?? "").replace(/[\s\u202f,]/g, "");
    if (!typed) continue;
    if (!/^\d+$/.test(typed) || BigInt(typed) < BigInt(numbering.first) || BigInt(typed) > BigInt(numbering.last)) {
      return { ok: false, input, error: `${numbering.rule}, not “${input.value.trim().slice(0, 20)}”.` };
    }
    return { ok: true, title: numbering.title, numbered: { numbering: numbering.name, number: typed } };
  }
  return { ok: true };
}

export function chosenGame() {
  const name = new FormData($("new-game")).get("game");
  return games.find((g) => g.name === name);
}

export function chosenVariant() {
  const variant = {};
  for (const [key, value] of new FormData($("new-game")).entries()) {
    if (key.startsWith("option:")) variant[key.slice(7)] = JSON.parse(value);
  }
  return variant;
}

const same = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);

/** Show what the chosen game, variant and mode offer (difficulty for rated deals, a deal
 * number for practice and relaxed games) and how to play it. */
export function updateForm() {
  const form = new FormData($("new-game"));
  const game = chosenGame();
  const variant = chosenVariant();
  const rated = (game?.rated_variants ?? []).some((v) => same(v, variant));
  $("difficulty-row").hidden = !rated;
  if (!rated) document.querySelector('input[name="difficulty"][value=""]').checked = true;
  $("seed-row").hidden = form.get("mode") === "timed" || Boolean(form.get("difficulty"));
  $("numbering-rows").hidden = $("seed-row").hidden || !$("numbering-rows").children.length;
  $("rules-title").textContent = game ? game.title : "";
  const lines = [...(game?.layout?.words.rules ?? [])];
  for (const [key, value] of Object.entries(variant)) {
    const line = valueWords(game, key, value)?.rule;
    if (line) lines.push(line);
  }
  $("rules").replaceChildren(...lines.map((line) => h("li", {}, line)));
}

// -- Continue ----------------------------------------------------------------------------

function left(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

const RESUMABLE = 3; // games offered at most

const counted = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** A game in progress told apart from others of its game: its deal as the table's header
 * names it ("Microsoft deal 617", "Deal 42", a timed deal's "Game #A7K-93Q") and how far it
 * got ("12 cards home, 40 moves"). */
export function progressWords(answer) {
  const home = answer.cards_home ?? 0;
  const moves = answer.move_count ?? 0;
  const far = home ? `${counted(home, "card")} home, ${counted(moves, "move")}` : counted(moves, "move");
  return [dealLabel(answer), far].filter(Boolean).join(" · ");
}

/** The games in progress: those kept on this browser, and a signed-in player's running on
 * any device (another browser's, or this one's after its storage was cleared), the three
 * latest: each a button, the first a large Continue; a timed game's clock counts down here
 * as at the table, and a game whose time ran out leaves the list. */
export async function listResumable() {
  clearInterval(counting);
  const list = $("resume-list");
  const rows = [];
  for (const saved of savedGames()) {
    if (rows.length >= RESUMABLE) break;
    let answer;
    try {
      answer = await api.read(saved.id, saved.token);
    } catch (_) {
      forgetGame(saved.id);
      continue;
    }
    if (answer.outcome) { forgetGame(saved.id); continue; }
    rows.push({ saved, answer, at: performance.now() });
  }
  if (rows.length < RESUMABLE && (await whoAmI())) {
    let running = [];
    try {
      running = (await accounts.running()).games;
    } catch (_) { /* signed out meanwhile, or the server is away: this browser's games */ }
    for (const answer of running) {
      if (rows.length >= RESUMABLE) break;
      if (rows.some((row) => row.saved.id === answer.id)) continue;
      const request = { game: answer.game, variant: answer.variant, mode: answer.mode };
      if (answer.daily) request.daily = true;
      if (answer.tournament) request.tournament = answer.tournament;
      // a signed-in player's game needs no token: the session holds it
      rows.push({ saved: { id: answer.id, token: null, request }, answer, at: performance.now(), elsewhere: true });
    }
  }
  list.replaceChildren();
  for (const [index, row] of rows.entries()) {
    const { saved, answer } = row;
    const time = h("span", { class: "left" });
    const title = `${answer.title}${variantWords(answer.variant) ? `, ${variantWords(answer.variant)}` : ""}`;
    const kind = saved.request?.tournament ? `${saved.request.tournament.name}, attempt ${saved.request.tournament.attempt}`
      : saved.request?.daily ? "daily deal" : answer.mode;
    const button = h("button", { type: "button", class: index === 0 ? "continue" : "", "data-id": answer.id },
      h("span", { class: "continue-word" }, index === 0 ? "Continue" : "Resume"),
      h("span", { class: "continue-title" }, `${title} (${kind})`), time,
      h("span", { class: "continue-deal" }, progressWords(answer)));
    button.addEventListener("click", async () => {
      if (!row.elsewhere) { hooks?.resume(saved, answer); return; }
      // listed by the server without its board: read the game whole, and keep it here
      button.disabled = true;
      try {
        const whole = await api.read(saved.id, null);
        keepGame(saved);
        hooks?.resume(saved, whole);
      } catch (error) {
        button.disabled = false;
        $("lobby-error").textContent = error.message;
      }
    });
    row.time = time;
    row.button = button;
    list.append(h("li", {}, button));
  }
  $("resume").hidden = !rows.length;
  // (each row's time written only when its text changes: the tick comes four times a second)
  const tick = () => {
    for (const row of rows) {
      const { answer } = row;
      if (answer.mode === "relaxed") { writeText(row.time, "no clock"); continue; }
      const remaining = answer.clock.remaining - (answer.clock.running ? (performance.now() - row.at) / 1000 : 0);
      if (remaining <= 0) {
        writeText(row.time, "time is up");
        row.button.disabled = true;
        row.button.closest("li")?.classList.add("expired");
        forgetGame(row.saved.id);
      } else writeText(row.time, `${left(remaining)} left`);
    }
  };
  tick();
  counting = setInterval(() => {
    if ($("lobby").hidden) { clearInterval(counting); return; }
    tick();
  }, 250);
}

// -- the daily deals -----------------------------------------------------------------------

/** Today's deals, one a game and variant: play, continue, or the score with the standing. */
export async function drawDaily() {
  const section = $("daily");
  let today;
  try {
    today = await daily.today();
  } catch (_) {
    section.hidden = true;
    return;
  }
  // asked, not read: on a fresh load the lobby is drawn before the server has said who
  // is signed in, and a player must not be offered a guest's "Sign in to play"
  await whoAmI();
  const player = currentPlayer(); // as now: a sign-in since the first answer counts
  const items = today.deals.map((deal) => {
    const name = `${deal.title}${variantWords(deal.variant) ? `, ${variantWords(deal.variant)}` : ""}`;
    const link = `#/daily/${deal.game}/${encodeURIComponent(JSON.stringify(deal.variant))}`;
    let action;
    if (deal.me?.running) action = h("button", { type: "button", class: "small", "aria-label": `Continue: ${name}`, onclick: () => hooks?.startDaily(deal.game, deal.variant) }, "Continue");
    else if (deal.me) action = h("span", { class: "played" }, deal.me.won ? "Won \u2713" : "Played");
    // a guest signs in first: each player plays a daily deal once, for the standing
    else if (!player) action = h("a", { class: "small sign-in-to-play", href: "#/account", "aria-label": `Sign in to play: ${name}` }, "Sign in to play");
    else action = h("button", { type: "button", class: "small", "data-daily": `${deal.game}:${JSON.stringify(deal.variant)}`, "aria-label": `Play: ${name}`, onclick: () => hooks?.startDaily(deal.game, deal.variant) }, "Play");
    // the player's own game of it, finished: its score and time, and its rank in the standing
    const mine = deal.me && !deal.me.running ? h("span", { class: "daily-mine" }, dailyResultWords(deal.me)) : null;
    return h("li", { "data-game": deal.game }, h("span", { class: "daily-name" }, name),
      h("span", { class: "daily-count" }, deal.games ? `${deal.games} played` : ""),
      action, h("a", { href: link, class: "standing-link", "aria-label": `Standing of today's ${name}` }, "Standing"),
      ...(mine ? [mine] : []));
  });
  const left = Math.max(0, Math.round(today.ends_at - Date.now() / 1000));
  const hours = Math.floor(left / 3600);
  const until = hours ? `${hours} h ${String(Math.floor((left % 3600) / 60)).padStart(2, "0")} min` : `${Math.floor(left / 60)} min`;
  section.replaceChildren(
    h("h3", { id: "daily-title" }, "Today's deals"),
    h("p", { class: "help" }, `The same deal for everyone, on the clock; a new one in ${until}${player ? "" : ". Signed-in players play each once, for the standing"}. `,
      h("a", { href: "#/daily" }, "Yesterday's deals and their best games")),
    ...(today.streak ? [h("p", { class: "daily-streak", id: "lobby-streak" }, h("b", {}, streakWords(today.streak).head), streakWords(today.streak).rest)] : []),
    h("ul", { class: "daily-list" }, items));
  section.hidden = false;
}

