// The server's API, as the client uses it. Every answer is the player's view of the game.

export class ApiError extends Error {
  constructor(status, detail, retryAfter = null) {
    super(reasonText(detail));
    this.status = status;
    this.detail = detail;
    this.retryAfter = retryAfter; // seconds, of a refusal for a limit (429), when told
  }
}

/** What the client says of a deal number (a seed) that is no whole number or out of range. */
export const SEED_WORDS = "A deal number is a whole number from 0 to 9,223,372,036,854,775,807.";

// A refusal's reason in words: FastAPI's list of validation errors becomes its messages.
function reasonText(detail) {
  if (typeof detail === "string") return plain(detail);
  if (Array.isArray(detail)) {
    return [...new Set(detail.map((item) => {
      const where = (item.loc ?? []).filter((part) => part !== "body");
      const said = plain(item.msg, where);
      return said === SEED_WORDS || !where.length ? said : `${where.join(".")}: ${said}`;
    }))].join("; ");
  }
  return JSON.stringify(detail);
}

// A server's reason as a player reads it: no validator wording ("Value error, "), no Python
// notation ("2**63 - 1", "not None"), and never a refused input echoed back.
function plain(text, where = []) {
  let said = String(text).replace(/^Value error,\s*/i, "");
  if (where.includes("seed") || /\ba (seed|deal number) is a whole number\b/i.test(said)) return SEED_WORDS;
  said = said.replace(/,\s*not\s+(?:None|True|False|-?inf|nan|'[^']*'|"[^"]*"|-?\d[\d.e+-]*|[[{].*)$/, "");
  said = said.replace(/\b2\*\*(\d+)( - 1)?/g, (_, power, less) =>
    (2n ** BigInt(power) - (less ? 1n : 0n)).toLocaleString("en"));
  said = said.replace(/(^|\s)'([\w-]+)'(?=[\s,.;:]|$)/g, "$1$2"); // Python's quotes: option 'wrap'
  return said.replace(/\d{25,}/g, "that number");
}

// Seeds are whole numbers up to 2**64, more than a JavaScript number holds exactly: every
// "seed" in an answer is read as the digits the server wrote, a string.
function parseAnswer(text) {
  if (!text) return {};
  return JSON.parse(text, (key, value, context) =>
    key === "seed" && typeof value === "number" ? (context?.source ?? String(value)) : value);
}

// The signed-in player ({ name, operator, csrf }) or null for a guest. Every request that
// changes anything waits for the first answer of GET /api/me, so that a signed-in
// player's first move already carries its CSRF token. The session's cookie is out of the
// page's reach (HttpOnly), so a mark in localStorage says whether this browser signed in:
// a guest's page does not ask (the answer would be a 401 on every load).
let player = null;
let known = null; // the promise of the first answer of /api/me
const SIGNED_IN = "patience-signed-in";

const SAFE = new Set(["GET", "HEAD"]);

async function call(method, path, { token, body } = {}, again = true) {
  if (!SAFE.has(method) && known && path !== "/api/me") await known;
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  // The server refuses a signed-in change without the session's CSRF token.
  if (player?.csrf && !SAFE.has(method)) headers["X-CSRF-Token"] = player.csrf;
  const request = { method, headers, body: body && JSON.stringify(body) };
  let response;
  try {
    response = await fetch(path, request);
  } catch (error) {
    // The answer was lost on the way. A request that names the move count it was made from
    // is safe to send again: the server plays it once and answers the retry as the first.
    if (body?.move_count === undefined) throw error;
    response = await fetch(path, request);
  }
  let data = {};
  try {
    data = parseAnswer(await response.text());
  } catch (_) { /* not JSON: the status says enough */ }
  // Signed in, but this page did not know (the mark was lost): learn the token, once.
  if (response.status === 403 && again && /X-CSRF-Token/.test(data.detail ?? "")) {
    signedIn(await call("GET", "/api/me").catch(() => null));
    return call(method, path, { token, body }, false);
  }
  if (!response.ok) {
    const retry = Number(response.headers.get("Retry-After"));
    // An answer without the server's reason (a proxy's own page): over HTTP/2 it has no
    // status text either, so the reason is made from the status.
    const reason = data.detail ?? (response.statusText || refusalWords(response.status, retry));
    throw new ApiError(response.status, reason, retry > 0 ? retry : null);
  }
  return data;
}

/** The reason of a refusal that came without one, from its status (and Retry-After). */
function refusalWords(status, retry) {
  if (status === 429) return `too many requests just now: try again in ${retry > 0 ? retry : "a few"} s`;
  if (status >= 500) return `the server could not answer (${status}): try again in a moment`;
  return `the request was refused (${status})`;
}

// -- who is playing ----------------------------------------------------------------------

const GUEST_GAMES = "patience-guest-games";
const changes = new EventTarget();

function signedIn(answer) {
  player = answer ? { name: answer.name, operator: answer.operator, csrf: answer.csrf } : null;
  try {
    if (player) localStorage.setItem(SIGNED_IN, "1");
    else localStorage.removeItem(SIGNED_IN);
  } catch (_) { /* no storage: every load asks */ }
  changes.dispatchEvent(new Event("change"));
  return player;
}

/** The signed-in player, or null: asked of the server once, then kept. */
export function whoAmI() {
  if (!known) {
    let marked = true;
    try {
      marked = localStorage.getItem(SIGNED_IN) === "1";
    } catch (_) { /* no storage: ask */ }
    known = marked ? call("GET", "/api/me").then(signedIn, () => signedIn(null)) : Promise.resolve(null);
  }
  return known;
}

export const currentPlayer = () => player;

/** Calls `listener` whenever the player signs in or out. */
export function onPlayerChange(listener) {
  changes.addEventListener("change", () => listener(player));
}

// The games this browser played as a guest (id and token), for a sign-up to claim.
function guestGames() {
  try {
    return JSON.parse(localStorage.getItem(GUEST_GAMES) ?? "[]");
  } catch (_) {
    return [];
  }
}

function keepGuestGame(answer) {
  if (player || !answer?.token) return;
  const games = [...guestGames().filter((g) => g.id !== answer.id), { id: answer.id, token: answer.token }];
  localStorage.setItem(GUEST_GAMES, JSON.stringify(games.slice(-200)));
}

export const accounts = {
  async signUp(name, password) {
    const answer = await call("POST", "/api/accounts", { body: { name, password, claim: guestGames() } });
    localStorage.removeItem(GUEST_GAMES);
    signedIn(answer);
    return answer;
  },
  async logIn(name, password) {
    return signedIn(await call("POST", "/api/accounts/login", { body: { name, password } }));
  },
  async logOut() {
    await call("POST", "/api/accounts/logout");
    signedIn(null);
  },
  async changePassword(old, password) {
    return signedIn(await call("POST", "/api/accounts/password", { body: { old, new: password } }));
  },
  signupOpen: async () => (await call("GET", "/api/accounts/signup")).open,
  stats: () => call("GET", "/api/me/stats"),
  // the signed-in player's games still running, on any device (no cards: a game is read to be shown)
  running: () => call("GET", "/api/me/running"),
  games: (before) => call("GET", `/api/me/games${before ? `?before=${encodeURIComponent(before)}` : ""}`),
  replay: (id) => call("GET", `/api/sessions/${encodeURIComponent(id)}/replay`),
  // a game open to everyone: a closed tournament's, or a daily deal's once its day is over
  publicReplay: (id) => call("GET", `/api/replays/${encodeURIComponent(id)}`),
};

export const daily = {
  today: () => call("GET", "/api/daily"),
  day: (game, variant, day) =>
    call("GET", `/api/daily/${encodeURIComponent(game)}?variant=${encodeURIComponent(JSON.stringify(variant ?? {}))}${day ? `&day=${encodeURIComponent(day)}` : ""}`),
  // answers a game (token null for a signed-in player's game already running)
  start: async (game, variant) => {
    const answer = await call("POST", `/api/daily/${encodeURIComponent(game)}`, { body: { variant } });
    keepGuestGame(answer);
    return answer;
  },
};

export const tournaments = {
  list: () => call("GET", "/api/tournaments"),
  create: (request) => call("POST", "/api/tournaments", { body: request }),
  read: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}`),
  join: (id) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/join`),
  attempt: (id) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/attempts`),
  standings: (id, offset = 0, limit = 20) =>
    call("GET", `/api/tournaments/${encodeURIComponent(id)}/standings?offset=${offset}&limit=${limit}`),
  aroundMe: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}/standings?around=me`),
  close: (id) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/close`),
  cancel: (id) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/cancel`),
  verification: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}/verification`),
  games: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}/games`),
};

