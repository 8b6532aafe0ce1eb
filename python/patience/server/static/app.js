// The browser client: the lobby (a new game, a game in progress, a deal by its link),
// the table (the board, its controls, the clock), and the result. The server referees
// everything: the client only draws the view it is sent.
//
// Other parts of a page may open a game here: dispatch `patience:play` on document with
// `detail = { answer, token }` (a fresh answer of POST /api/sessions or of a tournament's
// attempt). When a game ends, `patience:ended` is dispatched with `detail = answer`.

import { api, ApiError, SEED_WORDS } from "./api.js";
import { drawBoard, fitBoard } from "./board.js";
import { cardName } from "./cards.js";
import { attachInput } from "./input.js";
import { playOut } from "./playout.js";
import { dealLink, showResult } from "./result.js";
import { HELP_POINTER, HELP_TOUCH, RULES, VARIANT_RULES } from "./rules.js";
import { applyOptions, forgetGame, keepGame, loadOptions, savedGames } from "./saved.js";
import { variantWords } from "./dom.js";
import { moveWords, playedWords, reasonWords } from "./words.js";

const $ = (id) => document.getElementById(id);
let games = [];
let view = null; // the last answer of the server about the game on the table
let auth = null; // { id, token, request }
let clockBase = null; // { remaining, at, running }

// -- games in progress -------------------------------------------------------------------

async function listResumable() {
  const list = $("resume-list");
  list.replaceChildren();
  for (const saved of savedGames()) {
    if (list.children.length >= 3) break; // the three latest
    let answer;
    try {
      answer = await api.read(saved.id, saved.token);
    } catch (_) {
      forgetGame(saved.id);
      continue;
    }
    if (answer.outcome) { forgetGame(saved.id); continue; }
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    const left = Math.max(0, Math.ceil(answer.clock.remaining));
    button.textContent = `Resume ${titleText(answer)} · ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
    button.addEventListener("click", () => { auth = saved; show(answer); });
    item.append(button);
    list.append(item);
  }
  $("resume").hidden = !list.children.length;
}

// -- lobby -------------------------------------------------------------------------------

async function showLobby() {
  leaveTable();
  $("lobby").hidden = false;
  if (!games.length) games = await api.games();
  // Back in the lobby, the last game and its options stay chosen.
  const form = new FormData($("new-game"));
  const chosen = form.get("game") ?? games[0]?.name;
  const options = [...form.entries()].filter(([key]) => key.startsWith("option:"));
  const choice = $("game-choice");
  choice.querySelectorAll("label").forEach((label) => label.remove());
  for (const game of games) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    Object.assign(input, { type: "radio", name: "game", value: game.name, checked: game.name === chosen });
    label.append(input, ` ${game.title}`);
    choice.append(label);
  }
  renderOptions();
  for (const [key, value] of options) {
    const select = document.querySelector(`#options select[name="${key}"]`);
    if (select) select.value = value;
  }
  updateDifficultyRow();
  listResumable();
}

// The table is left: its game goes on in the server (and can be resumed), but its clock,
// its answers still on their way and its result no longer show.
function leaveTable() {
  showing++;
  view = null;
  clockBase = null;
  input.clearPick();
  $("table").hidden = true;
  $("card-menu").open = false;
  $("result").hidden = true;
  $("status").hidden = true;
  $("error").textContent = "";
}

function renderOptions() {
  const name = new FormData($("new-game")).get("game");
  const game = games.find((g) => g.name === name);
  const options = $("options");
  options.replaceChildren();
  for (const option of game?.options ?? []) {
    const label = document.createElement("label");
    label.textContent = `${option.name} `;
    const select = document.createElement("select");
    select.name = `option:${option.name}`;
    for (const value of option.values) {
      const item = document.createElement("option");
      item.value = JSON.stringify(value);
      item.textContent = String(value);
      item.selected = value === option.default;
      select.append(item);
    }
    label.append(select);
    options.append(label);
  }
  updateDifficultyRow();
}

function chosenVariant() {
  const variant = {};
  for (const [key, value] of new FormData($("new-game")).entries()) {
    if (key.startsWith("option:")) variant[key.slice(7)] = JSON.parse(value);
  }
  return variant;
}

