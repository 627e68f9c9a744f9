// The page's words are the bot's: looked up by key, counted forms and places in the page's language, and every
// screen drawn from them alone (said in the tests' pseudo-language, no English word is left).

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { Controller } from "../../../../bot/activity/static/app/controller.js";
import { placeWords } from "../../../../bot/activity/static/app/html.js";
import { challengesHtml } from "../../../../bot/activity/static/app/views/challenges.js";
import { menuHtml, raceListHtml } from "../../../../bot/activity/static/app/views/menu.js";
import { raceHtml } from "../../../../bot/activity/static/app/views/race.js";
import { resultHtml } from "../../../../bot/activity/static/app/views/result.js";
import { rivalsHtml } from "../../../../bot/activity/static/app/views/standings.js";
import { plain } from "../../../../bot/activity/static/app/words.js";
import { cardWords, passWords } from "../../../../bot/activity/static/board/board.js";
import { number, pageLocale, setSpeech, word, wordHtml } from "../../../../bot/activity/static/speech.js";
import { ENGLISH, PSEUDO, klondikeGame, menu, race } from "./fixtures.mjs";

afterEach(() => setSpeech(ENGLISH));

const ACCENTS = "áƀçđéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýž";

/** A server's value (a name, a game's title) in accented letters: only the page's own words may be plain. */
function accented(text) {
  return text.replace(/[a-z]/gi, (c) => ACCENTS[c.toLowerCase().charCodeAt(0) - 97]);
}

