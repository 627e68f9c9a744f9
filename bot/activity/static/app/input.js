// The player's hands on the page: taps, drags and keys on the table, the toolbar, the menu's, race's and result's
// buttons, each handed to the controller with what it names (a slot id, a source, a button's data).

import { attachPointer } from "../board/drag.js";
import { playable } from "./screens.js";

const SHORTCUTS = { d: "draw", u: "undo", a: "allup", h: "hint" };

/** Wire the page's elements to the controller `c`. */
export function wire(c, dom, doc) {
  attachPointer(dom.table, {
    board: c.state.board,
    canDrag: () => playable(c.state),
    pickUp: (drag) => c.pickUp(drag),
    drop: (drag, slot) => c.drop(drag, slot),
    tap: (el) => c.tap(tapped(el)),
  });
  for (const button of Object.values(dom.buttons)) {
    button.addEventListener("click", () => c.command(button.dataset.command));
  }
  const onClick = (event) => {
    const button = event.target.closest("button[data-action]");
    if (button && !button.disabled) c.action(button.dataset.action, { ...button.dataset }, formOf(doc));
  };
  dom.menu.addEventListener("click", onClick);
  dom.result.addEventListener("click", onClick);
  dom.race.addEventListener("click", onClick);
  dom.opponents.addEventListener("click", () => c.action("race-standings", {})); // the whole line, or its button
  doc.getElementById("confirm-yes").addEventListener("click", () => c.confirmEnd(true));
  doc.getElementById("confirm-no").addEventListener("click", () => c.confirmEnd(false));
  doc.addEventListener("keydown", (event) => onKey(c, dom, event));
}

/** What a tap on `el` (a card or a slot) names: its slot, the source of its card, whether a card shows there. */
function tapped(el) {
  const slotEl = el.closest("[data-slot]");
  return {
    slot: slotEl ? slotEl.dataset.slot : null,
    source: el.dataset.source || (slotEl && slotEl.dataset.source) || null,
    hasCard: Boolean(slotEl && slotEl.querySelector(".card.face")),
  };
}

/** The menu's fields: a practice deal's number, the race to open's game and size. */
function formOf(doc) {
  const value = (id) => {
    const field = doc.getElementById(id);
    return field ? field.value : "";
  };
  return { deal: value("practice-deal"), variant: value("race-variant"), racers: value("race-size") };
}

function onKey(c, dom, event) {
  if (event.target.closest("input, textarea")) return undefined;
  if (c.state.confirming) {
    if (event.key === "Escape") c.confirmEnd(false);
    return undefined;
  }
  const key = event.key.toLowerCase();
  if (c.state.screen === "game" && SHORTCUTS[key] && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    return c.command(SHORTCUTS[key]);
  }
  if (key === "escape") return c.unselect();
  const slotEl = event.target.closest && event.target.closest("[data-slot]");
  if (!slotEl) return undefined;
  if (key === "enter" || key === " ") {
    event.preventDefault();
    const cardsHere = slotEl.querySelectorAll(".card.face");
    c.tap(tapped(cardsHere.length ? cardsHere[cardsHere.length - 1] : slotEl));
  } else if (key.startsWith("arrow")) {
    event.preventDefault();
    const slots = [...dom.table.querySelectorAll("[data-slot]")];
    const step = key === "arrowleft" || key === "arrowup" ? -1 : 1;
    slots[(slots.indexOf(slotEl) + step + slots.length) % slots.length].focus();
  }
  return undefined;
}
