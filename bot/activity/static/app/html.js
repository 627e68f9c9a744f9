// The one small HTML helper of the views: text escaped into markup, and an element's markup replaced only when
// it changed (so focus, a typed number and a chosen option survive a redraw that changes nothing).

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

/** A place in words: "1st", "2nd", "3rd", "4th", "11th", "21st". */
export function placeWords(place) {
  const ends = { 1: "st", 2: "nd", 3: "rd" };
  return `${place}${(place % 100 > 10 && place % 100 < 14) || !ends[place % 10] ? "th" : ends[place % 10]}`;
}
