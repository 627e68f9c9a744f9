// The game screen around the board: the top bar (title, pass, clock, score, the last move in words) and the
// toolbar, whose buttons the GAME enables (what it allows now, whether the game has All up and hints).

import { formatClock, isLegal, secondsLeft } from "../../board/board.js";
import { renderBoard } from "../../board/render.js";
import { number, word } from "../../speech.js";

/** Draw the game screen: the top bar, the toolbar and the board. */
export function renderGame(state, dom) {
  const game = state.board.game;
  dom.title.textContent = game.title;
  dom.score.textContent = number(game.score);
  const passes = game.max_passes != null;
  dom.pass.hidden = !passes;
  dom.pass.textContent = passes ? word("pass_stock", { pass: game.pass, passes: game.max_passes, stock: game.stock }) : "";
  dom.words.textContent = state.words || "";
  renderClock(state, dom);
  renderToolbar(game, dom.buttons);
  renderBoard(state.board, dom.table);
}

/** The clock alone (redrawn a few times a second). */
export function renderClock(state, dom) {
  const left = secondsLeft(state.board.game, state.board.clock, performance.now());
  dom.clock.textContent = formatClock(left);
  dom.clock.classList.toggle("low", left != null && left < 30);
}

function renderToolbar(game, buttons) {
  const playing = !game.over;
  buttons.draw.disabled = !playing || !isLegal(game, "draw");
  buttons.undo.disabled = !playing || !game.can_undo;
  buttons.allup.disabled = !playing || !game.all_up;
  buttons.allup.hidden = !game.all_up;
  buttons.hint.hidden = !game.hints;
  buttons.hint.disabled = !playing || !game.hints;
  buttons.end.disabled = !playing;
}
