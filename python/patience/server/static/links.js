// A deal's link (a practice game dealt by its address): /?game=NAME&OPTION=VALUE&seed=42, or
// &numbering=NAME&number=617 for a deal by a numbering players know; the same as a page's
// route, #/play/NAME?OPTION=VALUE&seed=42. Read here into the request that deals it, and
// checked against the games the server describes (GET /api/games), so that a mistyped link
// is refused in plain words, by the game's own name, before anything is asked: which
// setting is wrong and what it takes ("Draw must be 1 or 3"). Nothing the link holds is
// said back (a link could carry words of anyone's into the page); the server checks the
// request again as it deals it.

const LAST_SEED = 2n ** 63n - 1n;
const OWN_KEYS = ["game", "seed", "mode", "numbering", "number"];

/** The play link at `where` (a Location, or a URL) as { game, query }: its game's name and
 * its other parameters; null when it is no play link. */
export function playLink(where) {
  const route = where.hash.match(/^#\/play\/([^?]*)(?:\?(.*))?$/);
  if (route) return { game: decodeURIComponent(route[1]), query: new URLSearchParams(route[2] ?? "") };
  const query = new URLSearchParams(where.search);
  const game = query.get("game");
  return game === null ? null : { game, query };
}

// A link's value as the request takes it: digits a number, true and false themselves.
const valueOf = (text) => (/^\d+$/.test(text) ? Number(text) : text === "true" ? true : text === "false" ? false : text);

// A list in words: "1 or 3", "1, 2 or 3".
const either = (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`);

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The request a play link deals ({ game, variant, mode, seed?, numbered? }) and what is
 * wrong with it, in words (`problems`, empty when nothing is), checked against `games`
 * (GET /api/games): an unknown game, an unknown setting, a setting's value it does not
 * take, a deal number that is no whole number in range, an unknown numbering or a number
 * outside it, a mode a link cannot deal. With no games (they could not be read), only what
 * needs none of them is checked. */
export function linkRequest({ game: name, query }, games) {
  const game = games.find((each) => each.name === name) ?? null;
  const problems = [];
  const variant = {};
  if (!game && games.length) { // (the games unread, the server alone checks it)
    const titles = games.map((each) => each.title);
    problems.push(`The link names no game there is${titles.length ? `: the games are ${either(titles).replace(/ or ([^,]*)$/, " and $1")}` : ""}.`);
  }
  for (const [key, text] of query) {
    if (OWN_KEYS.includes(key)) continue;
    variant[key] = valueOf(text);
    if (!game) continue;
    const option = game.options.find((each) => each.name === key);
    if (!option) {
      const names = game.options.map((each) => capital(each.name));
      problems.push(names.length
        ? `The link names a setting ${game.title} does not have: its ${names.length === 1 ? "setting is" : "settings are"} ${either(names).replace(/ or ([^,]*)$/, " and $1")}.`
        : `${game.title} has no settings: the link names one it does not have.`);
    } else if (!option.values.some((value) => value === variant[key])) {
      problems.push(`${capital(key)} must be ${either(option.values.map(String))}.`);
    }
  }
  const mode = query.get("mode");
  if (mode !== null && !["practice", "relaxed"].includes(mode)) {
    problems.push("Mode must be practice or relaxed (a link deals no timed game).");
  }
  const request = { game: name, variant, mode: mode === "relaxed" ? "relaxed" : "practice" };
  const seed = query.get("seed");
  if (seed !== null) {
    request.seed = seed.replace(/[\s\u202f]/g, "");
    if (!/^\d+$/.test(request.seed) || BigInt(request.seed) > LAST_SEED) {
      problems.push(`The deal number (seed) must be a whole number from 0 to ${LAST_SEED.toLocaleString("en")}.`);
    }
  }
  const numbering = query.get("numbering");
  if (numbering !== null) {
    const number = (query.get("number") ?? "").replace(/[\s\u202f,]/g, "");
    request.numbered = { numbering, number };
    const known = game?.numberings?.find((each) => each.name === numbering);
    if (game && !known) {
      const names = (game.numberings ?? []).map((each) => each.name);
      problems.push(`The link names a numbering of deals ${game.title} does not have${names.length ? `: it has ${either(names)}` : ""}.`);
    } else if (known && (!/^\d+$/.test(number) || BigInt(number) < BigInt(known.first) || BigInt(number) > BigInt(known.last))) {
      problems.push(`${known.rule}.`);
    }
  }
  return { request, problems, title: game?.title ?? null };
}