// Difficulty is offered for the variants whose deals are rated.
function updateDifficultyRow() {
  const form = new FormData($("new-game"));
  const game = games.find((g) => g.name === form.get("game"));
  const variant = chosenVariant();
  const same = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);
  const rated = (game?.rated_variants ?? []).some((v) => same(v, variant));
  $("difficulty-row").hidden = !rated;
  if (!rated) document.querySelector('input[name="difficulty"][value=""]').checked = true;
  $("seed-row").hidden = form.get("mode") !== "practice" || Boolean(new FormData($("new-game")).get("difficulty"));
  // how to play the chosen game and variant
  $("rules-title").textContent = game ? game.title : "";
  const lines = [...(RULES[game?.name] ?? [])];
  for (const [key, value] of Object.entries(variant)) {
    const line = VARIANT_RULES[`${game?.name}:${key}:${value}`];
    if (line) lines.push(line);
  }
  $("rules").replaceChildren(...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
}

// The largest deal number the server deals (a signed 64-bit whole number).
const LAST_SEED = 2n ** 63n - 1n;

const DIFFICULTY_NAMES = { easy: "Easy", medium: "Medium", hard: "Hard", expert: "Expert" };

$("new-game").addEventListener("change", (event) => {
  if (event.target.name === "game") renderOptions();
  else if (event.target.type === "checkbox") { applyOptions($("four-colour"), $("large-index")); mirrorOptions(); }
  else updateDifficultyRow();
  $("lobby-error").textContent = "";
});

$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData($("new-game"));
  const request = { game: form.get("game"), variant: chosenVariant(), mode: form.get("mode") };
  const difficulty = form.get("difficulty");
  if (difficulty) request.difficulty = difficulty;
  const seed = $("seed").value.trim();
  if (request.mode === "practice" && seed && !difficulty) {
    if (!/^\d+$/.test(seed) || BigInt(seed) > LAST_SEED) {
      $("lobby-error").textContent = `${SEED_WORDS} Leave it empty for a random deal.`;
      $("seed").focus();
      return;
    }
    request.seed = seed; // as a string: a JavaScript number holds only 53 bits exactly
  }
  $("lobby-error").textContent = "";
  $("start").disabled = true;
  try {
    await startGame(request);
  } catch (error) {
    $("lobby-error").textContent = reasonWords(error.message);
  } finally {
    $("start").disabled = false;
  }
});

async function startGame(request) {
  open(await api.start(request), request);
}

// Open a fresh answer of POST /api/sessions (or of a tournament's attempt) at the table.
function open(answer, request = { game: answer.game, variant: answer.variant, mode: answer.mode }) {
  auth = { id: answer.id, token: answer.token, request };
  sessionStorage.setItem("patience-game", JSON.stringify(auth));
  keepGame(auth);
  $("error").textContent = "";
  show(answer);
}

// A new game from the table or the result (the same request again, or the deal again): a
// refusal (no deal of that difficulty left, say) goes back to the lobby with its reason.
async function startAgain(request) {
  try {
    await startGame(request);
  } catch (error) {
    await showLobby();
    $("lobby-error").textContent = reasonWords(error.message);
  }
}

// -- showing the game --------------------------------------------------------------------

let showing = 0; // which answer is being shown: a newer one stops an older one's play-out

function titleText(answer) {
  const tier = answer.tier === null || answer.tier === undefined ? "" : ` · ${DIFFICULTY_NAMES[answer.difficulty] ?? ""} ${answer.tier}/10`;
  return `${answer.title}${variantText(answer.variant)}${answer.mode === "practice" ? " (practice)" : ""}${tier}`;
}

async function show(answer) {
  const ticket = ++showing;
  const before = view?.id === answer.id ? view.board : null;
  view = answer;
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("status").hidden = false;
  $("title").textContent = titleText(answer);
  $("score").textContent = answer.score;
  const over = answer.outcome !== null;
  $("undo").disabled = !answer.can_undo;
  $("end").disabled = over;
  $("hint").disabled = over;
  $("restart").disabled = over;
  for (const button of document.querySelectorAll(".practice-only")) button.hidden = answer.mode !== "practice";
  const link = dealLink(answer);
  $("deal").hidden = !link;
  if (link) { $("deal").href = link; $("deal").textContent = `Deal ${answer.seed}`; }
  $("counters").textContent = counterText(answer);
  clockBase = { remaining: answer.clock.remaining, at: performance.now(), running: answer.clock.running };
  if (answer.last && !answer.repeated) {
    const points = answer.last.total_points;
    if (points) flashPoints(points);
    announce(playedWords(answer.last, before, answer.board, answer.game));
    const steps = answer.last.auto;
    if (steps.length && steps.every((step) => step.card) && !reducedMotion()) {
      await playOut($("board"), answer, () => ticket === showing, renderBoard);
      if (ticket !== showing) return;
    }
  }
  renderBoard(answer);
  if (answer.result) {
    forgetGame(answer.id);
    if (!games.length) games = await api.games().catch(() => []); // a game opened by its link
    if (ticket !== showing) return;
    showResult($("result"), answer, { timeBonus: games.find((g) => g.name === answer.game)?.time_bonus ?? true });
    announce(`${$("result-title").textContent} Score ${answer.result.score}.`);
    document.dispatchEvent(new CustomEvent("patience:ended", { detail: answer }));
  } else $("result").hidden = true;
}

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function counterText(answer) {
  const board = answer.board;
  if (answer.game === "golf") return `Streak ${board.streak ?? 0}`;
  if (answer.game === "klondike") return `Recycles ${board.recycles ?? 0}`;
  return "";
}

