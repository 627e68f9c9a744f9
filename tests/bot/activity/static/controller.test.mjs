// The controller's screen logic, with no DOM: a fake `ui` and a fake connection that answers as the server would.

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { Controller } from "../../../../bot/activity/static/app/controller.js";
import { klondikeGame, menu, race } from "./fixtures.mjs";

const made = [];

/** A controller whose connection answers each request with `answer(frame)` (recorded in `sent`). */
function controller(answer = () => ({ type: "game", game: klondikeGame() })) {
  let now = 0;
  const c = new Controller(
    { draw() {}, flyBack: (els) => c.flown.push(...els), letGo() {}, focus: (id) => c.focused.push(id) },
    () => (now += 100),
  );
  c.flown = [];
  c.focused = [];
  c.sent = [];
  c.connection = {
    async request(frame) {
      c.sent.push(frame);
      return { frame: { ref: c.sent.length, ...answer(frame) }, resent: false };
    },
  };
  c.welcome({ type: "welcome", user: { id: "31", name: "Ada" }, practice_only: false, menu: menu() }, false);
  made.push(c);
  return c;
}

afterEach(() => {
  for (const c of made.splice(0)) clearTimeout(c.toastTimer);
});

test("the welcome shows the menu; only show() changes the screen, and only to a screen there is", () => {
  const c = controller();
  assert.equal(c.state.screen, "menu");
  assert.equal(c.state.status, null);
  assert.throws(() => c.show("lobby"));
  c.show("race");
  assert.equal(c.state.screen, "race");
});

test("an answered GAME shows the board; a refusal keeps it and says why, but not for a resent request", async () => {
  const c = controller();
  await c.action("start", { variant: "draw3", kind: "casual" }, {});
  assert.deepEqual(c.sent.at(-1), { type: "start", variant: "draw3", kind: "casual", deal: null });
  assert.equal(c.state.screen, "game");
  c.take({ type: "refused", ref: 9, reason: "**w-1**: no", game: klondikeGame() });
  assert.equal(c.state.toast, "w-1: no");
  c.state.toast = null;
  c.take({ type: "refused", ref: 9, reason: "stale", game: null }, { resent: true });
  assert.equal(c.state.toast, null);
  assert.equal(c.state.screen, "game");
});

test("a pushed GAME: ignored on the menu, on the race screen and for another game; a race's start opens it", () => {
  const c = controller();
  c.push({ type: "game", ref: null, game: klondikeGame() });
  assert.equal(c.state.screen, "menu");
  c.push({ type: "game", ref: null, game: klondikeGame({ kind: "race" }) });
  assert.equal(c.state.screen, "game");
  c.push({ type: "game", ref: null, game: klondikeGame({ id: 99 }) });
  assert.equal(c.state.board.game.id, 7);
  c.state.board.drag = { source: "w", els: ["card"] };
  c.push({ type: "game", ref: null, game: klondikeGame({ version: 5 }) });
  assert.deepEqual(c.flown, ["card"]);
  assert.equal(c.state.board.drag, null);
  assert.equal(c.state.board.game.version, 5);
});

test("a pushed MENU is taken on the menu only", () => {
  const c = controller();
  c.take({ type: "game", ref: 1, game: klondikeGame() });
  c.push({ type: "menu", ref: null, menu: menu() });
  assert.equal(c.state.screen, "game");
  c.take({ type: "menu", ref: 2, menu: menu() });
  assert.equal(c.state.board.game, null);
  assert.equal(c.state.screen, "menu");
});