/** What a reader sees of `html`: its text, and the words of its titles, labels and placeholders. */
function shown(html) {
  const attributes = [...html.matchAll(/\b(?:title|aria-label|placeholder|alt)="([^"]*)"/g)].map((m) => m[1]);
  const text = html.replace(/<[^>]*>/g, " ").replace(/&#\d+;/g, " ");
  return [text, ...attributes].join(" ");
}

/** Plain ASCII words left in `text` (a sentence that is not the bot's). */
function english(text) {
  return text.match(/[A-Za-z]{2,}/g) || [];
}

test("a word is the bot's, its fields filled, a counted one's form picked by count, numbers in the locale", () => {
  assert.equal(word("hello", { name: "Ada" }), "Hello, Ada");
  assert.equal(word("racer_count", { count: 1 }), "1 racer");
  assert.equal(word("racer_count", { count: 3 }), "3 racers");
  assert.equal(word("lobby_count", { count: 1, capacity: 3 }), "1/3 racers");
  assert.equal(word("no_such_word"), "no_such_word"); // a word the bot did not send shows its key, never a guess
  assert.equal(wordHtml("final_score", { score: "<b>5</b>" }), "Score <b>5</b>");
  assert.equal(wordHtml("hello", { name: "&#60;b&#62;" }), "Hello, &#60;b&#62;");
  assert.equal(number(12345), "12,345");
  setSpeech(PSEUDO);
  assert.equal(pageLocale(), "de");
  assert.equal(number(12345), "12.345");
  assert.equal(placeWords(2), "2.");
  assert.match(word("hello", { name: "Ada" }), /^Ĥéĺĺó, Ada ẍ+$/);
  assert.match(word("stock_cards", { count: 1 }), /^šţóçķ, 1 çáŕđ ẍ+$/);
  assert.match(word("stock_cards", { count: 2 }), /^šţóçķ, 2 çáŕđš ẍ+$/);
});

test("the bot's markup reads as words in the page's language", () => {
  const now = Date.UTC(2026, 0, 1);
  const inThreeHours = `<t:${now / 1000 + 3 * 3600}:R>`;
  assert.equal(plain(`**Race** in <#5> by <@7> ${inThreeHours}`, now), "Race in its channel by a member in 3 h");
  setSpeech(PSEUDO);
  assert.deepEqual(english(plain(`<#5> <@7> ${inThreeHours} <t:${now / 1000 - 60}:R>`, now)), []);
});

test("every screen is drawn from the bot's words alone: no English word is left in the pseudo-language", () => {
  setSpeech(PSEUDO);
  const user = { id: "31", name: accented("Ada") };
  const title = accented("Klondike (draw 3)");
  const variants = [{ name: "draw3", title }];
  const racer = (id, name, status, extra = {}) => ({ id, name: accented(name), status, score: 1234, up: 3, seconds: 20, ...extra });
  const lobby = race({ title, host: user, racers: [racer("31", "Ada", "waiting")], capacity: 3 });
  const running = race({
    title,
    status: "running",
    starts_in: 0,
    ends_in: 200,
    racers: [racer("31", "Ada", "playing"), racer("32", "Bob", "stuck"), racer("33", "Cy", "left")],
  });
  const finished = race({
    title,
    status: "finished",
    results: [
      { place: 1, id: "31", name: user.name, score: 1234, seconds: 100, status: "won", rating_before: 1000, rating_after: 1016 },
      { place: 2, id: "32", name: accented("Bob"), score: 9, seconds: 300, status: "expired", rating_before: 1000, rating_after: null },
    ],
  });
  const challenge = (overrides) => ({
    id: 9,
    variant: "draw3",
    title,
    challenger: { id: "32", name: accented("Bob") },
    closes_in: 5000,
    open: false,
    closed: false,
    me: "named",
    can_answer: true,
    can_play: true,
    players: [
      { id: "32", name: accented("Bob"), state: "played", played: true, score: null, place: null },
      { id: "31", name: user.name, state: "invited", played: false, score: null, place: null },
      { id: "33", name: accented("Cy"), state: "declined", played: false, score: null, place: null },
    ],
    ...overrides,
  });
  const closedChallenge = challenge({
    closed: true,
    open: true,
    can_answer: false,
    can_play: false,
    players: [{ id: "32", name: accented("Bob"), state: "played", played: true, score: 50, place: 1 }],
  });
  const full = { ...menu([lobby, running]), variants, running: klondikeGame({ title }), challenges: [challenge(), closedChallenge] };
  const screens = {
    menu: menuHtml(full, user, false),
    practice: menuHtml({ ...full, daily: null }, user, true),
    races: raceListHtml([lobby, { ...running, you: "watcher" }]) + raceListHtml([]),
    challenges: challengesHtml([challenge({ open: true, me: "playing", closes_in: 30 })], user),
    lobby: raceHtml({ race: lobby, user }, "lobby"),
    joining: raceHtml({ race: { ...lobby, you: "watcher" }, user: { id: "40", name: "Zé" } }, "lobby"),
    waiting: raceHtml({ race: { ...lobby, host: { id: "32", name: accented("Bob") } }, user }, "lobby"),
    countdown: raceHtml({ race: { ...running, starts_in: 3 }, user }, "countdown"),
    running: raceHtml({ race: running, user, leaving: false }, "running"),
    leaving: raceHtml({ race: running, user, leaving: true }, "running"),
    watching: raceHtml({ race: { ...running, you: "watcher" }, user }, "running"),
    results: raceHtml({ race: finished, user }, "results"),
    cancelled: raceHtml({ race: { ...lobby, status: "cancelled" }, user }, "closed"),
    expired: raceHtml({ race: { ...lobby, status: "expired" }, user }, "closed"),
    rivals: rivalsHtml(running, user),
  };
  for (const status of ["won", "stuck", "expired", "ended"]) {
    const game = klondikeGame({ title, over: true, status, kind: "race", deal: accented("ranked deal") });
    screens[`result ${status}`] = resultHtml({ ...game, sheet: [[accented("Cards up"), 560]] });
  }
  for (const [name, html] of Object.entries(screens)) {
    assert.ok(html.length > 0, name);
    assert.deepEqual(english(shown(html)), [], `${name}: ${shown(html)}`);
  }
  assert.deepEqual(english(cardWords("QH") + passWords(klondikeGame({ pass: 2, max_passes: 3 }))), []);
});

test("a frame that carries words changes the page's words, and every word is shown again", () => {
  let retold = 0;
  const c = new Controller({ draw() {}, retell: () => (retold += 1), flyBack() {}, letGo() {}, focus() {} }, () => 0);
  c.welcome({ type: "welcome", user: { id: "31", name: "Ada" }, practice_only: false, menu: menu(), ...PSEUDO }, false);
  assert.equal(pageLocale(), "de");
  assert.equal(retold, 1);
  c.take({ type: "menu", ref: 1, menu: menu() }); // no words: the same ones
  assert.equal(retold, 1);
  c.take({ type: "game", ref: 2, game: klondikeGame(), words: "Drew 3 cards." }); // a move's words: not the page's
  assert.equal(pageLocale(), "de");
  assert.equal(retold, 1);
  c.take({ type: "menu", ref: 3, menu: menu(), ...ENGLISH });
  assert.equal(pageLocale(), "en");
  assert.equal(retold, 2);
  clearTimeout(c.toastTimer);
});
