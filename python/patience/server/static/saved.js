// What the browser keeps between visits: the card options, and a guest's games in progress
// (each known by its token).

const GAMES_KEY = "patience-games";
const OPTIONS_KEY = "patience-options";

/** Read the card options into their checkboxes and apply them. */
export function loadOptions(fourColour, largeIndex) {
  let options = {};
  try {
    options = JSON.parse(localStorage.getItem(OPTIONS_KEY) ?? "{}") ?? {};
  } catch (_) { /* unreadable: the defaults */ }
  fourColour.checked = Boolean(options.fourColour);
  largeIndex.checked = Boolean(options.largeIndex);
  applyOptions(fourColour, largeIndex);
}

/** Apply the card options of the checkboxes and keep them. */
export function applyOptions(fourColour, largeIndex) {
  document.body.classList.toggle("four-colour", fourColour.checked);
  document.body.classList.toggle("large-index", largeIndex.checked);
  localStorage.setItem(OPTIONS_KEY, JSON.stringify({ fourColour: fourColour.checked, largeIndex: largeIndex.checked }));
}

/** The games in progress kept, latest first: { id, token, request }. */
export function savedGames() {
  try {
    const list = JSON.parse(localStorage.getItem(GAMES_KEY) ?? "[]");
    return Array.isArray(list) ? list : [];
  } catch (_) {
    return [];
  }
}

/** Keep a game in progress (the eight latest are kept). */
export function keepGame(entry) {
  const list = savedGames().filter((game) => game.id !== entry.id);
  list.unshift(entry);
  localStorage.setItem(GAMES_KEY, JSON.stringify(list.slice(0, 8)));
}

/** Forget a game (it ended, or the server no longer knows it). */
export function forgetGame(id) {
  localStorage.setItem(GAMES_KEY, JSON.stringify(savedGames().filter((game) => game.id !== id)));
}
