// The one small HTML helper of the views: text escaped into markup, and an element's markup replaced only when
// it changed (so focus, a typed number and a chosen option survive a redraw that changes nothing).

import { ordinal } from "../speech.js";

/** `text` safe inside markup and attribute values. */
export function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Replace an element's markup when it changed; whether it did. */
export function replace(el, html) {
  if (el.dataset.html === html) return false;
  el.innerHTML = html;
  el.dataset.html = html;
  return true;
}

/** A place in words, in the page's language: "1st", "2nd", "3rd", "4th", "11th", "21st" in English. */
export function placeWords(place) {
  return ordinal(place);
}
