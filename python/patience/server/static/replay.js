// The replay viewer: a finished game of one's own (#/replay/ID), or one open to everyone
// (#/watch/ID: a closed tournament's, a daily deal's once its day is over), step by step
// from its record (the board its player saw after each move), drawn by the table's own
// board code, each move said in words. Back, forward, play and pause, first and last, a
// slider, and the arrow keys, Home, End and space.

import { accounts } from "./api.js";
import { dealLabel, h, LOBBY_LINK, notFound, pageKeys, variantWords } from "./dom.js";
import { loadGames } from "./games.js";
import { stepWords } from "./words.js";

const PACE = 700; // milliseconds a move while playing
const MIN_ROOM = 120; // pixels: the smallest board drawn, on the shortest window

/** #/watch/ID: another player's game, open to everyone. */
export const watchPage = (page, id) => replayPage(page, id, { open: true });

// Whether the box of `item` meets any of `others`.
function meets(item, others) {
  const r = item.getBoundingClientRect();
  return [...others].some((other) => {
    const o = other.getBoundingClientRect();
    return o.width > 0 && r.left < o.right && r.right > o.left && r.top < o.bottom && r.bottom > o.top;
  });
}

export async function replayPage(page, id, { open = false } = {}) {
  const crumb = open
    ? h("a", { href: "#", onclick: (event) => { event.preventDefault(); history.back(); } }, "Back")
    : h("a", { href: "#/history" }, "Back to your history");
  // its words and controls beside the board on a wide screen (the board as large as the
  // table's), above it on a narrow one (pages.css)
  const side = h("div", { class: "replay-side" }, h("p", { class: "crumbs" }, crumb), h("h2", {}, "Replay"));
  const view = h("div", { class: "replay" }, side);
  page.append(view);
  let replay;
  let drawBoard;
  try {
    // (the board is drawn from the game's layout: the games are loaded first)
    [replay, { drawBoard }] = await Promise.all([open ? accounts.publicReplay(id) : accounts.replay(id), import("./board.js"), loadGames()]);
  } catch (error) {
    // a game there is none of, or not this player's: a page of its own says so
    if ([401, 403, 404].includes(error.status)) {
      view.remove();
      const guest = error.status === 401; // (nobody signed in: a player's replays are theirs)
      const where = open
        ? [["#/tournaments", "See the tournaments"], ["#/daily", "See the daily deals"], LOBBY_LINK]
        : guest ? [["#/account", "Sign in"], LOBBY_LINK] : [["#/history", "Your history of games"], LOBBY_LINK];
      const words = open
        ? "There is no game with that id open to everyone: a tournament's games open at its close, a daily deal's once its day is over; the link may also be mistyped."
        : guest ? "A game's replay is shown to its player: sign in to see the replays of your games. The link may also be mistyped."
          : "There is no game of yours with that id: the link may be mistyped, or the game is another player's (sign in as its player to see it).";
      notFound(page, `No replay of game ${id}`, words, where);
    } else page.append(h("p", { class: "error", role: "alert" }, `This replay could not be read: ${error.message}`));
    return;
  }
  const steps = replay.steps;
  const scored = replay.mode !== "relaxed"; // a relaxed game has no score: its replay names no points
  const last = steps.length - 1;
  let index = 0;
  let timer = null;

  const board = h("div", { id: "replay-board", class: "replay-board", role: "img" });
  const caption = h("p", { id: "replay-step", "aria-live": "polite" });
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: last, value: 0, "aria-label": "Move number" });
  // (each button a mark and a word: a phone's bar at the screen's foot shows the marks
  // alone, pages.css)
  const labelled = (mark, word, after = false) => {
    const words = h("span", { class: "word" }, word);
    return after ? [words, h("span", { class: "mark" }, mark)] : [h("span", { class: "mark" }, mark), words];
  };
  const button = (id, label, text, action) => h("button", { type: "button", id, "aria-label": label, title: label, onclick: action }, ...text);
  const first = button("replay-first", "First position", labelled("\u00ab", "First"), () => go(0));
  const back = button("replay-back", "Back one move", labelled("\u2039", "Back"), () => go(index - 1));
  const playing = button("replay-play", "Play", labelled("\u25b6", "Play"), () => toggle());
  const forward = button("replay-forward", "Forward one move", labelled("\u203a", "Forward", true), () => go(index + 1));
  const end = button("replay-last", "Last position", labelled("\u00bb", "Last", true), () => go(last));
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": "Replay controls" }, first, back, playing, forward, end, slider);

  page.querySelector("h2").textContent = `Replay: ${replay.title}${variantWords(replay.variant) ? `, ${variantWords(replay.variant)}` : ""}${replay.mode && replay.mode !== "timed" ? ` (${replay.mode})` : ""}${replay.player ? `, ${replay.player}'s game` : ""}`;
  side.append(
    h("p", { class: "help" }, `${dealLabel(replay)}${replay.tier ? `, tier ${replay.tier} of 10` : ""}; ${last} move${last === 1 ? "" : "s"}.`,
      h("span", { class: "keys" }, " Keys: \u2190 \u2192 step, space plays or pauses, Home and End.")),
    controls, caption);
  view.append(board);

  function draw() {
    const step = steps[index];
    // the caption first: its lines are above the board, and the board fits below them
    caption.textContent = index === 0
      ? `The deal (move 0 of ${last}).`
      : `Move ${index} of ${last}: ${stepWords(step.move, steps[index - 1].board, step.board, replay.game)}.${scored ? ` Points so far: ${step.points}.` : ""}`;
    board.dataset.step = String(index);
    board.setAttribute("aria-label", `The board after move ${index} of ${last}`);
    fit();
    slider.value = String(index);
    first.disabled = back.disabled = index === 0;
    forward.disabled = end.disabled = index === last;
    if (index === last) pause();
  }

  // The whole board in view beside or below the controls, on any screen: fitted to the
  // room left under its top, then smaller by whatever still runs past the window's bottom (the page's
  // own margins and padding).
  function fit() {
    view.classList.remove("side-apart");
    fitBoard();
    // (words and controls laid in a corner of the board's, pages.css, that meet a card
    // stand in a column of their own instead)
    if (meets(side, board.querySelectorAll(".card, .pile"))) {
      view.classList.add("side-apart");
      fitBoard();
    }
  }

  function fitBoard() {
    const shown = { game: replay.game, board: steps[index].board };
    // (a phone's bar of controls, fixed at the screen's foot, keeps its room)
    const bar = getComputedStyle(controls).position === "fixed" ? controls.getBoundingClientRect().height : 0;
    const room = Math.max(MIN_ROOM, window.innerHeight - (board.getBoundingClientRect().top + window.scrollY) - bar - 4);
    let height = room;
    for (let tries = 0; tries < 4; tries++) {
      drawBoard(board, shown, { interactive: false, height });
      const over = document.documentElement.scrollHeight - window.innerHeight;
      if (over <= 0 || height <= MIN_ROOM) return;
      height = Math.max(MIN_ROOM, height - over);
    }
  }

  function go(to) {
    index = Math.max(0, Math.min(last, to));
    draw();
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    playing.replaceChildren(...labelled("\u25b6", "Play"));
    playing.setAttribute("aria-label", "Play");
  }

  function toggle() {
    if (timer) return pause();
    if (index === last) go(0);
    playing.replaceChildren(...labelled("\u275a\u275a", "Pause"));
    playing.setAttribute("aria-label", "Pause");
    timer = setInterval(() => go(index + 1), PACE);
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  const keys = (event) => {
    if (event.target.matches("input:not([type=range]), select, textarea")) return;
    const moves = { ArrowLeft: () => go(index - 1), ArrowRight: () => go(index + 1), Home: () => go(0), End: () => go(last), " ": toggle };
    if (event.target === slider && event.key !== " ") return; // the slider's own keys
    if (event.target.matches("button, a, summary") && (event.key === " " || event.key === "Enter")) return; // it presses the control
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };
  pageKeys.handler = keys;
  const resized = () => fit();
  window.addEventListener("resize", resized);
  draw();
  return () => {
    pause();
    window.removeEventListener("resize", resized);
    if (pageKeys.handler === keys) pageKeys.handler = null;
  };
}
