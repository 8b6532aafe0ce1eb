// How the table looks, kept between visits: a four-colour deck, large corners, the felt and
// the cards' back (all drawn here, in CSS). The lobby and the table's menu show the same
// controls and change the same options.

import { h } from "./dom.js";

const KEY = "patience-options";

export const FELTS = { green: "Green", blue: "Blue", red: "Burgundy", slate: "Slate" };
export const BACKS = { blue: "Blue stripes", red: "Red lattice", green: "Green checks", black: "Black and gold" };

const listeners = [];
let look = { fourColour: false, largeIndex: false, felt: "green", back: "blue" };

function read() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? "{}") ?? {};
    return {
      fourColour: Boolean(kept.fourColour),
      largeIndex: Boolean(kept.largeIndex),
      felt: FELTS[kept.felt] ? kept.felt : "green",
      back: BACKS[kept.back] ? kept.back : "blue",
    };
  } catch (_) {
    return { ...look };
  }
}

function apply() {
  const body = document.body;
  body.classList.toggle("four-colour", look.fourColour);
  body.classList.toggle("large-index", look.largeIndex);
  for (const name of Object.keys(FELTS)) body.classList.toggle(`felt-${name}`, look.felt === name && name !== "green");
  for (const name of Object.keys(BACKS)) body.classList.toggle(`back-${name}`, look.back === name && name !== "blue");
  for (const control of document.querySelectorAll("[data-look]")) {
    const [option, value] = control.dataset.look.split(":");
    control.checked = value === undefined ? Boolean(look[option]) : look[option] === value;
  }
}

/** The options as kept, applied to the page. */
export function loadLook() {
  look = read();
  apply();
  return look;
}

/** The options now. */
export const currentLook = () => ({ ...look });

/** Call `listener(look, changed)` whenever an option changes. */
export function onLookChange(listener) {
  listeners.push(listener);
}

/** Change options (some of them), apply and keep them. */
export function setLook(changes) {
  look = { ...look, ...changes };
  try {
    localStorage.setItem(KEY, JSON.stringify(look));
  } catch (_) { /* kept for this visit */ }
  apply();
  for (const listener of listeners) listener(look, changes);
}

// A swatch of a felt or a back, beside its name.
const swatch = (kind, name) => h("span", { class: `swatch ${kind}-${name}`, "aria-hidden": "true" });

/** The controls, with ids prefixed `prefix` ("" in the lobby: four-colour, large-index...). */
export function lookControls(prefix = "") {
  const box = (id, option, words) => {
    const input = h("input", { type: "checkbox", id: `${prefix}${id}`, "data-look": option });
    input.addEventListener("change", () => setLook({ [option]: input.checked }));
    return h("label", {}, input, ` ${words}`);
  };
  const radios = (option, names, legend, kind) => h("fieldset", { class: "swatches" }, h("legend", {}, legend),
    Object.entries(names).map(([value, words]) => {
      const input = h("input", { type: "radio", name: `${prefix}${option}`, value, id: `${prefix}${option}-${value}`, "data-look": `${option}:${value}` });
      input.addEventListener("change", () => { if (input.checked) setLook({ [option]: value }); });
      return h("label", {}, input, swatch(kind, value), ` ${words}`);
    }));
  const made = [
    h("fieldset", {}, h("legend", {}, "Cards"),
      box("four-colour", "fourColour", "Four-colour deck"),
      box("large-index", "largeIndex", "Large corners")),
    radios("felt", FELTS, "Felt", "felt"),
    radios("back", BACKS, "Card backs", "back"),
  ];
  queueMicrotask(apply);
  return made;
}