// The variant as every page names it (dom.js): "Golf, wrap" on the table, in the history,
// the statistics and the replay alike.
function variantText(variant) {
  const words = variantWords(variant);
  return words ? `, ${words}` : "";
}

function flashPoints(points) {
  const element = $("points");
  element.textContent = `${points > 0 ? "+" : ""}${points}`;
  element.classList.remove("show");
  void element.offsetWidth; // restart the animation
  element.classList.add("show");
}

function announce(text) {
  $("announce").textContent = text;
}

let version = 0;
function renderBoard(answer) {
  const board = $("board");
  const hadFocus = board.contains(document.activeElement);
  board.dataset.version = String(++version); // tests wait for the next answer by this
  drawBoard(board, answer);
  input.afterDraw({ hadFocus });
  const touch = window.matchMedia("(pointer: coarse)").matches;
  $("help").textContent = (touch ? HELP_TOUCH : HELP_POINTER)[answer.game];
}

// -- moves -------------------------------------------------------------------------------

// Moves go to the server one at a time, each from the view the one before it answered, so
// that the move count a request names is the one the server will find (a move typed while
// another is on its way waits for it instead of being taken for a retry).
let pending = Promise.resolve();

function enqueue(request) {
  let accepted = false;
  pending = pending.then(async () => {
    if (!auth || !view || view.outcome) return;
    const id = auth.id;
    try {
      const answer = await request(view.move_count);
      if (view?.id !== id) return; // the player left this game meanwhile
      accepted = true;
      show(answer);
    } catch (error) {
      if (view?.id === id) refused(error);
    }
  });
  return pending.then(() => accepted);
}

function send(move) {
  if (!auth || !view || view.outcome) return Promise.resolve(false);
  $("error").textContent = "";
  clearHint();
  return enqueue((count) => api.move(auth.id, auth.token, move, count));
}

function refused(error) {
  const reason = reasonWords(error.message);
  $("error").textContent = reason;
  announce(`Not allowed: ${reason}`);
  input.clearPick();
  if (error instanceof ApiError && error.status === 409 && /time is up/.test(error.message)) refresh();
}

async function refresh() {
  if (!auth || !view) return;
  const id = auth.id;
  const answer = await api.read(auth.id, auth.token);
  if (view?.id === id) show(answer);
}

const board = $("board");
const input = attachInput(board, {
  view: () => view,
  send,
  say: announce,
  action: (word, how) => stockPressed(word, how),
});

// The stock pressed: a draw, or a recycle, which asks first when it costs points and came
// from a key (a key pressed once too often must not cost 100 points unseen).
async function stockPressed(word, { fromKey }) {
  const costs = view.game === "klondike" && (view.board.variant.draw === 1 || view.board.recycles >= 2);
  if (word === "recycle" && costs && fromKey) {
    const points = view.board.variant.draw === 1 ? 100 : 20;
    if (!(await ask(`The hand is empty. Turn the waste over to the hand for -${points} points?`, "Turn it over"))) return;
  }
  send(word);
}

function clearHint() {
  for (const lit of board.querySelectorAll(".hint-source, .hint-dest")) lit.classList.remove("hint-source", "hint-dest");
}

// A question before a step that cannot be taken back; resolves to the player's answer.
function ask(text, yes) {
  return new Promise((resolve) => {
    const dialog = $("confirm");
    const back = document.activeElement;
    $("confirm-text").textContent = text;
    $("confirm-yes").textContent = yes;
    dialog.hidden = false;
    // Until it is answered, nothing behind the question can be pressed, typed or focused.
    document.querySelector("main").inert = true;
    $("confirm-no").focus();
    const done = (answer) => {
      dialog.hidden = true;
      document.querySelector("main").inert = false;
      $("confirm-yes").onclick = $("confirm-no").onclick = dialog.onkeydown = null;
      back?.focus?.();
      resolve(answer);
    };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    dialog.onkeydown = (event) => { if (event.key === "Escape") { event.stopPropagation(); done(false); } };
  });
}