test("races: an answer shows its race, a race joined elsewhere follows from the menu, the results replace the board", () => {
  const c = controller();
  c.push({ type: "race", ref: null, race: race({ you: "watcher" }) });
  assert.equal(c.state.screen, "menu");
  assert.deepEqual(c.state.menu.races.map((r) => r.id), [4]); // listed on the menu
  c.push({ type: "race", ref: null, race: race() });
  assert.equal(c.state.screen, "race"); // joined elsewhere: the page follows to the start
  const running = race({ status: "running", starts_in: 0, ends_in: 300 });
  c.take({ type: "game", ref: 3, game: klondikeGame({ kind: "race" }) });
  c.push({ type: "race", ref: null, race: running });
  assert.equal(c.state.screen, "game");
  c.push({ type: "race", ref: null, race: race({ status: "finished" }) });
  assert.equal(c.state.screen, "race");
  assert.deepEqual(c.state.menu.races, []); // no longer open
});

test("race buttons the page answers itself: Watch, the standings, the two steps of leaving", async () => {
  const c = controller(() => ({ type: "race", race: race({ status: "lobby" }) }));
  c.take({ type: "menu", ref: 1, menu: menu([race({ id: 5, you: "watcher" })]) });
  await c.action("race-show", { race: "5" });
  assert.equal(c.state.screen, "race");
  assert.equal(c.state.race.id, 5);
  await c.action("race-leave-ask", {});
  assert.equal(c.state.leaving, true);
  await c.action("race-keep", {});
  assert.equal(c.state.leaving, false);
  assert.equal(c.sent.length, 0);
  await c.action("race-open", {}, { variant: "draw3", racers: "3" });
  assert.deepEqual(c.sent.at(-1), { type: "race_open", variant: "draw3", racers: 3 });
  await c.action("race-leave", { race: "5" });
  assert.deepEqual(c.sent.slice(-2), [{ type: "race_leave", race: 5 }, { type: "menu" }]); // out of the lobby
});

test("taps: a choice lights the dests and a tap there sends the drop, the server naming the move", async () => {
  const c = controller((frame) =>
    frame.type === "tap" ? { type: "choose", source: "w", targets: ["2"] } : { type: "game", game: klondikeGame() },
  );
  c.take({ type: "game", ref: 1, game: klondikeGame() });
  await c.tap({ slot: "w", source: "w", hasCard: true });
  assert.deepEqual(c.sent.at(-1), { type: "tap", game: 7, version: 3, source: "w" });
  assert.deepEqual([...c.state.board.lit], ["fh", "2"]);
  await c.tap({ slot: "fh", source: "fh", hasCard: true });
  assert.deepEqual(c.sent.at(-1), { type: "drop", game: 7, version: 3, source: "w", target: "fh" });
  await c.tap({ slot: "stock", source: null, hasCard: false });
  assert.equal(c.sent.at(-1).move, "draw");
  await c.tap({ slot: "fs", source: "fs", hasCard: false }); // the one legal move onto it? fs is a source: none
  assert.equal(c.sent.length, 3);
});

test("drops: the two slots are sent (an illegal drop too); off the table, the cards fly back and nothing is sent", async () => {
  const c = controller(() => ({ type: "refused", reason: "no", game: klondikeGame() }));
  c.take({ type: "game", ref: 1, game: klondikeGame() });
  const six = { isConnected: true };
  await c.drop({ source: "2", els: [six, { isConnected: false }] }, "1");
  assert.deepEqual(c.sent.at(-1), { type: "drop", game: 7, version: 3, source: "2", target: "1" });
  assert.deepEqual(c.flown, [six]); // refused: the cards still on the page fly back
  await c.drop({ source: "2", els: [six] }, null);
  assert.equal(c.sent.length, 1);
  assert.deepEqual(c.flown, [six, six]);
});

test("nothing is played off the game screen or on a finished game; End asks first", async () => {
  const c = controller();
  c.command("draw");
  assert.equal(c.sent.length, 0);
  c.take({ type: "game", ref: 1, game: klondikeGame() });
  c.command("end");
  assert.equal(c.state.confirming, true);
  assert.deepEqual(c.focused, ["confirm-no"]);
  c.confirmEnd(true);
  assert.equal(c.sent.at(-1).move, "end");
  c.take({ type: "game", ref: 2, game: klondikeGame({ over: true }) });
  c.command("undo");
  assert.equal(c.sent.length, 1);
});
