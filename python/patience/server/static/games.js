// The games the server plays, as GET /api/games describes them: each one's layout (its
// rows of piles, how its columns are picked and build, how it is sized), its words (its
// rules, its variants, its controls) and its lobby picture. The client names no game:
// whatever it knows of one, it reads here.

import { api } from "./api.js";

const known = new Map();
let loading = null;

/** Load the games once (again after a failure); resolves to the list of GET /api/games. */
export function loadGames() {
  loading ??= api.games().then((list) => {
    for (const game of list) known.set(game.name, game);
    return list;
  }, (error) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** The game `name` as the server described it (null before loadGames has answered). */
export const gameOf = (name) => known.get(name) ?? null;

/** The layout of game `name` (docs/api.md, "The layout of a game"). */
export const layoutOf = (name) => known.get(name)?.layout ?? null;

/** The game's word for a place or a thing (its `layout.words`), or `fallback`. */
export const wordOf = (name, key, fallback = "") => known.get(name)?.layout?.words?.[key] ?? fallback;

/** Option `name` of `game` (an entry of GET /api/games) in words: its label and values. */
export const optionWords = (game, name) => game?.layout?.words.options.find((option) => option.name === name) ?? null;

/** One value of an option in words: its label, its short form, the rule it adds. */
export const valueWords = (game, name, value) => optionWords(game, name)?.values.find((each) => each.value === value) ?? null;
