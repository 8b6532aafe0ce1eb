// The browser client: the lobby (lobby.js), the table (the board, its controls, the
// clock, its cards' motion and sounds), and the result. The server referees everything:
// the client only draws the view it is sent.
//
// Other parts of a page may open a game here: dispatch `patience:play` on document with
// `detail = { answer, token, request }` (a fresh answer of POST /api/sessions, of a daily
// deal or of a tournament's attempt). When a game ends, `patience:ended` is dispatched
// with `detail = answer`; `patience:refresh` reads the game on the table again.

import { accounts, api, ApiError, daily, SEED_WORDS, whoAmI } from "./api.js";
import * as sound from "./audio.js";
import { drawBoard, fitBoard, resetFit } from "./board.js";
import { ask, asking } from "./dialog.js";
import { dealLabel, variantWords, writeText } from "./dom.js";
import { gameOf, layoutOf, loadGames, wordOf } from "./games.js";
import { attachInput } from "./input.js";
import { keepMessagePlaced } from "./messages.js";
import { chosenNumbered, chosenVariant, drawLobby, lobbyHooks, renderOptions, updateForm } from "./lobby.js";
import { currentLook, loadLook, lookControls, onLookChange } from "./look.js";
import * as motion from "./motion.js";
import { sourceOf } from "./moves.js";
import { playOut } from "./playout.js";
import { dealLink, showResult } from "./result.js";
import { linkRequest, playLink } from "./links.js";
import { problemPage } from "./pages.js";
import { forgetGame, keepGame, keepSetting, savedGames, setting } from "./saved.js";
import { StuckWatch } from "./stuck.js";
import { moveWords, playedWords, reasonWords } from "./words.js";

const $ = (id) => document.getElementById(id);
let games = [];
let view = null; // the last answer of the server about the game on the table
let auth = null; // { id, token, request }
let clockBase = null; // { remaining, at, running }
let clockTimer = 0; // the clock's next drawing (tick)
const stuck = new StuckWatch();
let stuckDismissed = false;

// -- lobby -------------------------------------------------------------------------------

// (a message shown on the lobby belongs to the view it was shown for: a new one starts
// without it, as does any page the address goes to)
async function showLobby() {
  leaveTable();
  $("lobby-error").textContent = "";
  $("lobby").hidden = false;
  if (!games.length) games = await loadGames();
  await drawLobby(games);
}

// The browser's history: the lobby and the table are entries of their own, so that Back
// from the table goes to the lobby (the game goes on, in its Continue) and Forward to the
// table again. The lobby is at "/" ({ lobby: true }); the table at its game's own address,
// /?session=ID ({ table: ID }; { table: true } at "/" while a page's deal is on its way),
// which a bookmark, a reload or a second tab opens again for the game's player (its token
// kept in this browser, or its account signed in): the game's id is all it holds, never
// its token nor anything that decides its deal. The pages' hash routes are entries of
// theirs (pages.js).
const tableUrl = (id) => `/?session=${encodeURIComponent(id)}`;
function enterTable(id) {
  if (location.hash) return; // a page opens it: it steps aside for the table itself
  if (history.state?.table) {
    history.replaceState({ table: id }, "", tableUrl(id)); // a new game at the table: the same entry
  } else {
    history.replaceState({ lobby: true }, "", "/");
    history.pushState({ table: id }, "", tableUrl(id));
  }
}
// A page that opened a game (a tournament's attempt) stepped aside to the table's entry it
// pushed: the entry gets the game's address.
window.addEventListener("hashchange", () => {
  $("lobby-error").textContent = "";
  const id = history.state?.table;
  if (!location.hash && typeof id === "string" && location.search !== tableUrl(id).slice(1)) {
    history.replaceState(history.state, "", tableUrl(id));
  }
});

// The lobby from the table (its Lobby button, the title, the result's Lobby): an entry of
// its own, Back goes to the table again.
function toLobby() {
  if (location.hash) history.replaceState(null, "", "/");
  else if (history.state?.table) history.pushState({ lobby: true }, "", "/");
  else if (location.search) history.replaceState({ lobby: true }, "", "/");
  showLobby();
}

window.addEventListener("popstate", () => {
  if (location.hash) return; // a page's route (pages.js)
  const entry = history.state;
  if (typeof entry?.table === "string") {
    if (view?.id !== entry.table || $("table").hidden) reopen(entry.table);
  } else if (!$("table").hidden) showLobby();
});

// Back at a table's entry: its game as it stands now (over since, it shows its result);
// a game no longer this player's gives the lobby, which says so.
async function reopen(id) {
  const opened = await ownGame(id);
  if (history.state?.table !== id) return; // the player went on meanwhile
  if (opened) {
    auth = opened.saved;
    hold(auth);
    show(opened.answer);
    return;
  }
  await lobbyBecause(NOT_YOURS);
}

// The game `id` read for its player, as this browser can: with the token it kept (this tab's
// game, or one of its games in progress), else as the signed-in player's own (its request
// as the server lists it). Null when this browser cannot open it (not its player's, or
// unknown): { saved, answer } else.
async function ownGame(id) {
  const kept = auth?.id === id ? auth : entryGame(id);
  if (kept.token) {
    try {
      const answer = await api.read(id, kept.token);
      kept.request ??= { game: answer.game, variant: answer.variant, mode: answer.mode };
      return { saved: kept, answer };
    } catch (_) { /* a token of another server, say: the account may still open it */ }
  }
  if (!(await whoAmI())) return null;
  try {
    const answer = await api.read(id, null);
    const listed = (await accounts.running().catch(() => [])).find?.((game) => game.id === id);
    const request = { game: answer.game, variant: answer.variant, mode: answer.mode };
    if (listed?.daily) request.daily = true;
    if (listed?.tournament) request.tournament = listed.tournament;
    return { saved: { id, token: null, request }, answer };
  } catch (_) {
    return null;
  }
}

