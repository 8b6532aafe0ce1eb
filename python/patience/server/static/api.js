// The server's API, as the client uses it. Every answer is the player's view of the game.

export class ApiError extends Error {
  constructor(status, detail) {
    super(reasonText(detail));
    this.status = status;
    this.detail = detail;
  }
}

// A refusal's reason in words: FastAPI's list of validation errors becomes its messages.
function reasonText(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((item) => `${(item.loc ?? []).filter((part) => part !== "body").join(".")}: ${item.msg}`).join("; ");
  }
  return JSON.stringify(detail);
}

// Seeds are whole numbers up to 2**64, more than a JavaScript number holds exactly: every
// "seed" in an answer is read as the digits the server wrote, a string.
function parseAnswer(text) {
  if (!text) return {};
  return JSON.parse(text, (key, value, context) =>
    key === "seed" && typeof value === "number" ? (context?.source ?? String(value)) : value);
}

async function call(method, path, { token, body } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
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
  if (!response.ok) throw new ApiError(response.status, data.detail ?? response.statusText);
  return data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  // request.seed, when given, is a string of digits
  start: (request) => call("POST", "/api/sessions", { body: request }),
  read: (id, token) => call("GET", `/api/sessions/${id}`, { token }),
  move: (id, token, move, move_count) =>
    call("POST", `/api/sessions/${id}/moves`, { token, body: { move, move_count } }),
  undo: (id, token, move_count) => call("POST", `/api/sessions/${id}/undo`, { token, body: { move_count } }),
  end: (id, token, move_count) => call("POST", `/api/sessions/${id}/end`, { token, body: { move_count } }),
  hint: (id, token) => call("POST", `/api/sessions/${id}/hint`, { token }),
};
