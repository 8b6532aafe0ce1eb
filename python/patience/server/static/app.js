// The browser client: lobby, the board of each game, moves by drag and drop, by click
// (pick, then place), by double-click (to the foundation), by keys, and by typed notation.
// The server referees everything: the client only draws the view it is sent.

import { api, ApiError } from "./api.js";
import { drawBoard, fitBoard } from "./board.js";

const $ = (id) => document.getElementById(id);
let games = [];
let view = null; // the last answer of the server
let auth = null; // { id, token, request }
let picked = null; // { src, element }
let clockBase = null; // { remaining, at }

// -- lobby -------------------------------------------------------------------------------

async function showLobby() {
  $("lobby").hidden = false;
  $("table").hidden = true;
  $("result").hidden = true;
  $("status").hidden = true;
  if (!games.length) games = await api.games();
  // Back in the lobby, the last game and its options stay chosen.
  const form = new FormData($("new-game"));
  const chosen = form.get("game") ?? games[0]?.name;
  const options = [...form.entries()].filter(([key]) => key.startsWith("option:"));
  const choice = $("game-choice");
  choice.querySelectorAll("label").forEach((label) => label.remove());
  games.forEach((game) => {
    const label = document.createElement("label");
    label.innerHTML = `<input type="radio" name="game" value="${game.name}" ${game.name === chosen ? "checked" : ""}> ${game.title}`;
    choice.append(label);
  });
  renderOptions();
  for (const [key, value] of options) {
    const select = document.querySelector(`#options select[name="${key}"]`);
    if (select) select.value = value;
  }
  updateDifficultyRow();
}

function renderOptions() {
  const name = new FormData($("new-game")).get("game");
  const game = games.find((g) => g.name === name);
  const options = $("options");
  options.innerHTML = "";
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
  // Difficulty: for the games whose deals are rated; a deal of a difficulty is the server's
  // choice, so it takes no seed.
  updateDifficultyRow();
}

// Difficulty is offered for the variants whose deals are rated.
function updateDifficultyRow() {
  const form = new FormData($("new-game"));
  const game = games.find((g) => g.name === form.get("game"));
  const variant = {};
  for (const [key, value] of form.entries()) {
    if (key.startsWith("option:")) variant[key.slice(7)] = JSON.parse(value);
  }
  const same = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);
  const rated = (game?.rated_variants ?? []).some((v) => same(v, variant));
  $("difficulty-row").hidden = !rated;
  if (!rated) document.querySelector('input[name="difficulty"][value=""]').checked = true;
  updateSeedRow();
}

function updateSeedRow() {
  const form = new FormData($("new-game"));
  $("seed-row").hidden = form.get("mode") !== "practice" || Boolean(form.get("difficulty"));
}

const DIFFICULTY_NAMES = { easy: "Easy", medium: "Medium", hard: "Hard", expert: "Expert" };

function difficultyText(answer) {
  if (answer.tier === null || answer.tier === undefined) return "";
  return ` · ${DIFFICULTY_NAMES[answer.difficulty] ?? ""} ${answer.tier}/10`;
}

$("new-game").addEventListener("change", (event) => {
  if (event.target.name === "game") renderOptions();
  else updateDifficultyRow();
  $("lobby-error").textContent = "";
});

$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData($("new-game"));
  const variant = {};
  for (const [key, value] of form.entries()) {
    if (key.startsWith("option:")) variant[key.slice(7)] = JSON.parse(value);
  }
  const request = { game: form.get("game"), variant, mode: form.get("mode") };
  const difficulty = form.get("difficulty");
  if (difficulty) request.difficulty = difficulty;
  const seed = $("seed").value.trim();
  if (request.mode === "practice" && seed && !difficulty) request.seed = seed;
  $("lobby-error").textContent = "";
  $("start").disabled = true;
  try {
    await startGame(request);
  } catch (error) {
    $("lobby-error").textContent = error.message;
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
    $("lobby-error").textContent = error.message;
  }
}

// -- showing the game --------------------------------------------------------------------

let showing = 0; // which answer is being shown: a newer one stops an older one's play-out