// The lobby in place of a table's entry that cannot be opened here, saying why.
async function lobbyBecause(why) {
  history.replaceState({ lobby: true }, "", "/");
  auth = null;
  await showLobby();
  $("lobby-error").textContent = why;
}

const NOT_YOURS = "That link is to a game this browser cannot open: a game's link opens it "
  + "only for its player (signed in, or in the browser it was dealt in). Here is the lobby.";

// The table's address opened (a bookmark, a reload, a second tab): its game, for its player.
async function openAddressed(id) {
  const opened = await ownGame(id);
  if (!opened) {
    await lobbyBecause(NOT_YOURS);
    return;
  }
  auth = opened.saved;
  hold(auth);
  if (!opened.answer.outcome) keepGame(auth);
  if (!location.hash) history.replaceState({ table: id }, "", tableUrl(id));
  return show(opened.answer);
}

// The game at the table, held by the tab: the one a reload reopens (sessionStorage's
// "patience-game"), and among the tab's games, by which its history's table entries are
// reopened, each its own game, even once the lobby has forgotten it (it ended).
// Each game put on the table is told to the page's other parts (`patience:table`, detail
// { id, token, request }): a tournament's attempt is watched for the close however it came
// to the table (dealt, continued from the lobby, Back to its entry, a reload).
const TAB_GAMES = "patience-tab-games";
function hold(game) {
  sessionStorage.setItem("patience-game", JSON.stringify(game));
  document.dispatchEvent(new CustomEvent("patience:table", { detail: game }));
  try {
    const held = (JSON.parse(sessionStorage.getItem(TAB_GAMES) ?? "[]") ?? []).filter((kept) => kept.id !== game.id);
    sessionStorage.setItem(TAB_GAMES, JSON.stringify([game, ...held].slice(0, 16)));
  } catch (_) { /* the latest only */ }
}

// The game of a table's history entry: as held by this tab or kept by this browser (a
// guest's, by its token), else a signed-in player's own (the session holds it).
function entryGame(id) {
  let held = [];
  try {
    held = JSON.parse(sessionStorage.getItem(TAB_GAMES) ?? "[]") ?? [];
  } catch (_) { /* none */ }
  const known = [...(Array.isArray(held) ? held : []), ...savedGames()].find((game) => game?.id === id);
  return known ? { ...known } : { id, token: null, request: null };
}

lobbyHooks({
  resume: (saved, answer) => {
    enterTable(saved.id);
    auth = saved;
    hold(auth); // a reload stays at the table
    show(answer);
  },
  startDaily: (game, variant) => startDaily(game, variant),
});

// The table is left: its game goes on in the server (and can be resumed), but its clock,
// its answers still on their way and its result no longer show.
function leaveTable() {
  showing++;
  view = null;
  clockBase = null;
  input.clearPick();
  motion.finish(board);
  $("table").hidden = true;
  $("card-menu").open = false;
  $("result").hidden = true;
  $("status").hidden = true;
  $("stuck").hidden = true;
  $("error").textContent = "";
  updateSkip();
}

// The largest deal number the server deals (a signed 64-bit whole number).
const LAST_SEED = 2n ** 63n - 1n;

const DIFFICULTY_NAMES = { easy: "Easy", medium: "Medium", hard: "Hard", expert: "Expert" };

$("new-game").addEventListener("change", (event) => {
  if (event.target.name === "game") renderOptions();
  if (!event.target.closest("#look")) updateForm();
  $("lobby-error").textContent = "";
});

$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData($("new-game"));
  const request = { game: form.get("game"), variant: chosenVariant(), mode: form.get("mode") };
  const difficulty = form.get("difficulty");
  if (difficulty) request.difficulty = difficulty;
  const seed = $("seed").value.replace(/[\s\u202f]/g, ""); // "482 113" as it is shown
  const numbered = request.mode === "timed" || difficulty ? { ok: true } : chosenNumbered();
  if (!numbered.ok) {
    $("lobby-error").textContent = numbered.error;
    numbered.input.focus();
    return;
  }
  if (numbered.numbered && seed) {
    $("lobby-error").textContent = `Give a deal number or a ${numbered.title.toLowerCase()}, not both.`;
    $("seed").focus();
    return;
  }
  if (numbered.numbered) request.numbered = numbered.numbered;
  if (request.mode !== "timed" && seed && !difficulty) {
    if (!/^\d+$/.test(seed) || BigInt(seed) > LAST_SEED) {
      $("lobby-error").textContent = `${SEED_WORDS} Leave it empty for a random deal.`;
      $("seed").focus();
      return;
    }
    request.seed = seed; // as a string: a JavaScript number holds only 53 bits exactly
  }
  $("lobby-error").textContent = "";
  await dealing(request, () => startGame(request), (error) => { $("lobby-error").textContent = reasonWords(error.message); });
});

// While a deal is on its way, the lobby says what is happening: a timed deal may be
// certified by the solver as it is dealt (seconds, for the games whose solver is slower).
let dealer = null; // the control that asked for the deal being dealt (it loses the focus)
async function dealing(request, action, failed) {
  dealer = document.activeElement;
  $("start").disabled = true;
  const words = request.mode === "timed" || request.daily
    ? "Dealing: the solver is making sure this deal can be won…"
    : "Dealing…";
  const slow = setTimeout(() => { $("dealing").textContent = `${words} This can take a few seconds.`; }, 1500);
  $("dealing").textContent = words;
  try {
    await action();
  } catch (error) {
    failed(error);
  } finally {
    clearTimeout(slow);
    $("start").disabled = false;
    $("dealing").textContent = "";
  }
}

async function startGame(request) {
  open(await api.start(request), request, { dealt: true });
}

