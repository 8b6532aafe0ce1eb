// What the browser keeps between visits of a guest's games in progress (each known by its
// token) and the table's questions answered "don't ask again". (The table's look is kept
// by look.js.)

const GAMES_KEY = "patience-games";
const SETTINGS_KEY = "patience-settings";

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

/** A setting kept between visits (`fallback` when none, or none readable). */
export function setting(name, fallback = null) {
  try {
    const kept = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "{}") ?? {};
    return name in kept ? kept[name] : fallback;
  } catch (_) {
    return fallback;
  }
}

/** Keep a setting for the next visits. */
export function keepSetting(name, value) {
  try {
    const kept = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "{}") ?? {};
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...kept, [name]: value }));
  } catch (_) { /* kept for this visit only */ }
}