// The operator's page (admin.js): /api/admin, for operators only.
const user = (id) => `/api/admin/users/${encodeURIComponent(id)}`;
export const operatorApi = {
  server: () => call("GET", "/api/admin/server"),
  users: (search, deleted, offset, limit) =>
    call("GET", `/api/admin/users?search=${encodeURIComponent(search)}&deleted=${deleted}&offset=${offset}&limit=${limit}`),
  disable: (id) => call("POST", `${user(id)}/disable`),
  enable: (id) => call("POST", `${user(id)}/enable`),
  promote: (id) => call("POST", `${user(id)}/promote`),
  demote: (id) => call("POST", `${user(id)}/demote`),
  rename: (id, name) => call("POST", `${user(id)}/rename`, { body: { name } }),
  resetPassword: (id) => call("POST", `${user(id)}/password`),
  remove: (id) => call("DELETE", user(id)),
};

export const api = {
  games: () => call("GET", "/api/games"),
  // request.seed, when given, is a string of digits
  start: async (request) => {
    const answer = await call("POST", "/api/sessions", { body: request });
    keepGuestGame(answer);
    return answer;
  },
  read: (id, token) => call("GET", `/api/sessions/${id}`, { token }),
  move: (id, token, move, move_count) =>
    call("POST", `/api/sessions/${id}/moves`, { token, body: { move, move_count } }),
  undo: (id, token, move_count) => call("POST", `/api/sessions/${id}/undo`, { token, body: { move_count } }),
  end: (id, token, move_count) => call("POST", `/api/sessions/${id}/end`, { token, body: { move_count } }),
  hint: (id, token) => call("POST", `/api/sessions/${id}/hint`, { token }),
  pause: (id, token) => call("POST", `/api/sessions/${id}/pause`, { token }),
  resume: (id, token) => call("POST", `/api/sessions/${id}/resume`, { token }),
};

whoAmI();