async function show(answer) {
  const ticket = ++showing;
  view = answer;
  picked = null;
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("status").hidden = false;
  $("title").textContent = `${answer.title}${variantText(answer.variant)}${answer.mode === "practice" ? " (practice)" : ""}${difficultyText(answer)}`;
  $("score").textContent = answer.score;
  $("undo").disabled = !answer.can_undo;
  $("end").disabled = answer.outcome !== null;
  document.querySelector(".practice").hidden = answer.mode !== "practice";
  clockBase = { remaining: answer.clock.remaining, at: performance.now(), running: answer.clock.running };
  if (answer.last) {
    const points = answer.last.total_points;
    if (points) flashPoints(points);
    const auto = answer.last.auto.length ? `, then ${answer.last.auto.length} cards played out` : "";
    announce(`${answer.last.move}${points ? `, ${points > 0 ? "+" : ""}${points} points` : ""}${auto}`);
    const steps = answer.last.auto;
    if (steps.length && steps.every((step) => step.card) && !reducedMotion()) {
      await playOut(answer, () => ticket === showing);
      if (ticket !== showing) return;
    }
  }
  renderBoard(answer);
  if (answer.result) {
    showResult(answer.result, answer);
    document.dispatchEvent(new CustomEvent("patience:ended", { detail: answer }));
  }
  else $("result").hidden = true;
}

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// -- the automatic play-out, card by card ------------------------------------------------

const RANK_ORDER = "A23456789TJQK";

// The boards of a play-out: boards[i] is the board before step i (the answer's board with
// the steps from i on taken back, last first), landings[i] the foundation pile step i
// fills (its index on the board).
function playOutBoards(board, steps) {
  const before = structuredClone(board);
  const boards = new Array(steps.length);
  const landings = new Array(steps.length);
  for (let i = steps.length - 1; i >= 0; i--) {
    const { move, card } = steps[i];
    const rank = RANK_ORDER.indexOf(card[0]);
    const below = rank > 0 ? RANK_ORDER[rank - 1] + card[1] : null;
    if (Array.isArray(before.foundation)) {
      const index = before.foundation.findIndex((slot) => slot?.top === card);
      landings[i] = index;
      before.foundation[index] = below ? { top: below, cards: before.foundation[index].cards - 1 } : null;
    } else {
      landings[i] = Object.keys(before.foundation).indexOf(card[1]);
      before.foundation[card[1]] = below;
    }
    const source = move.split(">")[0];
    if (source === "w") before.waste.push(card);
    else if (source.startsWith("h")) before.hand.push(card);
    else before.tableau[Number(source.slice(1)) - 1].cards.push(card);
    boards[i] = structuredClone(before);
  }
  return { boards, landings };
}

// The element of the card a play-out step moves, on the board drawn before it.
function playOutSource(step) {
  const source = step.move.split(">")[0];
  if (source === "w") return document.querySelector('#board [data-src="w"]');
  if (source.startsWith("h")) return document.querySelector(`#board [data-src="h:${step.card}"]`);
  return document.querySelector(`#board .column[data-dest="${source}"] .card:last-child`);
}

// Show the cards the game played out flying home one by one, the board redrawn after each;
// stops early when `current()` says a newer answer is being shown.
async function playOut(answer, current) {
  const steps = answer.last.auto;
  const { boards, landings } = playOutBoards(answer.board, steps);
  const pace = Math.max(40, Math.min(120, 2400 / steps.length)); // milliseconds a card
  $("board").dataset.playingOut = "true";
  for (let i = 0; i < steps.length && current(); i++) {
    renderBoard({ ...answer, board: boards[i] });
    const card = playOutSource(steps[i]);
    const target = document.querySelectorAll("#board [data-dest='f']")[landings[i]];
    if (!card || !target) continue;
    const from = card.getBoundingClientRect();
    const to = target.getBoundingClientRect();
    card.classList.add("flying");
    const shift = `translate(${to.left - from.left}px, ${to.top - from.top}px)`;
    await card.animate([{ transform: "none" }, { transform: shift }], { duration: pace, easing: "ease-in" }).finished;
  }
  delete $("board").dataset.playingOut;
}