$("undo").addEventListener("click", () => {
  clearHint();
  $("error").textContent = "";
  enqueue((count) => api.undo(auth.id, auth.token, count));
});
$("end").addEventListener("click", async () => {
  const timed = view?.mode === "timed" ? " Your score counts as it stands, with the time bonus." : "";
  if (!(await ask(`End this game now?${timed}`, "End game"))) return;
  enqueue((count) => api.end(auth.id, auth.token, count));
});
$("hint").addEventListener("click", async () => {
  clearHint();
  try {
    const hint = await api.hint(auth.id, auth.token);
    if (!hint.move) { $("error").textContent = reasonWords(hint.reason); announce(hint.reason); return; }
    const words = moveWords(hint.move, view.board, view.game);
    $("error").textContent = `Hint: ${words}.`;
    announce(`Hint: ${words}`);
    const [source, dest] = hint.move.split(">");
    const from = board.querySelector(`[data-src="${source}"]`) ?? board.querySelector(`[data-action="${source}"]`)
      ?? board.querySelector(`.column[data-dest="${source}"] .card:last-child`);
    from?.classList.add("hint-source");
    if (dest) {
      const target = dest === "f"
        ? board.querySelectorAll('[data-dest="f"]')[homeIndex(from?.dataset.card, view.board)] ?? board.querySelector('[data-dest="f"]')
        : board.querySelector(`.column[data-dest="${dest}"] .card:last-child`) ?? board.querySelector(`[data-dest="${dest}"]`);
      target?.classList.add("hint-dest");
    }
  } catch (error) { refused(error); }
});
// Which foundation pile a card goes to: its suit's (Klondike), or the pile it builds on,
// else the first empty one.
function homeIndex(card, position) {
  if (!card) return 0;
  const suit = card.slice(-1);
  if (!Array.isArray(position.foundation)) return Math.max(0, Object.keys(position.foundation).indexOf(suit));
  const ranks = "A23456789TJQK";
  const below = ranks[(ranks.indexOf(card[0]) + 12) % 13] + suit;
  // (only Kansas turns the corner from king to ace)
  const onto = card[0] === "A" && position.game !== "kansas" ? -1 : position.foundation.findIndex((slot) => slot?.top === below);
  return onto >= 0 ? onto : Math.max(0, position.foundation.findIndex((slot) => slot === null));
}

$("restart").addEventListener("click", async () => {
  if (!(await ask("Deal this game again from the start?", "Restart"))) return;
  // the same deal again, by its seed (the server keeps a catalog deal's tier)
  const { difficulty, ...request } = auth.request;
  forgetGame(auth.id);
  startAgain({ ...request, seed: view.seed });
});
$("again").addEventListener("click", () => {
  const { seed, ...request } = auth.request;
  startAgain(request);
});
$("replay-deal").addEventListener("click", () => {
  const { difficulty, ...request } = auth.request;
  startAgain({ ...request, mode: "practice", seed: view.seed });
});
$("to-lobby").addEventListener("click", showLobby);
$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  if (!$("confirm").hidden) return; // the question is answered first
  const move = $("move-input").value.trim();
  $("move-input").value = "";
  if (move === "undo") $("undo").click();
  else if (move === "end") $("end").click();
  else if (move) send(move);
});

document.addEventListener("keydown", (event) => {
  if (!$("confirm").hidden || !$("result").hidden) return;
  if (!view || $("table").hidden || event.target.matches("input, select, textarea")) return;
  if (input.keydown(event)) return;
  if (event.target.matches("button, a, summary") && (event.key === "Enter" || event.key === " ")) return;
  const key = event.key.toLowerCase();
  if (key === "u") { event.preventDefault(); if (!$("undo").disabled) $("undo").click(); return; }
  if (key === "/") { event.preventDefault(); $("move-input").focus(); return; }
  if (view.game === "golf") {
    if (/^[1-7]$/.test(key)) { event.preventDefault(); send(`t${key}`); }
    else if (key === " " || key === "d") { event.preventDefault(); send("draw"); }
    return;
  }
  if (key === "d" || key === " ") {
    event.preventDefault();
    const stock = board.querySelector("[data-action]");
    if (stock) { input.clearPick(); stockPressed(stock.dataset.action, { fromKey: true }); }
  }
});


