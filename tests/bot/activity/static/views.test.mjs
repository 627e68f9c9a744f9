// The views' markup over the one HTML helper, and the races' pure logic: no browser page.

import assert from "node:assert/strict";
import { test } from "node:test";

import { escape, placeWords, replace } from "../../../../bot/activity/static/app/html.js";
import { listRace, phaseOf, raceOfBoard, received, secondsTo } from "../../../../bot/activity/static/app/races.js";
import { menuHtml, raceListHtml } from "../../../../bot/activity/static/app/views/menu.js";
import { resultHtml } from "../../../../bot/activity/static/app/views/result.js";
import { ratingWords } from "../../../../bot/activity/static/app/views/standings.js";
import { klondikeGame, menu, race } from "./fixtures.mjs";

test("text is escaped into markup, and an element's markup is replaced only when it changed", () => {
  assert.equal(escape(`<b a="1">&'`), "&#60;b a=&#34;1&#34;&#62;&#38;&#39;");
  const el = { dataset: {}, innerHTML: "" };
  assert.equal(replace(el, "<p>1</p>"), true);
  assert.equal(replace(el, "<p>1</p>"), false);
  assert.equal(el.innerHTML, "<p>1</p>");
});

test("places and ratings in words", () => {
  const places = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(placeWords);
  assert.deepEqual(places, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]);
  assert.equal(ratingWords({ rating_before: 1000, rating_after: 1016.4 }), '1016 <small class="gain">+16</small>');
  assert.equal(ratingWords({ rating_before: 1000, rating_after: 969.6 }), '970 <small class="loss">−30</small>');
  assert.equal(ratingWords({ rating_before: 1000, rating_after: null }), "1000 <small>unrated</small>");
});

test("the menu: hello, new games, the race form, today's daily with the played one disabled", () => {
  const html = menuHtml(menu(), { id: "31", name: "Ada <3" }, false);
  assert.match(html, /Hello, Ada &#60;3/);
  assert.match(html, /data-action="start" data-kind="casual" data-variant="draw3"/);
  assert.match(html, /id="race-list"/);
  assert.match(html, /data-kind="daily" data-variant="draw3" disabled>/);
  const practice = menuHtml(menu(), null, true);
  assert.match(practice, /id="practice-deal"/);
  assert.doesNotMatch(practice, /race-list/);
  assert.match(raceListHtml([]), /No race open here/);
  assert.match(raceListHtml([race({ you: "watcher" })]), /data-action="race-join" data-race="4">Join/);
});

test("the result: how it ended, the score, the deal, the way back", () => {
  const html = resultHtml(klondikeGame({ over: true, status: "won", score: 612, deal: "#12", sheet: [["Cards up", "560"]] }));
  assert.match(html, /<h2>You won!<\/h2>/);
  assert.match(html, /Score <b>612<\/b>/);
  assert.match(html, /<li><span>Cards up<\/span><b>560<\/b><\/li>/);
  assert.match(html, /data-action="menu"/);
});

test("a race's phase counts down from its receipt; the menu lists the open races only", () => {
  const running = received(race({ status: "running", starts_in: 3, ends_in: 303 }), 1000);
  assert.equal(phaseOf(running, 2000), "countdown");
  assert.equal(secondsTo(running, "starts_in", 2000), 2);
  assert.equal(phaseOf(running, 4500), "running");
  assert.equal(phaseOf(race({ status: "cancelled" }), 0), "closed");
  const shown = menu([race({ id: 2 })]);
  listRace(shown, race({ id: 1 }));
  assert.deepEqual(shown.races.map((r) => r.id), [1, 2]);
  listRace(shown, race({ id: 2, status: "finished" }));
  assert.deepEqual(shown.races.map((r) => r.id), [1]);
  const mine = race({ status: "running" });
  assert.equal(raceOfBoard(klondikeGame({ kind: "race" }), null, menu([mine])), mine);
  assert.equal(raceOfBoard(klondikeGame(), null, menu([mine])), null);
});
