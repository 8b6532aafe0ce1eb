// How a player moves cards on the board: drag and drop (dropped where the card overlaps
// most, the target lit while dragging, the card gliding back when refused; in a game played
// card by card, its layout's `direct`, a column's card dragged to the waste), tap or click
// (the card plays where it fits best: home, else the best column, else a free cell or the
// hand; a card with no move shakes and the table says why; nothing is held between taps),
// double-click, and keys (arrows and Tab between cards and piles, Enter to pick and to
// place, Enter twice to send home, Escape to let go). Nothing waits for the cards' motion:
// a press or a key finishes it at once.

import { cardName } from "./cards.js";
import { layoutOf } from "./games.js";
import { finish } from "./motion.js";
import { movesOf, noMoveWords, tapMove } from "./moves.js";
import { dropRefusal, placeWords } from "./words.js";

const MOVE_THRESHOLD = 6; // pixels a pointer travels before a press becomes a drag

/**
 * Listen for a player's input on `board`. `hooks`:
 * - view(): the server's last answer (null when no game is on the table);
 * - send(move, { refuse }): plays a move; resolves to true when the server accepted it;
 *   refuse(view), if given, says why the move is refused on the view it would be played on
 *   (null: it is sent), which then refuses it at once with those words, sending nothing;
 * - action(word, { fromKey }): the stock was pressed (draw, recycle);
 * - say(text): announces to screen readers;
 * - tell(text): says it on the table too (a press that lifts nothing, and why);
 * - sound(name): plays a sound (pick).
 * Returns { clearPick, afterDraw(), keydown(event), takeOrigins() }: takeOrigins gives
 * where the cards of the last accepted drop were let go (key -> rect), once.
 */