// A dialog keeps the focus: Tab and Shift+Tab go round its buttons.
for (const overlay of [$("result"), $("confirm")]) {
  overlay.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const buttons = [...overlay.querySelectorAll("button:not([hidden]), a[href]")];
    const index = buttons.indexOf(document.activeElement);
    const next = (index + (event.shiftKey ? -1 : 1) + buttons.length) % buttons.length;
    event.preventDefault();
    buttons[next].focus();
  });
}

// -- the card options at the table -----------------------------------------------------

// The lobby's checkboxes hold the options (saved.js keeps them); the table's menu shows the
// same two and changes them there.
const TABLE_OPTIONS = { "table-four-colour": "four-colour", "table-large-index": "large-index" };

function mirrorOptions() {
  for (const [mine, lobby] of Object.entries(TABLE_OPTIONS)) $(mine).checked = $(lobby).checked;
}

$("card-menu").addEventListener("change", (event) => {
  const lobby = TABLE_OPTIONS[event.target.id];
  if (!lobby) return;
  $(lobby).checked = event.target.checked;
  applyOptions($("four-colour"), $("large-index"));
  if (view) fitBoard(board); // large corners need wider strips between covered cards
});
// Escape, or a press anywhere else, closes the menu.
$("card-menu").addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !$("card-menu").open) return;
  event.stopPropagation();
  $("card-menu").open = false;
  $("card-menu").querySelector("summary").focus();
});
document.addEventListener("pointerdown", (event) => {
  if ($("card-menu").open && !$("card-menu").contains(event.target)) $("card-menu").open = false;
});

// -- the clock ---------------------------------------------------------------------------

function tick() {
  if (clockBase && view && !$("table").hidden) {
    const elapsed = clockBase.running ? (performance.now() - clockBase.at) / 1000 : 0;
    const remaining = Math.max(0, clockBase.remaining - elapsed);
    const whole = Math.ceil(remaining);
    $("clock").textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    $("clock").classList.toggle("low", clockBase.running && remaining < 30);
    if (clockBase.running && remaining <= 0) {
      clockBase.running = false;
      refresh(); // the server decides the timeout
    }
  }
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

// -- start -------------------------------------------------------------------------------

$("home").addEventListener("click", (event) => { event.preventDefault(); history.replaceState(null, "", "/"); showLobby(); });
window.addEventListener("resize", () => { if (view) fitBoard(board); });
// A board drawn while the table was out of sight (a game opened from a page, which hides
// the table until the page steps aside) is fitted again once the table has its width,
// before that frame is painted.
let fittedWidth = 0;
new ResizeObserver(() => {
  const width = board.clientWidth;
  if (width === fittedWidth) return;
  fittedWidth = width;
  if (view && width) fitBoard(board);
}).observe(board);

// Another part of the page (a tournament's attempt, say) opens a game it started.
document.addEventListener("patience:play", (event) => {
  const { answer, token } = event.detail;
  open({ ...answer, token: token ?? answer.token });
});

// A deal by its link: /?game=klondike&draw=3&seed=42 deals it as a practice game.
function linkedRequest() {
  const query = new URLSearchParams(location.search);
  const game = query.get("game");
  if (!game) return null;
  const variant = {};
  for (const [key, value] of query) {
    if (key === "game" || key === "seed") continue;
    variant[key] = /^\d+$/.test(value) ? Number(value) : value === "true" ? true : value === "false" ? false : value;
  }
  const request = { game, variant, mode: "practice" };
  const seed = query.get("seed");
  if (seed) request.seed = seed;
  return request;
}

async function resume() {
  // the games' rules (the result names a time bonus only for a game that has one)
  games = await api.games().catch(() => []);
  loadOptions($("four-colour"), $("large-index"));
  mirrorOptions();
  const linked = linkedRequest();
  if (linked) {
    // the link is used once: a reload then finds the game dealt, not a new one
    history.replaceState(null, "", "/");
    try {
      await startGame(linked);
      return;
    } catch (error) {
      await showLobby();
      $("lobby-error").textContent = `That link's deal cannot be dealt: ${reasonWords(error.message)}`;
      return;
    }
  }
  const saved = JSON.parse(sessionStorage.getItem("patience-game") ?? "null");
  if (saved) {
    try {
      auth = saved;
      const answer = await api.read(saved.id, saved.token);
      if (!answer.outcome) return show(answer);
    } catch (_) { /* a game this server does not know: back to the lobby */ }
  }
  auth = null;
  showLobby();
}
resume();