function variantText(variant) {
  const parts = Object.entries(variant).map(([key, value]) =>
    key === "draw" ? `draw ${value}` : key === "wrap" ? (value ? "wrapping" : "no wrap") : `${key} ${value}`);
  return parts.length ? `, ${parts.join(", ")}` : "";
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

function showResult(result, answer) {
  const rows = [
    ["Outcome", result.won ? "Won" : { ended: "Ended", stuck: "No moves left", timeout: "Time is up" }[result.reason] ?? result.reason],
    ["Cards home", result.cards_home],
    ["Points", result.points],
    ["Time bonus", result.time_bonus],
    ["Score", result.score],
    ["Time", `${result.elapsed.toFixed(1)} s`],
  ];
  if (answer.tier !== null && answer.tier !== undefined) {
    rows.push(["Difficulty", `${DIFFICULTY_NAMES[answer.difficulty]}, tier ${answer.tier} of 10`]);
  }
  $("breakdown").innerHTML = rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
  $("result-title").textContent = result.won ? "You won!" : "Game over";
  $("result").hidden = false;
  $("result").scrollIntoView({ block: "nearest" });
  announce(`Game over. Score ${result.score}, time bonus ${result.time_bonus}.`);
}

// -- the board ---------------------------------------------------------------------------

const HELP = {
  klondike: "Drag cards, or click a card then its destination. Double-click sends a card home. Click the hand to draw. Keys: d draw, u undo.",
  golf: "Click a column's card (or press 1-7) to play it on the waste; space draws; u undoes.",
  kansas: "Drag a card (and the cards on it) or click then place. Double-click sends a card home. Keys: d draw, u undo.",
  expert: "Drag strings, or click then place; drop a card on the hand to hold it. Double-click sends a card to the piles. u undoes.",
};

let version = 0;
function renderBoard(answer) {
  const board = $("board");
  board.dataset.version = String(++version); // tests wait for the next answer by this
  board.dataset.game = answer.game;
  drawBoard(board, answer);
  $("help").textContent = HELP[answer.game];
}

// -- moves -------------------------------------------------------------------------------

// Moves go to the server one at a time, each from the view the one before it answered, so
// that the move count a request names is the one the server will find (a move typed while
// another is on its way waits for it instead of being taken for a retry).
let pending = Promise.resolve();

function enqueue(request) {
  pending = pending.then(async () => {
    if (!auth || !view || view.outcome) return;
    try {
      show(await request(view.move_count));
    } catch (error) {
      refused(error);
    }
  });
  return pending;
}

function send(move) {
  if (!auth || !view || view.outcome) return;
  $("error").textContent = "";
  return enqueue((count) => api.move(auth.id, auth.token, move, count));
}

function refused(error) {
  $("error").textContent = error.message;
  announce(`Refused: ${error.message}`);
  clearPick();
  if (error instanceof ApiError && error.status === 409 && /time is up/.test(error.message)) refresh();
}

async function refresh() {
  if (!auth) return;
  show(await api.read(auth.id, auth.token));
}

function clearPick() {
  if (picked) picked.element.classList.remove("picked");
  picked = null;
}

function pick(src, element) {
  clearPick();
  picked = { src, element };
  element.classList.add("picked");
  announce(`Picked ${element.dataset.card ?? src}; choose where to put it`);
}

function moveTo(src, dest) {
  if (src.startsWith(dest + ":") || src === dest) return clearPick();
  send(`${src}>${dest}`);
}

const board = $("board");
let drag = null;

board.addEventListener("pointerdown", (event) => {
  const source = event.target.closest("[data-src]");
  if (!source || view?.game === "golf" || event.button > 0) return;
  drag = { source, x: event.clientX, y: event.clientY, ghost: null };
});

board.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.ghost && Math.hypot(dx, dy) < 6) return;
  if (!drag.ghost) {
    drag.ghost = document.createElement("div");
    drag.ghost.className = "dragging";
    const rect = drag.source.getBoundingClientRect();
    drag.offset = { x: drag.x - rect.left, y: drag.y - rect.top };
    // the card and every card on it
    let el = drag.source;
    const parts = [];
    while (el) { parts.push(el); el = el.nextElementSibling?.classList.contains("card") ? el.nextElementSibling : null; }
    parts.forEach((part, index) => {
      const copy = part.cloneNode(true);
      copy.style.position = "absolute";
      copy.style.left = "0";
      copy.style.top = `${index * Number(drag.source.closest(".column")?.dataset.fan ?? 0)}px`;
      drag.ghost.append(copy);
    });
    document.body.append(drag.ghost);
    board.setPointerCapture?.(event.pointerId);
  }
  drag.ghost.style.left = `${event.clientX - drag.offset.x}px`;
  drag.ghost.style.top = `${event.clientY - drag.offset.y}px`;
});