async function startDaily(game, variant) {
  const request = { game, variant, mode: "timed", daily: true };
  await dealing(request, async () => {
    const answer = await daily.start(game, variant);
    open(answer, request, { dealt: answer.move_count === 0 && Boolean(answer.token) });
  }, async (error) => {
    if (location.hash) { history.pushState(null, "", "/"); window.dispatchEvent(new HashChangeEvent("hashchange")); }
    if (!location.hash && history.state?.table) history.replaceState({ lobby: true }, "", "/"); // no game came
    await showLobby();
    $("lobby-error").textContent = reasonWords(error.message);
  });
}

// Open a fresh answer (of POST /api/sessions, a daily deal or a tournament's attempt).
function open(answer, request = { game: answer.game, variant: answer.variant, mode: answer.mode }, { dealt = false } = {}) {
  auth = { id: answer.id, token: answer.token ?? null, request };
  hold(auth);
  keepGame(auth);
  enterTable(answer.id);
  $("error").textContent = "";
  // The control that dealt it (the lobby's Deal, the result's New game) is gone with its
  // panel: the focus goes to the board's one tab stop, not to the page. (A page opened on a
  // deal's link had the focus nowhere: it stays so, with no ring on a card.)
  const from = dealer ?? document.activeElement;
  dealer = null;
  show(answer, { dealt }).then(() => {
    const here = document.activeElement;
    const lost = !here || here === document.body || here.closest("[hidden]") || !here.checkVisibility();
    if (lost && from && from !== document.body) board.querySelector('.stop[tabindex="0"]')?.focus({ preventScroll: true });
  });
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

function titleText(answer, request = auth?.request) {
  const tier = answer.tier === null || answer.tier === undefined ? "" : ` · ${DIFFICULTY_NAMES[answer.difficulty] ?? ""} ${answer.tier}/10`;
  const mode = request?.daily ? " · daily deal" : answer.mode === "timed" ? "" : ` (${answer.mode})`;
  const tournament = request?.tournament;
  if (tournament) return `${tournament.name} · attempt ${tournament.attempt} · ${answer.title}${variantText(answer.variant)}`;
  return `${answer.title}${variantText(answer.variant)}${mode}${tier}`;
}

// The header's title, whole in its tooltip; a tournament's name, which may be long, is cut
// short with an ellipsis (the attempt and the game after it stay whole).
function showTitle(answer) {
  const text = titleText(answer);
  const name = auth?.request?.tournament?.name;
  $("title").title = text;
  if (!name || !text.startsWith(name)) { $("title").textContent = text; return; }
  const named = document.createElement("span");
  named.className = "event-name";
  named.textContent = name;
  $("title").replaceChildren(named, text.slice(name.length));
}

async function show(answer, { dealt = false } = {}) {
  if (!layoutOf(answer.game)) await loadGames().catch(() => null); // the board is drawn from it
  const ticket = ++showing;
  const same = view?.id === answer.id;
  const before = same ? view.board : null;
  view = answer;
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("status").hidden = false;
  document.body.dataset.mode = answer.mode;
  showTitle(answer);
  $("score").textContent = answer.score;
  const over = answer.outcome !== null;
  $("undo").disabled = !answer.can_undo;
  const why = answer.can_undo || over ? "" : undoWords(answer.undo_refusal);
  $("undo").title = why ? `Undo (u): ${why}` : "Undo (u)";
  // practice plays the rules of record; where they refuse an undo, say where free undo is
  const elsewhere = answer.mode === "practice" && why && !/nothing/.test(why) ? " (relaxed play undoes anything)" : "";
  $("undo-why").textContent = why ? `Undo is off: ${why}${elsewhere}.` : "";
  $("end").disabled = over;
  $("hint").disabled = over || hintPending;
  $("restart").disabled = over;
  // a tournament's attempt deals no other game: the Lobby button (and the tournament's
  // page) are the way on
  $("new-deal").hidden = Boolean(auth?.request?.tournament);
  for (const button of document.querySelectorAll(".practice-only")) button.hidden = answer.mode === "timed";
  $("end").title = answer.mode === "relaxed" ? "Stop this game" : "Stop and collect the time bonus";
  // the deal's label (a practice deal's number, else the game's code, never the seed of a
  // deal still secret); a link to deal it again once the deal is public
  const link = dealLink(answer);
  const label = dealLabel(answer);
  $("deal").hidden = !label;
  $("deal").textContent = label;
  if (link) {
    $("deal").href = link;
    $("deal").title = "This deal's link: copy it to share the deal";
  } else {
    $("deal").removeAttribute("href");
    $("deal").title = "This game's code (its deal is shown when the game is over)";
  }
  $("counters").textContent = counterText(answer);
  setClock(answer);
  updateSkip();
  if (!same) { stuck.reset(); stuckDismissed = false; resetFit(board); }
  // What moved, said and heard; the play-out flies home before the board after it.
  let heard = null;
  if (answer.last && !answer.repeated) {
    const points = answer.last.total_points;
    if (points && answer.mode !== "relaxed") flashPoints(points);
    // a relaxed game has no score: what it says of a move names no points
    const said = answer.mode === "relaxed" ? { ...answer.last, total_points: 0 } : answer.last;
    announce(playedWords(said, before, answer.board, answer.game));
    heard = answer.last.move === "draw" || answer.last.move === "recycle" ? "draw" : "place";
    const steps = answer.last.auto;
    if (steps.length && steps.every((step) => step.card) && !motion.reducedMotion()) {
      motion.finish(board);
      const from = motion.snapshot(board);
      sound.play(heard);
      heard = null;
      await playOut(board, answer, () => ticket === showing, (shown, options) => {
        renderBoard(shown, options);
        motion.animate(board, from);
      });
      if (ticket !== showing) return;
    }
  }
  motion.finish(board);
  const from = same ? motion.snapshot(board) : null;
  renderBoard(answer);
  if (same && !board.dataset.playingOut) {
    const counts = motion.animate(board, from, { origins: input.takeOrigins() });
    if (heard) sound.play(counts.drawn ? "draw" : heard);
    if (counts.flipped) sound.play("flip");
  } else if (dealt) {
    motion.deal(board);
    sound.play("draw");
  }
  input.takeOrigins();
  updateStuck(answer);
  if (answer.result) {
    forgetGame(answer.id);
    if (!games.length) games = await loadGames().catch(() => []); // a game opened by its link
    if (ticket !== showing) return;
    showResult($("result"), answer, {
      timeBonus: gameOf(answer.game)?.time_bonus ?? true,
      daily: Boolean(auth?.request?.daily),
    });
    if (answer.result.won) sound.play("win");
    announce(`${$("result-title").textContent}${answer.mode === "relaxed" ? "" : ` Score ${answer.result.score}.`}`);
    document.dispatchEvent(new CustomEvent("patience:ended", { detail: answer }));
  } else $("result").hidden = true;
}

function undoWords(reason) {
  if (!reason) return "";
  if (/turned up/.test(reason)) return "a card turned up cannot be taken back";
  if (/draw/.test(reason)) return "a draw cannot be taken back";
  if (/nothing/.test(reason)) return "nothing to take back yet";
  return reasonWords(reason).replace(/^./, (c) => c.toLowerCase());
}

// The game's counter beside the score ("Run 3"), as its layout names it.
function counterText(answer) {
  const counter = layoutOf(answer.game)?.counter;
  return counter ? `${counter.label} ${answer.board[counter.field] ?? 0}` : "";
}

// The variant as every page names it (dom.js): ", draw 3" on the table, in the history,
// the statistics and the replay alike.
function variantText(variant) {
  const words = variantWords(variant);
  return words ? `, ${words}` : "";
}

function flashPoints(points) {
  const element = $("points");
  element.textContent = `${points > 0 ? "+" : ""}${points}`;
  element.classList.remove("show");
  placePoints(element);
  void element.offsetWidth; // restart the animation
  element.classList.add("show");
}

// What the points a move made never cover: the header's links and buttons, the table's
// controls, and (placePoints) the words of the game's title, deal, clock and score.
const UNCOVERED = ".bar a, .bar button, #table .controls :is(button, input, summary, select, a)";
const FALL = 12; // pixels: how far the points fall as they fade (style.css, @keyframes drop)

// Where the points show: the first of these places whose box (with its fall) meets nothing
// of UNCOVERED, lies in the window and, but for the last two, covers no card: under the
// bar's right end, by the score; in the free room of the table's row of controls, by its
// right-hand ones; in the bar, left of the game's title; under the bar by the score, or
// under the table's controls, over the board.
function placePoints(element) {
  const box = element.getBoundingClientRect();
  const rect = (item) => item.getBoundingClientRect();
  const bar = rect(document.querySelector(".bar"));
  const score = rect($("score-box"));
  // (where the header's words begin: a line of its own, on a phone, is wider than they are)
  const inked = (item) => {
    const range = document.createRange();
    range.selectNodeContents(item);
    return range.getBoundingClientRect();
  };
  const shown = [...document.querySelectorAll("#status > :not(#points)")].map(inked).filter((r) => r.width);
  const first = Math.min(...shown.map((r) => r.left));
  const places = [
    { left: score.right - box.width, top: bar.bottom + 6 },
    ...[...document.querySelectorAll("#table > .controls > .spacer")].map(rect).filter((r) => r.width > box.width + 16)
      .map((r) => ({ left: r.right - box.width - 8, top: r.top + (r.height - box.height) / 2 })),
    { left: first - box.width - 10, top: bar.top + (bar.height - box.height) / 2 },
    { left: score.right - box.width, top: bar.bottom + 6, over: true },
    ...[...document.querySelectorAll("#table > .controls")].map(rect).filter((r) => r.height && r.bottom < window.innerHeight / 2)
      .map((r) => ({ left: score.right - box.width, top: r.bottom + 6, over: true })),
  ];
  const boxes = (selector) => [...document.querySelectorAll(selector)].map(rect).filter((r) => r.width && r.height);
  const obstacles = [...boxes(UNCOVERED), ...shown];
  const cards = boxes("#board .card, #board .pile");
  const meets = (left, top) => (r) => left < r.right && left + box.width > r.left && top < r.bottom && top + box.height + FALL > r.top;
  const clear = ({ left, top, over = false }) => left >= 0 && left + box.width <= window.innerWidth && top >= 0
    && !obstacles.some(meets(left, top)) && (over || !cards.some(meets(left, top)));
  const { left, top } = places.find(clear) ?? places.at(-1);
  element.style.left = `${Math.round(left)}px`;
  element.style.top = `${Math.round(top)}px`;
}

function announce(text) {
  $("announce").textContent = text;
}

// "No more moves" (in a game whose layout watches for it, judged from what the player has
// seen): say so and offer the end.
function updateStuck(answer) {
  const now = stuck.update(answer);
  if (!now) stuckDismissed = false;
  const shown = now && !stuckDismissed && !answer.outcome;
  if (shown && $("stuck").hidden) announce("No more moves: only draws are left. You can end the game.");
  $("stuck").hidden = !shown;
}

$("stuck-end").addEventListener("click", () => {
  $("stuck").hidden = true;
  enqueue((count) => api.end(auth.id, auth.token, count));
});
$("stuck-keep").addEventListener("click", () => {
  stuckDismissed = true;
  $("stuck").hidden = true;
  board.querySelector('.stop[tabindex="0"]')?.focus();
});

let version = 0;
function renderBoard(answer, options = {}) {
  const hadFocus = board.contains(document.activeElement);
  board.dataset.version = String(++version); // tests wait for the next answer by this
  // (the help line first: the board is fitted above it)
  const touch = window.matchMedia("(pointer: coarse)").matches;
  $("help").textContent = wordOf(answer.game, touch ? "help_touch" : "help_pointer");
  $("move-input").placeholder = wordOf(answer.game, "move_example");
  drawBoard(board, answer, options);
  input.afterDraw({ hadFocus });
}

// -- moves -------------------------------------------------------------------------------

// Moves go to the server one at a time, each from the view the one before it answered, so
// that the move count a request names is the one the server will find (a move typed while
// another is on its way waits for it instead of being taken for a retry).
let pending = Promise.resolve();
// The game moved on elsewhere (another tab or device played it): the moves asked for from
// the board this tab showed before are dropped, never played on a board the player has not
// seen. Each catch-up starts a new epoch; a queued request of an older one is not sent.
let epoch = 0;
const MOVED_ON = "This game moved on in another tab or device; the table now shows where it stands.";

function enqueue(request, refuse = null) {
  let accepted = false;
  const asked = epoch;
  pending = pending.then(async () => {
    if (!auth || !view || view.outcome || asked !== epoch) return;
    const why = refuse?.(view);
    if (why) { refusedHere(why); return; }
    const id = auth.id;
    const count = view.move_count;
    try {
      const answer = await request(count);
      if (view?.id !== id) return; // the player left this game meanwhile
      accepted = true;
      // The same move was played at that place already, and more since: another tab or
      // device played it (a retry of this tab's own would find no move after it).
      if (answer.repeated && answer.move_count > count + 1) { await caughtUpWith(answer); return; }
      show(answer);
    } catch (error) {
      if (view?.id !== id) return;
      // refused as not legal, or as made from an old board: the game as the server has it
      // says which (a game moved on elsewhere is caught up with, not refused)
      if (error instanceof ApiError && error.status === 409 && (await catchUp(id, count))) return;
      refused(error);
    }
  });
  return pending.then(() => accepted);
}

// Read the game again; if it is no longer at move `count` (played, undone or ended in
// another tab or device), show it as it stands, say so, and drop the moves queued from the
// old board. Resolves to whether it had moved on.
async function catchUp(id, count) {
  let answer;
  try {
    answer = await api.read(id, auth.token);
  } catch (_) {
    return false;
  }
  if (view?.id !== id || answer.move_count === count) return false;
  await caughtUpWith(answer);
  return true;
}

// Show the game as it stands elsewhere (`answer`), saying so; the moves queued from the
// board shown before are dropped.
async function caughtUpWith(answer) {
  epoch++;
  input.clearPick();
  clearHint();
  await show({ ...answer, last: null, repeated: false });
  $("error").textContent = MOVED_ON;
  announce(MOVED_ON);
}

// Back to this tab (it was hidden, or another window had the focus): the game may have
// moved on elsewhere meanwhile. Asked in the moves' queue, after any move on its way.
let catching = false;
function catchUpOnReturn() {
  if (catching || document.hidden || !auth || !view || view.outcome || $("table").hidden) return;
  catching = true;
  pending = pending.then(async () => {
    try {
      if (auth && view && !view.outcome) await catchUp(view.id, view.move_count);
    } finally {
      catching = false;
    }
  });
}
window.addEventListener("focus", catchUpOnReturn);
document.addEventListener("visibilitychange", catchUpOnReturn);

// `refuse(view)`, if given, is the client's own check of the move on the view it would be
// played on (after the moves before it in the queue): words saying why it is not legal
// there refuse it at once, nothing sent; null sends it. The server still referees it.
function send(move, { refuse = null } = {}) {
  if (!auth || !view || view.outcome) return Promise.resolve(false);
  $("error").textContent = "";
  clearHint();
  return enqueue((count) => api.move(auth.id, auth.token, move, count), refuse);
}

// A move refused by the client's own check of the rules (no request was sent): the same
// words, sound and spoken refusal as the server's.
function refusedHere(reason) {
  $("error").textContent = reason;
  announce(`Not allowed: ${reason}`);
  sound.play("refuse");
  input.clearPick();
}

function refused(error) {
  const reason = reasonWords(error.message);
  $("error").textContent = reason;
  announce(`Not allowed: ${reason}`);
  sound.play("refuse");
  input.clearPick();
  if (error instanceof ApiError && error.status === 409 && /time is up|over/.test(error.message)) refresh();
}

async function refresh() {
  if (!auth || !view) return;
  const id = auth.id;
  try {
    const answer = await api.read(auth.id, auth.token);
    if (view?.id === id) show(answer);
  } catch (_) { /* the next tick tries again */ }
}

// A message of the table fades after a few seconds, longer for longer words: it floats over
// the foot of the board, and once read it only hides the cards under it. Every message is
// news (a refusal, a hint, a copied link...): what needs the player's action has a bar or a
// dialog of its own, which stays. Faded, its words stay in the page for a screen reader, and
// those announced stay in the live region; work under way ("Looking for a good move…") stays
// until its answer replaces it.
const MESSAGE_SHOWN = { least: 4000, perCharacter: 50, most: 10000 }; // milliseconds
const message = $("error");
let fading = 0;
new MutationObserver(() => {
  clearTimeout(fading);
  message.classList.remove("faded");
  const words = message.textContent;
  if (!words || words.endsWith("\u2026")) return;
  const shown = Math.min(MESSAGE_SHOWN.most, MESSAGE_SHOWN.least + MESSAGE_SHOWN.perCharacter * Math.max(0, words.length - 40));
  fading = setTimeout(() => message.classList.add("faded"), shown);
}).observe(message, { childList: true, characterData: true, subtree: true });

const board = $("board");
keepMessagePlaced(message, board); // (in free felt, over no card or control: messages.js)
const input = attachInput(board, {
  view: () => view,
  send,
  say: announce,
  tell: (words) => { $("error").textContent = words; announce(words); },
  sound: (name) => sound.play(name),
  action: (word, how) => stockPressed(word, how),
});

// What turning the waste over costs now, as the game's layout says (null: nothing).
function recycleCost(answer) {
  const board = answer.board;
  const cost = (layoutOf(answer.game)?.recycle_cost ?? []).find((each) =>
    Object.entries(each.variant).every(([key, value]) => board.variant?.[key] === value));
  return cost && (board.recycles ?? 0) >= cost.free ? cost.points : null;
}

const KEPT = "Not turned over: the waste stays as it is.";

// The stock pressed: a draw, or a recycle, which asks first when it costs points, whether
// it came from a click, a tap or a key (one rule), until the player says not to ask again.
async function stockPressed(word) {
  const points = view.mode !== "relaxed" ? recycleCost(view) : null;
  if (word === "recycle" && points && !setting("recycleWithoutAsking", false)) {
    const yes = await ask(`The hand is empty. Turn the waste over to the hand for -${points} points?`, "Turn it over", {
      option: {
        label: "Don't ask again",
        answered: (checked, answer) => { if (checked && answer) keepSetting("recycleWithoutAsking", true); },
      },
    });
    if (!yes) {
      // said, so that a player answering by keys hears the answer was taken
      $("error").textContent = KEPT;
      announce(KEPT);
      return;
    }
  }
  send(word);
}

function clearHint() {
  for (const lit of board.querySelectorAll(".hint-source, .hint-dest")) lit.classList.remove("hint-source", "hint-dest");
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

// A hint is worded and lit from the board it was asked for: an answer that comes once the
// board has changed is not shown (it would name cards no longer there).
// One hint is asked at a time: the button shows it is thinking until the answer comes (so
// quick presses never meet the server's limit on hints).
// The server answers a hint within its search budget and a little more (routers/sessions.py:
// HINT_WAIT_SECONDS, 3.5 s in all by default); should the answer still be lost on the way,
// the player is told after HINT_PATIENCE, never left waiting in silence.
const HINT_PATIENCE = 15000; // milliseconds
const NO_HINT_IN_TIME = "No hint found in time; try again in a moment.";
let hintPending = false;
function thinking(on) {
  hintPending = on;
  $("hint").classList.toggle("thinking", on);
  $("hint").setAttribute("aria-busy", String(on));
  $("hint").disabled = on || Boolean(view?.outcome);
}
// A hint refused for the limit on hints (429): when the server takes them again, and why,
// so that a press before then says how long is left without asking.
let hintsBack = null; // { at: performance.now() of the end of the wait, detail }
function hintLimitWords(seconds, detail) {
  const wait = seconds === 1 ? "1 second" : `${seconds} seconds`;
  if (/address/.test(detail)) return `Too many hints from your network just now (everyone on it shares that limit). Ask again in ${wait}.`;
  const limit = /at most (\d+) at once and ([^;]+)/.exec(detail);
  return `That is all the hints for now${limit ? ` (${limit[1]} at once, ${limit[2]})` : ""}. Ask again in ${wait}.`;
}
function sayHintLimit() {
  const words = hintLimitWords(Math.max(1, Math.ceil((hintsBack.at - performance.now()) / 1000)), hintsBack.detail);
  $("error").textContent = words;
  announce(words);
}
// The hint last found, with the board it is for: pressed again on that board, Hint shows it
// again without asking the server (whose hints are limited); a board changed since is asked.
let knownHint = null;
const boardKey = (shown) => `${shown.id}:${shown.move_count}:${JSON.stringify(shown.board)}`;
$("hint").addEventListener("click", async () => {
  if (hintPending) return;
  clearHint();
  const asked = view;
  if (knownHint && asked && knownHint.key === boardKey(asked)) { showHint(knownHint.hint, asked); return; }
  if (hintsBack && performance.now() < hintsBack.at) { sayHintLimit(); return; }
  thinking(true);
  $("error").textContent = "Looking for a good move\u2026"; // at once: the press was heard
  let late;
  try {
    const hint = await Promise.race([
      api.hint(auth.id, auth.token),
      new Promise((resolve) => { late = setTimeout(() => resolve({ move: null, reason: NO_HINT_IN_TIME }), HINT_PATIENCE); }),
    ]);
    if (view !== asked) { if ($("error").textContent.startsWith("Looking for")) $("error").textContent = ""; return; }
    if (!hint.move) { $("error").textContent = reasonWords(hint.reason); announce(hint.reason); return; }
    knownHint = { key: boardKey(asked), hint };
    showHint(hint, asked);
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) {
      // over the limit on hints: how long to wait, from Retry-After or the reason's words
      const seconds = error.retryAfter ?? (Number(/in (\d+) s\b/.exec(error.message)?.[1]) || 10);
      hintsBack = { at: performance.now() + seconds * 1000, detail: String(error.detail ?? "") };
      if (view === asked) sayHintLimit();
    } else if (view === asked) refused(error);
  } finally { clearTimeout(late); thinking(false); }
});
// A hint worded and lit on the board it was found for.
function showHint(hint, asked) {
  const words = moveWords(hint.move, asked.board, asked.game);
  $("error").textContent = `Hint: ${words}.`;
  announce(`Hint: ${words}`);
  const [source, dest] = hint.move.split(">");
  const src = sourceOf(hint.move, asked.board, asked.game);
  const from = board.querySelector(`[data-src="${src}"]`) ?? board.querySelector(`[data-action="${source}"]`)
    ?? board.querySelector(`.column[data-dest="${source}"] .card:last-child`);
  from?.classList.add("hint-source");
  if (dest) {
    const target = dest === "f"
      ? board.querySelectorAll('[data-dest="f"]')[homeIndex(from?.dataset.card, asked.board, asked.game)] ?? board.querySelector('[data-dest="f"]')
      : board.querySelector(`.column[data-dest="${dest}"] .card:last-child`) ?? board.querySelector(`[data-dest="${dest}"]`);
    target?.classList.add("hint-dest");
  }
}
// Which foundation pile a card goes to: its suit's (foundations one a suit), or the pile it
// builds on, else the first empty one.
function homeIndex(card, position, game) {
  if (!card) return 0;
  const suit = card.slice(-1);
  if (!Array.isArray(position.foundation)) return Math.max(0, Object.keys(position.foundation).indexOf(suit));
  const ranks = "A23456789TJQK";
  const below = ranks[(ranks.indexOf(card[0]) + 12) % 13] + suit;
  // (an ace goes on a king only where the foundations turn the corner)
  const wrap = layoutOf(game)?.rows.some((line) => line.piles?.some((pile) => pile.kind === "foundation" && pile.wrap));
  const onto = card[0] === "A" && !wrap ? -1 : position.foundation.findIndex((slot) => slot?.top === below);
  return onto >= 0 ? onto : Math.max(0, position.foundation.findIndex((slot) => slot === null));
}

$("restart").addEventListener("click", async () => {
  $("card-menu").open = false;
  if (!(await ask("Deal this game again from the start?", "Restart"))) return;
  // the same deal again, by its seed (the server keeps a catalog deal's tier)
  const { difficulty, ...request } = auth.request;
  forgetGame(auth.id);
  startAgain({ ...request, seed: view.seed });
});

// A new game from the table: the same kind of game, a new deal; a game still running asks
// first (a timed one ends with its score as it stands).
$("new-deal").addEventListener("click", async () => {
  if (!view) return;
  const running = !view.outcome;
  if (running) {
    const words = view.mode === "timed" ? " This game ends with its score as it stands." : " This game ends.";
    if (!(await ask(`Deal a new game?${words}`, "New game"))) return;
    try {
      await api.end(auth.id, auth.token, view.move_count);
    } catch (_) { /* over already */ }
    forgetGame(auth.id);
  }
  const { seed, numbered: _numbered, daily: _daily, ...request } = auth.request;
  startAgain(request.daily ? { game: request.game, variant: request.variant, mode: "timed" } : request);
});
$("again").addEventListener("click", () => {
  const { seed, numbered: _numbered, daily: isDaily, ...request } = auth.request;
  if (isDaily) { showLobby(); return; }
  startAgain(request);
});
$("replay-deal").addEventListener("click", () => {
  const { difficulty, daily: _daily, ...request } = auth.request;
  startAgain({ ...request, mode: "practice", seed: view.seed });
});
$("to-lobby").addEventListener("click", toLobby);
// The table's own way back, labelled (the title does the same): the game goes on meanwhile.
$("back-to-lobby").addEventListener("click", () => $("home").click());
$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  if (asking()) return; // the question is answered first
  const move = $("move-input").value.trim();
  $("move-input").value = "";
  if (move === "undo") $("undo").click();
  else if (move === "end") $("end").click();
  else if (move) send(move);
});