export function attachInput(board, hooks) {
  let picked = null; // { src, element }
  let drag = null;
  let suppressClick = false; // the click that ends a mouse drag is not a tap
  // A finger's press that has not travelled: it is a tap when the finger lifts, however long
  // it was held (a slow tap is a long press to the browser, which then sends no click).
  let press = null; // { target, x, y }
  let stockPress = false; // the last press was on the stock (it draws when let go there)
  let retarget = null; // { from, to }: the last press (on `from`) clicks `to`: the stock, or a card on its way
  let lastHome = { src: null, at: 0 };
  let lastTap = { src: null, at: 0 }; // the last card a click played (a double click's first)
  let focusMemory = null; // { place, x, y }
  let origins = null; // where a drop's cards were let go, for the motion layer

  // a game played card by card: a card's place is its move (the game's layout, games.js)
  const direct = () => Boolean(layoutOf(hooks.view()?.game)?.direct);
  const canGoHome = (src) => Boolean(hooks.view()?.legal_moves?.includes(`${src}>f`));

  function clearPick() {
    if (picked) picked.element.classList.remove("picked");
    picked = null;
  }

  function pick(src, element) {
    clearPick();
    picked = { src, element };
    element.classList.add("picked");
    hooks.sound?.("pick");
    hooks.say(`Picked the ${cardName(element.dataset.card)}; choose where to put it`);
  }

  // (a place that does not take the card is refused at once, with the reason, from the
  // board the move would be played on: nothing is sent)
  function place(src, dest) {
    const card = board.querySelector(`[data-src="${src}"]`)?.dataset.card;
    clearPick();
    if (src === dest || src.startsWith(`${dest}:`)) return Promise.resolve(false);
    const refuse = card ? (view) => dropRefusal(view, src, card, dest) : null;
    return hooks.send(`${named(src, dest)}>${dest}`, { refuse });
  }

  // A column's exposed card is sent by its place alone (the server moves the run that fits);
  // where the rules need the card named (two groups of a column fit), it is named: the move
  // is then the card's that was dragged or tapped.
  function named(src, dest) {
    const legal = hooks.view()?.legal_moves ?? [];
    if (!/^t\d+$/.test(src) || legal.includes(`${src}>${dest}`)) return src;
    const card = board.querySelector(`[data-src="${src}"]`)?.dataset.card;
    return card && legal.includes(`${src}:${card}>${dest}`) ? `${src}:${card}` : src;
  }

  function sendHome(src) {
    clearPick();
    lastHome = { src, at: performance.now() };
    return hooks.send(`${src}>f`);
  }

  // -- drag and drop ---------------------------------------------------------------------

  function placeOf(element) {
    return element.closest("[data-dest]")?.dataset.dest ?? null;
  }

  // Where a dragged card would land: the place it overlaps most (a column's place runs
  // from its first card to its last).
  function dropTarget(ghostRect, source) {
    const from = placeOf(source);
    let best = null;
    let bestArea = 0;
    for (const dest of board.querySelectorAll("[data-dest]")) {
      if (dest.dataset.dest === from) continue;
      if (direct() && dest.dataset.dest !== "w") continue; // played card by card: to the waste only
      const rect = dest.getBoundingClientRect();
      const width = Math.min(ghostRect.right, rect.right) - Math.max(ghostRect.left, rect.left);
      const height = Math.min(ghostRect.bottom, rect.bottom) - Math.max(ghostRect.top, rect.top);
      const area = width > 0 && height > 0 ? width * height : 0;
      if (area > bestArea) { bestArea = area; best = dest; }
    }
    return best;
  }

  function lightTarget(target) {
    for (const lit of board.querySelectorAll(".drop-ok")) if (lit !== target) lit.classList.remove("drop-ok");
    target?.classList.add("drop-ok");
  }

  function startGhost(event) {
    const ghost = document.createElement("div");
    ghost.className = "dragging board";
    ghost.dataset.game = board.dataset.game;
    for (const name of ["--card-w", "--card-h", "--index-size"]) ghost.style.setProperty(name, board.style.getPropertyValue(name));
    const rect = drag.source.getBoundingClientRect();
    // held where it was pressed: on the card as it was seen (on its way in) or as it is
    const held = drag.seen ?? rect;
    drag.offset = { x: drag.x - held.left, y: drag.y - held.top };
    drag.home = { left: rect.left, top: rect.top };
    const fan = Number(drag.source.closest(".column")?.dataset.fan ?? 0);
    // the card and every card on it
    const moving = [];
    for (let card = drag.source; card?.classList.contains("card"); card = card.nextElementSibling) {
      if (!drag.source.closest(".column") && card !== drag.source) break;
      moving.push(card);
    }
    moving.forEach((card, index) => {
      const copy = card.cloneNode(true);
      copy.classList.remove("stop", "picked");
      copy.removeAttribute("data-src");
      copy.style.position = "absolute";
      copy.style.left = "0";
      copy.style.top = `${index * fan}px`;
      ghost.append(copy);
      card.classList.add("lifted");
    });
    drag.moving = moving;
    document.body.append(ghost);
    drag.ghost = ghost;
    try { board.setPointerCapture(event.pointerId); } catch (_) { /* a pointer already gone */ }
  }

  function endDrag() {
    for (const card of drag?.moving ?? []) card.classList.remove("lifted");
    lightTarget(null);
    drag = null;
  }

  // What a press is on, and where its card was seen. The cards' motion ends at the press
  // (they jump to where they are going), but a card the player could grab is grabbed where
  // it was seen: a card on its way in (a drawn card sliding over from the stock, narrow as
  // it turns over) is the one pressed when the press is on it as it was seen at its full
  // size, or on where it lands -- not the card that lies there underneath.
  // A press on the stock that falls on a drawn card still flying off it to the waste is
  // the stock's as a tap or a click (`tapped`): it draws (a player rattling the stock draws
  // at every click); dragged, it takes the card. (A card being dealt to a column is pressed
  // where it is seen, over the stock or not.)
  // A press that becomes a drag always takes the drawn card in flight (a player cannot drag
  // the stock): pressed on the stock, the card flying off it (`drawn`) is the one dragged,
  // held under the pointer. And a press over the waste, where the drawn card lands, is
  // never the stock's, whatever the stock's card may still show there.
  function pressedAt(event) {
    const inFlight = [...board.querySelectorAll(".card.moving[data-src]")]
      .map((card) => ({ card, seen: card.getBoundingClientRect() }));
    finish(board); // the cards' motion ends: they are where they are
    const inside = (rect) => event.clientX >= rect.left && event.clientX <= rect.right
      && event.clientY >= rect.top && event.clientY <= rect.bottom;
    const found = grabbed(event, inFlight, inside);
    const landing = inFlight.find(({ card }) => card.dataset.place === "w" && inside(card.getBoundingClientRect()));
    const atStock = stockAt(event.clientX, event.clientY);
    const stock = atStock && !landing && inside(atStock.getBoundingClientRect()) ? atStock : null;
    const dealt = found.flying && found.target.dataset.place !== "w";
    const tapped = stock && !dealt ? stock : found.target;
    let drawn = null;
    if (stock && !found.flying) {
      const flying = inFlight.find(({ card }) => card.dataset.place === "w");
      if (flying) {
        const now = flying.card.getBoundingClientRect();
        const left = event.clientX - now.width / 2;
        const top = event.clientY - now.height / 2;
        drawn = { card: flying.card, seen: { left, top, right: left + now.width, bottom: top + now.height } };
      }
    }
    return { ...found, tapped, drawn };
  }

  // The stock at a point of the page, if it is there as drawn, under whatever lies over it
  // (a drawn card flying off it): its card, or the empty stock's marker (its outline, with
  // the recycle mark when it has one), as the browser finds them, rounded corners and all.
  // Not its box: the felt just outside a card's rounded corner is no stock.
  function stockAt(x, y) {
    for (const element of document.elementsFromPoint(x, y)) {
      const stock = element.closest("[data-action]");
      if (stock && board.contains(stock)) return stock;
    }
    return null;
  }

  function grabbed(event, inFlight, inside) {
    const hit = event.target.closest("[data-src]");
    const flying = inFlight.find(({ card }) => card === hit);
    // the stock pressed stays the stock (quick draws), a card still in place stays that card
    if ((hit && !flying) || event.target.closest("[data-action]")) return { target: event.target, seen: null };
    for (const { card, seen } of flying ? [flying] : inFlight) {
      const now = card.getBoundingClientRect();
      const x = (seen.left + seen.right) / 2 - now.width / 2;
      const y = (seen.top + seen.bottom) / 2 - now.height / 2;
      const whole = { left: x, right: x + now.width, top: y, bottom: y + now.height };
      if (inside(whole)) return { target: card, seen: whole, flying: true };
      if (inside(now)) return { target: card, seen: null, flying: true };
    }
    return { target: event.target, seen: null };
  }

  board.addEventListener("pointerdown", (event) => {
    // A new press: whatever ended the last one, this one's click counts. (A touch drag
    // fires no click, so a flag left from it must not swallow the next tap.)
    suppressClick = false;
    const { target, seen, tapped, drawn } = pressedAt(event);
    retarget = tapped === event.target ? null : { from: event.target, to: tapped };
    press = event.pointerType === "touch" ? { target: tapped, x: event.clientX, y: event.clientY } : null;
    stockPress = event.button === 0 && Boolean(tapped.closest("[data-action]"));
    // (the stock pressed as a drawn card flies off it: let go there, it draws; dragged, the
    // drawn card goes with the pointer)
    const source = drawn?.card ?? target.closest("[data-src]");
    // (with a card picked, a press on a column's card is where it goes)
    const held = source || picked ? null : target.closest(".card.held");
    if (held && event.button === 0) { holdStill(held); return; }
    if (!source || event.button > 0 || !hooks.view() || hooks.view().outcome) return;
    drag = { source, x: event.clientX, y: event.clientY, ghost: null, seen: drawn?.seen ?? seen };
  });

  board.addEventListener("pointermove", (event) => {
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) >= MOVE_THRESHOLD) {
      press = null; // a drag or a pan, not a tap
    }
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < MOVE_THRESHOLD) return;
      clearPick();
      stockPress = false; // a drag, never a draw
      startGhost(event);
      hooks.sound?.("pick");
    }
    event.preventDefault();
    drag.ghost.style.left = `${event.clientX - drag.offset.x}px`;
    drag.ghost.style.top = `${event.clientY - drag.offset.y}px`;
    const first = drag.ghost.firstElementChild.getBoundingClientRect();
    drag.target = dropTarget(first, drag.source);
    lightTarget(drag.target);
  });

  board.addEventListener("pointerup", async (event) => {
    if (press && event.pointerType === "touch" && !drag?.ghost) {
      // A tap: played now, and the click that may follow is not played again.
      const { target } = press;
      press = null;
      drag = null;
      suppressClick = true;
      activate(target, { pointer: true });
      return;
    }
    press = null;
    if (stockPress && event.pointerType !== "touch" && !drag?.ghost) {
      // The stock pressed with a mouse draws as the button comes up, if it comes up on the
      // stock: not at the click, which the browser does not send when the answer of the
      // draw before has drawn the board again between the press and the release.
      stockPress = false;
      drag = null;
      suppressClick = true;
      const stock = stockAt(event.clientX, event.clientY);
      if (stock) activate(stock, { pointer: true });
      return;
    }
    if (!drag) return;
    const { source, ghost, target, home } = drag;
    if (!ghost) { drag = null; return; } // a press without travel: the click that follows handles it
    suppressClick = true; // a mouse's drag ends with a click, which is not a tap
    const moving = drag.moving;
    lightTarget(null);
    drag = null; // (the cards stay lifted, the ghost where it was let go, until the answer)
    // where the cards were let go: an accepted move slides them from there to their place
    origins = new Map([...ghost.children].map((copy, index) => [moving[index].dataset.key, copy.getBoundingClientRect()]));
    let accepted = false;
    if (target && direct()) {
      const { src, card } = source.dataset;
      accepted = await hooks.send(src, { refuse: (view) => dropRefusal(view, src, card, "w") });
    }
    else if (target) accepted = await place(source.dataset.src, target.dataset.dest);
    if (!accepted) {
      origins = null;
      await glideBack(ghost, home);
      for (const card of moving) card.classList.remove("lifted");
    }
    ghost.remove();
  });

  board.addEventListener("pointercancel", () => {
    press = null; // the browser took the touch (a pan)
    stockPress = false;
    if (drag?.ghost) drag.ghost.remove();
    endDrag();
  });

  // A face-up card over cards out of sequence (its layout lifts sequences only): nothing is
  // lifted; the card shakes and the table says which cards do move together.
  function holdStill(card) {
    clearPick();
    const head = card.closest(".column")?.querySelector("[data-src]");
    const words = `The ${cardName(card.dataset.card)} does not head a sequence: `
      + `only cards in sequence move together${head ? `, here from the ${cardName(head.dataset.card)} down` : ""}.`;
    (hooks.tell ?? hooks.say)(words);
    shake(card);
  }

  // A short shake of a card that stays where it is (none with reduced motion).
  function shake(card) {
    card.classList.add("shaken"); // (until its next drawing: the tests read it)
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    card.animate([{ transform: "none" }, { transform: "translateX(-4px)" }, { transform: "translateX(4px)" },
      { transform: "translateX(-2px)" }, { transform: "none" }], { duration: 240, easing: "ease-in-out" });
  }

  async function glideBack(ghost, home) {
    const now = ghost.getBoundingClientRect();
    const dx = home.left - now.left;
    const dy = home.top - now.top;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches || (!dx && !dy)) return;
    await ghost.animate([{ transform: "none" }, { transform: `translate(${dx}px, ${dy}px)` }],
      { duration: 180, easing: "ease-out", fill: "forwards" }).finished.catch(() => {});
  }

  // -- taps and clicks -------------------------------------------------------------------

  // What a click (or a double click) is on: the place its press was taken for. (A press on
  // a card in flight ends the flight, so the release is elsewhere, and the browser gives the
  // click to what holds both: the row, or the board.)
  function clicked(event) {
    const from = retarget?.from;
    return from && (event.target === from || event.target.contains(from)) ? retarget.to : event.target;
  }

  board.addEventListener("click", (event) => {
    if (suppressClick) { suppressClick = false; return; }
    const target = clicked(event);
    // The second click of a double click on a card is the double click's (see dblclick); on
    // the stock, or in a game played card by card, it is a move of its own (quick clicks
    // each draw or play).
    if (event.detail > 1 && !direct() && !target.closest("[data-action]")) return;
    activate(target, { pointer: true });
  });

  board.addEventListener("dblclick", (event) => {
    const source = clicked(event).closest("[data-src]");
    if (!source || direct()) return;
    const src = source.dataset.src;
    if (!canGoHome(src)) return; // (its first click played it, or shook it and said why)
    if (lastHome.src === src && performance.now() - lastHome.at < 1000) return; // already sent
    // (the double click's first click played the card: the second is not another card's)
    if (lastTap.src === src && performance.now() - lastTap.at < 1000) return;
    sendHome(src);
  });

  // What a tap, a click or Enter does on `target`. A tap or a click plays the card it is on
  // where it fits best (tapMove: home, else a column, else a free cell or the hand) and
  // never holds it: a card with no move shakes and the table says why. Enter picks a card
  // and Enter on a place puts it there (Enter on the picked card sends it home). With a
  // card picked by keys, a tap on a place that takes it puts it there; a tap on a card
  // that does not take it but has a move of its own is a tap on that card.
  function activate(target, { pointer = false } = {}) {
    const view = hooks.view();
    if (!view || view.outcome) return;
    // (the stock as it is now: the board may have been drawn again since it was pressed)
    const pressedStock = target.closest("[data-action]");
    const action = pressedStock?.isConnected ? pressedStock : pressedStock && board.querySelector("[data-action]");
    if (action && picked && !pointer) {
      // Enter on the hand with a card picked by keys meant "put it here": the hand takes no
      // card, so the pick stays and nothing is drawn, and the table says so
      hooks.sound?.("refuse");
      hooks.tell?.(`The hand takes no card: the ${cardName(picked.element.dataset.card)} is still picked. Press Escape to let go of it, then Enter on the hand to draw.`);
      return;
    }
    if (action) { clearPick(); hooks.action(action.dataset.action, { fromKey: !pointer }); return; }
    const source = target.closest("[data-src]");
    if (direct()) {
      if (source) playDirect(source);
      return;
    }
    if (picked) {
      if (source === picked.element) {
        if (pointer) { clearPick(); hooks.say("Let go"); } else sendHome(picked.src); // Enter twice
        return;
      }
      const dest = target.closest("[data-dest]");
      const takes = dest && movesOf(view, picked.src, picked.element.dataset.card)
        .some((move) => move.split(">")[1] === dest.dataset.dest);
      // (by keys, Enter on a place is where the picked card goes, and a refusal says why)
      if (dest && (takes || !pointer || !source || !hasMove(source))) { place(picked.src, dest.dataset.dest); return; }
      clearPick();
    }
    if (!source) { if (!pointer) nothingToPick(target); return; }
    const { src, card } = source.dataset;
    if (!hasMove(source)) { noMove(source); return; }
    if (!pointer) { pick(src, source); return; }
    const move = tapMove(view, src, card);
    if (!move) { // a foundation's card: taken back down by a drag, or by keys
      hooks.tell?.(`To take the ${cardName(card)} back down, drag it onto a column (or pick it with Enter).`);
      return;
    }
    clearPick();
    lastTap = { src, at: performance.now() };
    if (move.endsWith(">f")) lastHome = { src, at: performance.now() };
    hooks.send(move);
  }

  // Enter on a place with no card to pick, nothing picked: the table says why, and how a
  // card gets there (spoken too), as a refused move is.
  function nothingToPick(target) {
    const dest = target.closest("[data-dest]")?.dataset.dest;
    if (!dest) return;
    const named = placeWords(dest, hooks.view()?.game);
    const where = dest === "f" ? named.replace(/^the /, "this ") : named; // (one of several)
    const what = target.querySelector(".card") ? `no card of ${where} can be picked` : `${where} is empty`;
    hooks.sound?.("refuse");
    hooks.tell?.(`Nothing to pick here: ${what}. Pick a card first, then press Enter here to put it here.`);
  }

  const hasMove = (source) => movesOf(hooks.view(), source.dataset.src, source.dataset.card).length > 0;

  // A card played card by card (the game's `direct`): played, or shaken where the server
  // refuses it (its answer says why).
  async function playDirect(source) {
    clearPick();
    if (!(await hooks.send(source.dataset.src)) && source.isConnected) shake(source);
  }

  // A card with no move: it shakes, a sound says no, and the table says why (spoken too);
  // nothing stays picked.
  function noMove(source) {
    clearPick();
    hooks.sound?.("refuse");
    (hooks.tell ?? hooks.say)(noMoveWords(hooks.view(), source.dataset.src, source.dataset.card));
    shake(source);
  }

  // -- keys ------------------------------------------------------------------------------

  const stops = () => [...board.querySelectorAll(".stop")];
  const centre = (rect) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });

  function focusStop(stop) {
    if (!stop) return;
    for (const other of board.querySelectorAll('.stop[tabindex="0"]')) other.tabIndex = -1;
    stop.tabIndex = 0;
    stop.focus({ preventScroll: false });
    remember(stop);
  }

  function remember(stop) {
    const rect = centre(stop.getBoundingClientRect());
    focusMemory = { place: stop.dataset.src ?? placeOf(stop) ?? stop.dataset.action, x: rect.x, y: rect.y };
  }

  // Where a stop is, to go left, right, up or down from: a column's stops are all at the
  // column's head (a long column's last card is still the next column over).
  function anchor(stop, key) {
    const spot = centre(stop.getBoundingClientRect());
    const column = stop.closest(".column");
    if (column && (key === "ArrowLeft" || key === "ArrowRight")) spot.y = column.getBoundingClientRect().top;
    return spot;
  }

  // The nearest stop from `from` in a direction; into a column, its exposed card; up and
