// The board's state: the server's last GAME (the only truth about the board), its clock, and what the player is
// doing with it (a tapped source, the lit slots, the drag in progress). Nothing here knows about screens.

import { destsOf } from "./board.js";

/** A board with nothing shown yet. */
export function createBoard() {
  return {
    game: null, // the server's last GAME frame
    clock: null, // {serverNow, receivedAt}: the server's time when the GAME arrived, and local monotonic time then
    selected: null, // the source a tap chose, waiting for a tap on a lit target
    lit: new Set(), // slot ids lit (a tapped source's dests, or the drag in progress)
    drag: null, // the drag in progress (drag.js)
  };
}

/** Take a GAME from the server as the truth, received at local time `receivedAt`: no stale selection. */
export function takeGame(board, game, receivedAt) {
  board.game = game;
  board.clock = game ? { serverNow: game.now, receivedAt } : null;
  clearSelection(board);
}

/** Show no game. */
export function dropGame(board) {
  takeGame(board, null, 0);
}

/** Select `source` (a tap that offered a choice): its dests are lit until the next tap. */
export function select(board, source) {
  board.selected = source;
  board.lit = new Set(destsOf(board.game, source));
}

/** Light the dests of a card picked up from `source` (a drag; no selection). */
export function lightDrag(board, source) {
  board.selected = null;
  board.lit = new Set(destsOf(board.game, source));
}

/** Forget the selection and the lights; whether there were any. */
export function clearSelection(board) {
  const had = Boolean(board.selected) || board.lit.size > 0;
  board.selected = null;
  board.lit = new Set();
  return had;
}
