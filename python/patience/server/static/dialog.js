// A question in the page's own dialog (never the browser's confirm box): before a step
// that cannot be taken back. While it is open nothing behind it can be pressed, typed or
// focused; Escape answers no; Tab goes round its controls.

const $ = (id) => document.getElementById(id);

/**
 * Ask `text`; resolves to true when the player presses `yes`. `no` names the other
 * button. `option` ({ label }) adds a checkbox under the question (a "Don't ask again"):
 * its state when the player answers is passed to `option.answered(checked, yes)`.
 */
export function ask(text, yes, { no = "Keep playing", option = null } = {}) {
  return new Promise((resolve) => {
    const dialog = $("confirm");
    const back = document.activeElement;
    $("confirm-text").textContent = text;
    $("confirm-yes").textContent = yes;
    $("confirm-no").textContent = no;
    const box = $("confirm-option");
    box.hidden = !option;
    if (option) {
      $("confirm-option-label").textContent = option.label;
      $("confirm-option-input").checked = false;
    }
    dialog.hidden = false;
    // Until it is answered, nothing behind the question can be pressed, typed or focused
    // (the page's every other part, its skip link too: Tab goes round the question's own).
    const behind = [...document.body.children].filter((part) => part !== dialog && !part.inert);
    for (const part of behind) part.inert = true;
    $("confirm-no").focus();
    const done = (answer) => {
      dialog.hidden = true;
      for (const part of behind) part.inert = false;
      $("confirm-yes").onclick = $("confirm-no").onclick = dialog.onkeydown = null;
      if (option) option.answered?.($("confirm-option-input").checked, answer);
      back?.focus?.();
      resolve(answer);
    };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    dialog.onkeydown = (event) => {
      if (event.key === "Escape") { event.stopPropagation(); done(false); }
    };
  });
}

/** Whether the question is open now. */
export const asking = () => !$("confirm").hidden;