// The deal's link is what is shared: pressing the deal number copies it.
async function copyLink(answer, done) {
  const link = new URL(dealLink(answer), location.origin).href;
  try {
    await navigator.clipboard.writeText(link);
    done(`Link to ${dealLabel(answer).replace(/^Deal/, "deal")} copied: ${link}`);
  } catch (_) {
    done(`The deal's link: ${link}`);
  }
}
$("deal").addEventListener("click", (event) => {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return; // a new tab: the link
  event.preventDefault();
  if (view && dealLink(view)) copyLink(view, (words) => { $("error").textContent = words; announce(words); });
});
$("share").addEventListener("click", () => {
  if (view) copyLink(view, (words) => { $("share-done").textContent = words; });
});

// -- keys --------------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (board.dataset.playingOut) { motion.finish(board); return; } // a key ends the play-out
  if (board.dataset.animating) motion.finish(board); // and any motion (a deal): never waited for
  if (asking() || !$("result").hidden) return;
  if (!view || $("table").hidden || event.target.matches("input, select, textarea")) return;
  if (!["Tab", "Shift", "Control", "Alt", "Meta"].includes(event.key)) $("error").textContent = ""; // the next action clears a message
  if (input.keydown(event)) return;
  if (event.target.matches("button, a, summary") && (event.key === "Enter" || event.key === " ")) return;
  const key = event.key.toLowerCase();
  if (key === "u") {
    event.preventDefault();
    if (!$("undo").disabled) $("undo").click();
    else if ($("undo-why").textContent) {
      $("error").textContent = $("undo-why").textContent;
      announce(`Not allowed: ${$("undo-why").textContent}`); // as a refused move is said
      sound.play("refuse");
    }
    return;
  }
  if (key === "m") { event.preventDefault(); toggleSound(); return; }
  if (key === "/") { event.preventDefault(); $("move-input").focus(); return; }
  if (layoutOf(view.game)?.direct) {
    // a game played card by card: a column's number plays it, space and d draw
    if (/^[1-9]$/.test(key) && Number(key) <= (view.board.tableau?.length ?? 0)) { event.preventDefault(); send(`t${key}`); }
    else if (key === " " || key === "d") { event.preventDefault(); send("draw"); }
    return;
  }
  if (key === "d" || key === " ") {
    event.preventDefault();
    const stock = board.querySelector("[data-action]");
    if (stock) { input.clearPick(); stockPressed(stock.dataset.action, { fromKey: true }); }
  }
});
// A press anywhere ends the play-out (the board after it is drawn at once), and clears the
// message of the action before (what this press does may say something new).
document.addEventListener("pointerdown", (event) => {
  if (board.dataset.playingOut) motion.finish(board);
  // (a press on the board ends the motion itself, where it takes a card in flight as seen)
  else if (board.dataset.animating && !board.contains(event.target)) motion.finish(board);
  if (!$("table").hidden) $("error").textContent = "";
}, true);

