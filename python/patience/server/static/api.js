// The server's API, as the client uses it. Every answer is the player's view of the game.

export class ApiError extends Error {
  constructor(status, detail) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
    this.status = status;
  }
}

async function call(method, path, { token, body } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body && JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.detail ?? response.statusText);
  return data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  start: (request) => call("POST", "/api/sessions", { body: request }),
  read: (id, token) => call("GET", `/api/sessions/${id}`, { token }),
  move: (id, token, move) => call("POST", `/api/sessions/${id}/moves`, { token, body: { move } }),
  undo: (id, token) => call("POST", `/api/sessions/${id}/undo`, { token }),
  end: (id, token) => call("POST", `/api/sessions/${id}/end`, { token }),
  hint: (id, token) => call("POST", `/api/sessions/${id}/hint`, { token }),
};
