// The operator's page (#/operator): what the server runs with, and the accounts, to find,
// disable or enable, rename, give a new password, promote or demote, and delete, as
// `patience users` does on the server. Every change goes through /api/admin (operators
// only, with the session's CSRF token).

import { currentPlayer, operatorApi } from "./api.js";
import { alertLine, facts, h, timeElement } from "./dom.js";

const PAGE = 50;

function signedInOperator(page) {
  const player = currentPlayer();
  if (player?.operator) return true;
  page.append(h("h2", {}, "Operator"),
    h("p", {}, player ? "This page is for operators." : "Sign in as an operator to see this: ",
      player ? "" : h("a", { href: "#/account" }, "Sign in"), player ? "" : "."));
  return false;
}

function serverFacts(server) {
  const stock = Object.entries(server.catalog_unused);
  return facts([
    ["Sign-up", server.signup === "open" ? "open to anyone" : "closed: operators make accounts (patience users create)"],
    ["Accounts", server.accounts],
    ["Operators", server.operators],
    ["Games running", server.running_games],
    ["Server processes", server.workers],
    ["Unused catalog deals", stock.length ? stock.map(([game, count]) => `${game} ${count}`).join(", ") : "none"],
  ], { id: "server-facts" });
}

const state = (user) => (user.deleted ? "deleted" : user.disabled ? "disabled" : "active");

/** #/operator: the server's facts and the accounts. */
export async function adminPage(page) {
  if (!signedInOperator(page)) return;
  const error = alertLine("operator-error");
  const done = h("p", { class: "ok", role: "status", id: "operator-done" });
  const search = h("input", { id: "user-search", type: "search", maxlength: 64, autocomplete: "off" });
  const deleted = h("input", { id: "show-deleted", type: "checkbox" });
  const body = h("tbody", {});
  const more = h("button", { type: "button", id: "more-users", hidden: true }, "More accounts");
  const count = h("p", { id: "user-count" });
  page.append(
    h("h2", {}, "Operator"),
    serverFacts(await operatorApi.server()),
    h("h3", {}, "Accounts"),
    h("form", { class: "pager user-search", role: "search", onsubmit: (event) => { event.preventDefault(); reload(); } },
      h("label", { class: "field" }, h("span", {}, "Name holds"), search),
      h("label", {}, deleted, " deleted accounts too"),
      h("button", { type: "submit" }, "Find")),
    count,
    h("table", { id: "users" },
      h("caption", { class: "sr-only" }, "Accounts"),
      h("thead", {}, h("tr", {}, ["Name", "Role", "State", "Games", "Last log-in", "Actions"].map((name) => h("th", { scope: "col" }, name)))),
      body),
    more, done, error);

  let offset = 0;
  const me = currentPlayer();

  // Runs a change, says what it did, and draws the row again from the answer.
  async function change(row, action, said) {
    error.textContent = "";
    done.textContent = "";
    try {
      const answer = await action();
      row.replaceWith(userRow(answer));
      done.textContent = said(answer);
    } catch (refusal) {
      error.textContent = refusal.message;
    }
  }

  function userRow(user) {
    const row = h("tr", { "data-id": user.id, "data-name": user.name });
    const actions = h("td", { class: "actions" });
    const button = (text, onclick, label) => h("button", { type: "button", onclick, "aria-label": `${label ?? text} ${user.name}` }, text);
    if (!user.deleted) {
      const self = me && user.name === me.name;
      actions.append(user.disabled
        ? button("Enable", () => change(row, () => operatorApi.enable(user.id), (u) => `${u.name} may sign in again.`))
        : button("Disable", () => change(row, () => operatorApi.disable(user.id), (u) => `${u.name} is disabled; their sessions ended.`)));
      actions.append(user.operator
        ? button("Demote", () => change(row, () => operatorApi.demote(user.id), (u) => `${u.name} is a player now.`))
        : button("Promote", () => change(row, () => operatorApi.promote(user.id), (u) => `${u.name} is an operator now.`)));
      actions.append(button("Rename", () => renameForm(row, user)));
      actions.append(button("New password", () => change(row, () => operatorApi.resetPassword(user.id),
        (u) => `${u.name}'s new password, shown once: ${u.password}`), "Give a new password to"));
      actions.append(button("Delete", () => confirmDelete(row, user)));
      if (self) for (const b of actions.querySelectorAll("button")) if (/^(Disable|Demote|Delete)$/.test(b.textContent)) b.disabled = true;
    }
    actions.dataset.label = "Actions";
    row.append(
      h("th", { scope: "row" }, user.name),
      h("td", { "data-label": "Role" }, user.operator ? "operator" : "player"),
      h("td", { "data-label": "State", class: `state-${state(user)}` }, state(user)),
      h("td", { "data-label": "Games" }, user.games),
      h("td", { "data-label": "Last log-in" }, user.last_login_at ? timeElement(user.last_login_at) : "never"),
      actions);
    return row;
  }

  function renameForm(row, user) {
    const input = h("input", { name: "name", value: user.name, required: true, minlength: 2, maxlength: 24, "aria-label": `New name for ${user.name}` });
    const cell = row.querySelector("th");
    const form = h("form", { class: "rename", onsubmit: (event) => {
      event.preventDefault();
      change(row, () => operatorApi.rename(user.id, input.value), (u) => `${user.name} is now named ${u.name}.`);
    } }, input, h("button", { type: "submit" }, "Save"), h("button", { type: "button", onclick: () => row.replaceWith(userRow(user)) }, "Cancel"));
    cell.replaceChildren(form);
    input.focus();
    input.select();
  }

  function confirmDelete(row, user) {
    const cell = row.querySelector("td.actions");
    cell.replaceChildren(
      h("span", {}, `Delete ${user.name}? Their games stay, without their name. `),
      h("button", { type: "button", class: "danger", onclick: () => change(row, async () => {
        await operatorApi.remove(user.id);
        return { ...user, name: `deleted player ${user.id.slice(0, 8)}`, deleted: true, disabled: true, operator: false };
      }, () => `${user.name} is deleted.`) }, "Delete"),
      h("button", { type: "button", onclick: () => row.replaceWith(userRow(user)) }, "Keep"));
    cell.querySelector("button").focus();
  }

  async function load() {
    more.disabled = true;
    try {
      const answer = await operatorApi.users(search.value, deleted.checked, offset, PAGE);
      for (const user of answer.users) body.append(userRow(user));
      offset += answer.users.length;
      count.textContent = `${answer.total} account${answer.total === 1 ? "" : "s"}${search.value ? ` with “${search.value}” in the name` : ""}.`;
      more.hidden = offset >= answer.total;
    } catch (refusal) {
      error.textContent = refusal.message;
    } finally {
      more.disabled = false;
    }
  }

  function reload() {
    offset = 0;
    body.replaceChildren();
    load();
  }

  more.addEventListener("click", load);
  await load();
}