// A dialog keeps the focus: Tab and Shift+Tab go round its controls.
for (const overlay of [$("result"), $("confirm")]) {
  overlay.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const controls = [...overlay.querySelectorAll("button:not([hidden]), a[href], input:not([hidden])")].filter((item) => item.offsetParent !== null);
    const index = controls.indexOf(document.activeElement);
    const next = (index + (event.shiftKey ? -1 : 1) + controls.length) % controls.length;
    event.preventDefault();
    controls[next].focus();
  });
}

// -- the skip link ------------------------------------------------------------------------

// First in the page: to the cards when a game is on the table, else to the new game.
function updateSkip() {
  const atTable = !$("table").hidden;
  $("skip").textContent = atTable ? "Skip to the cards" : "Skip to the games";
  $("skip").href = atTable ? "#board" : "#new-game";
}
$("skip").addEventListener("click", (event) => {
  event.preventDefault();
  if (!$("table").hidden) (board.querySelector('.stop[tabindex="0"]') ?? board.querySelector(".stop"))?.focus();
  else document.querySelector("#game-choice input:checked")?.focus();
});

// -- sound, the look and the options menu -----------------------------------------------

function drawSound() {
  const on = !sound.isMuted();
  $("sound").setAttribute("aria-pressed", String(on));
  $("sound").title = on ? "Sound on (m to mute)" : "Sound off (m for sound)";
}
function toggleSound() {
  sound.setMuted(!sound.isMuted());
  drawSound();
  announce(sound.isMuted() ? "Sound off" : "Sound on");
}
$("sound").addEventListener("click", toggleSound);
drawSound();