board.addEventListener("pointerup", (event) => {
  if (!drag) return;
  const { source, ghost } = drag;
  drag = null;
  if (!ghost) return; // a click: handled by the click listener
  ghost.remove();
  const target = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-dest]");
  suppressClick = true;
  if (target) moveTo(source.dataset.src, target.dataset.dest);
});

let suppressClick = false;
board.addEventListener("click", (event) => {
  if (suppressClick) { suppressClick = false; return; }
  const action = event.target.closest("[data-action]");
  if (action) return send(action.dataset.action);
  const source = event.target.closest("[data-src]");
  if (view?.game === "golf") {
    if (source) send(source.dataset.src);
    return;
  }
  if (picked) {
    const dest = event.target.closest("[data-dest]");
    if (dest && !(source && source === picked.element)) return moveTo(picked.src, dest.dataset.dest);
    if (source === picked.element) return clearPick();
  }
  if (source) pick(source.dataset.src, source);
});

board.addEventListener("dblclick", (event) => {
  const source = event.target.closest("[data-src]");
  if (!source || view?.game === "golf") return;
  clearPick();
  send(`${source.dataset.src}>f`);
});

$("undo").addEventListener("click", async () => {
  enqueue((count) => api.undo(auth.id, auth.token, count));
});
$("end").addEventListener("click", async () => {
  enqueue((count) => api.end(auth.id, auth.token, count));
});
$("hint").addEventListener("click", async () => {
  try {
    const hint = await api.hint(auth.id, auth.token);
    $("error").textContent = hint.move ? `Hint: ${hint.move}` : hint.reason;
    announce(hint.move ? `Hint: ${hint.move}` : hint.reason);
  } catch (error) { refused(error); }
});
$("restart").addEventListener("click", () => {
  // the same deal again, by its seed (the server keeps a catalog deal's tier)
  const { difficulty, ...request } = auth.request;
  startAgain({ ...request, seed: view.seed });
});
$("again").addEventListener("click", () => startAgain({ ...auth.request, seed: undefined }));
$("to-lobby").addEventListener("click", showLobby);
$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  const move = $("move-input").value.trim();
  $("move-input").value = "";
  if (move === "undo") $("undo").click();
  else if (move === "end") $("end").click();
  else if (move) send(move);
});

document.addEventListener("keydown", (event) => {
  if (!view || $("table").hidden || event.target.matches("input, select")) return;
  const key = event.key.toLowerCase();
  if (key === "u") { event.preventDefault(); if (!$("undo").disabled) $("undo").click(); return; }
  if (key === "escape") return clearPick();
  if (key === "/" ) { event.preventDefault(); $("move-input").focus(); return; }
  if (view.game === "golf") {
    if (/^[1-7]$/.test(key)) { event.preventDefault(); send(`t${key}`); }
    else if (key === " ") { event.preventDefault(); send("draw"); }
    return;
  }
  if (key === "d" || key === " ") {
    event.preventDefault();
    const stock = board.querySelector("[data-action]");
    if (stock) send(stock.dataset.action);
  }
});

// -- the clock ---------------------------------------------------------------------------

function tick() {
  if (clockBase && view) {
    const elapsed = clockBase.running ? (performance.now() - clockBase.at) / 1000 : 0;
    const remaining = Math.max(0, clockBase.remaining - elapsed);
    const whole = Math.ceil(remaining);
    $("clock").textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    $("clock").classList.toggle("low", remaining < 30);
    if (clockBase.running && remaining <= 0) {
      clockBase.running = false;
      refresh(); // the server decides the timeout
    }
  }
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

// -- start -------------------------------------------------------------------------------

$("home").addEventListener("click", (event) => { event.preventDefault(); showLobby(); });

async function resume() {
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
// Another part of the page (a tournament's attempt, say) opens a game it started.
document.addEventListener("patience:play", (event) => {
  const { answer, token } = event.detail;
  open({ ...answer, token: token ?? answer.token });
});
window.addEventListener("resize", () => fitBoard($("board")));

resume();