// down from a column's card, the next in the column, else a pile beyond it, else none.
  function neighbour(from, key) {
    const here = anchor(from, key);
    const column = from.closest(".column");
    if (column && (key === "ArrowUp" || key === "ArrowDown")) {
      const inColumn = [...column.querySelectorAll(".stop")];
      const index = inColumn.indexOf(from);
      const next = inColumn[index + (key === "ArrowUp" ? -1 : 1)];
      if (next) return next;
    }
    // up and down from a column stay in it: past its end they go on to a row of piles (the
    // foundations above, a waste below), never into another column
    const vertical = key === "ArrowUp" || key === "ArrowDown";
    let best = null;
    let bestScore = Infinity;
    // left and right stay in the row (the piles, or the columns) while it goes on
    const horizontal = key === "ArrowLeft" || key === "ArrowRight";
    const sameRow = (stop) => stop.closest(".row") === from.closest(".row");
    const inRow = horizontal && stops().some((stop) => stop !== from && sameRow(stop)
      && (key === "ArrowLeft" ? anchor(stop, key).x < here.x - 1 : anchor(stop, key).x > here.x + 1)
      && !(column && stop.closest(".column") === column));
    for (const stop of stops()) {
      if (stop === from || (column && stop.closest(".column") === column)) continue;
      if (column && vertical && stop.closest(".column")) continue;
      if (inRow && !sameRow(stop)) continue;
      const there = anchor(stop, key);
      const dx = there.x - here.x;
      const dy = there.y - here.y;
      const along = { ArrowLeft: -dx, ArrowRight: dx, ArrowUp: -dy, ArrowDown: dy }[key];
      const across = key === "ArrowLeft" || key === "ArrowRight" ? Math.abs(dy) : Math.abs(dx);
      if (along <= 1) continue;
      const score = along + across * 2;
      if (score < bestScore) { bestScore = score; best = stop; }
    }
    const into = best?.closest(".column");
    if (into && best.closest(".column") !== column) {
      const inColumn = into.querySelectorAll(".stop");
      return inColumn.length ? inColumn[inColumn.length - 1] : into; // an empty column is a stop itself
    }
    return best;
  }

  function keydown(event) {
    const inBoard = board.contains(document.activeElement) && document.activeElement.classList.contains("stop");
    const arrows = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];
    if (arrows.includes(event.key)) {
      event.preventDefault();
      finish(board); // places are measured where the cards are, not on their way
      if (!inBoard) { focusStop(board.querySelector('.stop[tabindex="0"]') ?? stops()[0]); return true; }
      focusStop(neighbour(document.activeElement, event.key) ?? document.activeElement);
      return true;
    }
    // (in a game played card by card, space always draws, as its keys have it)
    if (inBoard && (event.key === "Enter" || (event.key === " " && !direct()))) {
      event.preventDefault();
      activate(document.activeElement);
      return true;
    }
    if (event.key === "Escape" && picked) {
      clearPick();
      hooks.say("Let go");
      return true;
    }
    return false;
  }

  board.addEventListener("focusin", (event) => {
    if (event.target.classList.contains("stop")) {
      for (const other of board.querySelectorAll('.stop[tabindex="0"]')) if (other !== event.target) other.tabIndex = -1;
      event.target.tabIndex = 0;
      remember(event.target);
    }
  });

  // After the board is drawn again: one stop takes Tab, the same place as before if it is
  // still there, and focus stays on the board when it was there.
  function afterDraw({ hadFocus }) {
    picked = null;
    const all = stops();
    if (!all.length) return;
    let chosen = null;
    if (focusMemory) {
      chosen = all.find((stop) => (stop.dataset.src ?? placeOf(stop) ?? stop.dataset.action) === focusMemory.place);
      if (!chosen) {
        let nearest = Infinity;
        for (const stop of all) {
          const there = centre(stop.getBoundingClientRect());
          const distance = Math.hypot(there.x - focusMemory.x, there.y - focusMemory.y);
          if (distance < nearest) { nearest = distance; chosen = stop; }
        }
      }
    }
    chosen ??= all[0];
    chosen.tabIndex = 0;
    if (hadFocus) chosen.focus({ preventScroll: true });
  }

  function takeOrigins() {
    const taken = origins;
    origins = null;
    return taken;
  }

  return { clearPick, afterDraw, keydown, takeOrigins, describePlace: (dest) => placeWords(dest, hooks.view()?.game) };
}