$("look-options").append(...lookControls(""));
$("table-look").append(...lookControls("table-"));
onLookChange((_, changes) => {
  if ("largeIndex" in changes && view) { resetFit(board); fitBoard(board); } // wider strips between cards
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

// The clock is written only when what it shows changes: a timer wakes it as the shown
// second turns, and an answer that sets the clock draws it at once. (Drawn every frame, an
// idle table kept the browser repainting the same text, and a phone's battery with it.)
function tick() {
  clearTimeout(clockTimer);
  let wait = 1000; // nothing running: look again in a second (the table shown, a new clock)
  if (clockBase && view && !$("table").hidden) {
    const elapsed = clockBase.running ? (performance.now() - clockBase.at) / 1000 : 0;
    const remaining = Math.max(0, clockBase.remaining - elapsed);
    const whole = Math.ceil(remaining);
    writeText($("clock"), `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`);
    $("clock").classList.toggle("low", clockBase.running && remaining < 30);
    if (clockBase.running && remaining <= 0) {
      clockBase.running = false;
      refresh(); // the server decides the timeout
    } else if (clockBase.running) {
      wait = (remaining - (whole - 1)) * 1000 + 5; // until the shown second turns
    }
  }
  clockTimer = setTimeout(tick, wait);
}
/** Sets the clock from a server's answer and draws it at once. */
function setClock(answer) {
  clockBase = { remaining: answer.clock.remaining, at: performance.now(), running: answer.clock.running && answer.mode !== "relaxed" };
  tick();
}
tick();

// A practice or relaxed game's clock stops while the page is hidden (a timed game's never).
// Shown again, the clock is drawn at once: a hidden page's timers may be held back (for a
// minute and more).
document.addEventListener("visibilitychange", async () => {
  if (!document.hidden) tick();
  if (!view || !auth || view.outcome || view.mode === "timed") return;
  const id = auth.id;
  try {
    const answer = document.hidden ? await api.pause(id, auth.token) : await api.resume(id, auth.token);
    if (view?.id === id && !document.hidden) {
      setClock(answer);
    }
  } catch (_) { /* the next move starts it again */ }
});

// -- start -------------------------------------------------------------------------------

$("home").addEventListener("click", (event) => { event.preventDefault(); toLobby(); });
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

// Another part of the page (a tournament's attempt, a daily deal) opens a game it started.
document.addEventListener("patience:play", (event) => {
  const { answer, token, request } = event.detail;
  open({ ...answer, token: token ?? answer.token }, request, { dealt: answer.move_count === 0 });
});
document.addEventListener("patience:daily", (event) => startDaily(event.detail.game, event.detail.variant));
document.addEventListener("patience:refresh", () => refresh());

// A deal by its link (links.js: /?game=NAME&OPTION=VALUE&seed=42, or the route
// #/play/NAME?...): checked against the games' settings first, then dealt as a practice
// game. The link's own entry of the history becomes the game's (Back goes to the page the
// link was followed from; a reload finds the game dealt, not a new one). A link that cannot
// be dealt says why on a page of its own, with the way to the lobby.
async function dealLinked(link) {
  const { request, problems, title } = linkRequest(link, games);
  history.replaceState({ table: true }, "", "/");
  if (problems.length) { await linkRefused(title, problems.join(" ")); return; }
  try {
    await startGame(request);
  } catch (error) {
    await linkRefused(title, reasonWords(error.message));
  }
}

async function linkRefused(title, words) {
  if (history.state?.table === true) history.replaceState({ lobby: true }, "", "/");
  auth = null;
  await showLobby();
  problemPage(`This ${title ?? "game"} link cannot be dealt`, words);
}

// A deal's link followed as a route, within the page.
window.addEventListener("hashchange", () => {
  if (/^#\/play\//.test(location.hash)) dealLinked(playLink(location));
});

// The page opened: a game's address opens that game (for its player), a deal's link deals
// it, and any other address (the site's root, a page's route) opens the lobby, where a game
// in progress waits in its Continue. (A reload of a table's entry reopens that entry's game:
// its address is the game's.)
async function resume() {
  // the games' rules (the result names a time bonus only for a game that has one)
  games = await loadGames().catch(() => []);
  loadLook();
  const addressed = new URLSearchParams(location.search).get("session")
    ?? (typeof history.state?.table === "string" && !location.hash ? history.state.table : null);
  if (addressed) return openAddressed(addressed);
  const link = playLink(location);
  if (link) return dealLinked(link);
  if (history.state?.table) history.replaceState({ lobby: true }, "", "/"); // a deal that never came
  auth = null;
  showLobby();
}

currentLook();
resume();
