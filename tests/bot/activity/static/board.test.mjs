// The board's pure modules: the dests the server feeds, the drops sent, the board's state, the clock's words.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  canMoveFrom,
  cardWords,
  destsOf,
  formatClock,
  hasPiles,
  isLegal,
  dropOf,
  onlyDropOnto,
  passWords,
  rankOf,
  secondsLeft,
} from "../../../../bot/activity/static/board/board.js";
import { clearSelection, createBoard, lightDrag, select, takeGame } from "../../../../bot/activity/static/board/state.js";
import { fridayGame, klondikeGame } from "./fixtures.mjs";

test("a source's dests are the server's, and a source without any has none", () => {
  const game = klondikeGame();
  assert.deepEqual(destsOf(game, "w"), ["fh", "2"]);
  assert.deepEqual(destsOf(game, "2"), []);
  assert.deepEqual(destsOf(null, "w"), []);
  assert.equal(canMoveFrom(game, "1"), true);
  assert.equal(canMoveFrom(game, "fh"), false);
});

test("a drop is sent as its two slots, legal or not; none for its own slot, the stock or off the table", () => {
  const game = klondikeGame();
  assert.deepEqual(dropOf(game, "w", "fh"), { source: "w", target: "fh" }); // the server names the move
  assert.deepEqual(dropOf(game, "2", "1"), { source: "2", target: "1" }); // illegal: refused in the engine's words
  assert.equal(dropOf(game, "w", "w"), null);
  assert.equal(dropOf(game, "w", null), null);
  assert.equal(dropOf(game, "w", "stock"), null);
});

test("a tap on a slot that is no source plays the one legal drop onto it, and nothing when there are several", () => {
  assert.deepEqual(onlyDropOnto(fridayGame(), "Q"), { source: "w", target: "Q" });
  assert.equal(onlyDropOnto(fridayGame(), "J"), null); // no card may go there
  const two = klondikeGame({ dests: { w: ["2"], 1: ["2"] } });
  assert.equal(onlyDropOnto(two, "2"), null);
  assert.deepEqual(onlyDropOnto(klondikeGame(), "fs"), { source: "1", target: "fs" });
});

test("a board's shape, commands and words come from the GAME", () => {
  assert.equal(hasPiles(klondikeGame()), true);
  assert.equal(hasPiles(fridayGame()), false);
  assert.equal(isLegal(klondikeGame(), "draw"), true);
  assert.equal(isLegal(klondikeGame({ legal_moves: [] }), "draw"), false);
  assert.equal(rankOf("TC"), "10");
  assert.equal(cardWords("QH"), "queen of hearts");
  assert.equal(passWords(klondikeGame()), null);
  assert.equal(passWords(klondikeGame({ pass: 2, max_passes: 3 })), "pass 2 of 3");
});

test("the clock counts down from the server's time at receipt", () => {
  const game = klondikeGame({ deadline: 1300, now: 1000 });
  assert.equal(secondsLeft(game, { serverNow: 1000, receivedAt: 5000 }, 15000), 290);
  assert.equal(secondsLeft(game, { serverNow: 1000, receivedAt: 0 }, 400000), 0);
  assert.equal(formatClock(245), "4:05");
  assert.equal(formatClock(null), "–:––");
});

test("the board's state: a GAME clears the selection; a tap's choice and a drag light the dests", () => {
  const board = createBoard();
  takeGame(board, klondikeGame(), 10);
  assert.deepEqual(board.clock, { serverNow: 1000, receivedAt: 10 });
  select(board, "w");
  assert.equal(board.selected, "w");
  assert.deepEqual([...board.lit], ["fh", "2"]);
  takeGame(board, klondikeGame({ version: 4 }), 20);
  assert.equal(board.selected, null);
  assert.equal(board.lit.size, 0);
  lightDrag(board, "1");
  assert.deepEqual([...board.lit], ["fs"]);
  assert.equal(clearSelection(board), true);
  assert.equal(clearSelection(board), false);
});
