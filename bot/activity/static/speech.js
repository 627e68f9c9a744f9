// The page's words: every word it shows is the bot's, said in the page's language (bot/activity/page_words.py),
// looked up here by key. The page is told them before its sign-in (index.html, in the language its browser asks
// for), in its `welcome` (its player's language) and in a `menu` after the language changed. Numbers, places and
// dates are the browser's Intl in the page's locale: formatting, not words.

let words = {};
let ordinals = {};
let locale = "en";
let version = 0;
const plurals = new Map();
const numbers = new Map();

/** Take the bot's speech: `{locale, words, ordinals}` (a frame that carries them, or the page's first ones);
 * whether there was any. */
export function setSpeech(speech) {
  if (!speech || typeof speech.locale !== "string" || !speech.words || typeof speech.words !== "object") return false;
  words = speech.words;
  ordinals = speech.ordinals || {};
  locale = speech.locale || "en";
  version += 1;
  return true;
}

/** The page's locale (a BCP 47 tag, for Intl). */
export function pageLocale() {
  return locale;
}

/** A number that changes whenever the words do (what was drawn in older words is drawn again). */
export function speechVersion() {
  return version;
}

function rules(type) {
  const key = `${locale}:${type}`;
  if (!plurals.has(key)) {
    try {
      plurals.set(key, new Intl.PluralRules(locale, { type }));
    } catch {
      plurals.set(key, new Intl.PluralRules("en", { type }));
    }
  }
  return plurals.get(key);
}

/** A number in the page's locale ("1,234", "1.234"). */
export function number(value) {
  if (!numbers.has(locale)) {
    try {
      numbers.set(locale, new Intl.NumberFormat(locale));
    } catch {
      numbers.set(locale, new Intl.NumberFormat("en"));
    }
  }
  return numbers.get(locale).format(value);
}

/** A place in the page's language: "1st", "2nd" in English, "1." in German. */
export function ordinal(place) {
  const form = ordinals[rules("ordinal").select(place)] || ordinals.other || "{n}";
  return form.replace("{n}", String(place));
}

/** The sentence of `key` as the bot said it (a counted one's form for `count`), `{named}` fields not filled. */
function template(key, count) {
  const entry = words[key];
  if (entry === undefined) return key; // a word the bot did not send: its key shows, never an English guess
  if (typeof entry === "string") return entry;
  return entry[rules("cardinal").select(Number(count))] ?? entry.other ?? key;
}

function fill(text, fields, shown) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? shown(fields[name]) : whole));
}

/** The sentence of `key` with its fields filled (numbers in the page's locale); `count` picks a counted form. */
export function word(key, fields = {}, count = fields.count) {
  return fill(template(key, count), fields, (value) => (typeof value === "number" ? number(value) : String(value)));
}

/** `word` as markup: the sentence escaped, its fields put in as the markup given (numbers in the page's locale). */
export function wordHtml(key, fields = {}, count = fields.count) {
  return fill(escapeText(template(key, count)), fields, (value) =>
    typeof value === "number" ? number(value) : String(value),
  );
}

function escapeText(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Put the words into the page's fixed elements (index.html): `data-word` (text), `data-word-title`,
 * `data-word-aria` (aria-label) and `data-word-label` (the `data-label` a style shows). */
export function applyWords(doc) {
  for (const el of doc.querySelectorAll("[data-word]")) el.textContent = word(el.dataset.word);
  for (const el of doc.querySelectorAll("[data-word-title]")) el.title = word(el.dataset.wordTitle);
  for (const el of doc.querySelectorAll("[data-word-aria]")) el.setAttribute("aria-label", word(el.dataset.wordAria));
  for (const el of doc.querySelectorAll("[data-word-label]")) el.dataset.label = word(el.dataset.wordLabel);
  doc.documentElement.lang = locale;
  doc.title = word("app_name");
}
