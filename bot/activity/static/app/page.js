// The page's DOM: the elements index.html gives, and every screen drawn from the state (the screen shown is
// the state's; the controller's show() alone changes it).

import { renderClock, renderGame } from "./views/game.js";
import { renderMenu } from "./views/menu.js";
import { renderRace, tickRace } from "./views/race.js";
import { renderResult } from "./views/result.js";

/** The elements index.html gives. */
export function findDom(doc) {
  const byId = (id) => doc.getElementById(id);
  return {
    app: byId("app"),
    title: byId("title"),
    pass: byId("pass"),
    clock: byId("clock"),
    score: byId("score"),
    words: byId("words"),
    table: byId("table"),
    menu: byId("menu"),
    race: byId("race"),
    opponents: byId("opponents"),
    result: byId("result"),
    status: byId("status"),
    toast: byId("toast"),
    confirm: byId("confirm"),
    buttons: {
      draw: byId("btn-draw"),
      undo: byId("btn-undo"),
      allup: byId("btn-allup"),
      hint: byId("btn-hint"),
      end: byId("btn-end"),
    },
  };
}

/** Draw every screen from the state. */
export function draw(state, dom) {
  dom.app.dataset.screen = state.screen;
  dom.status.textContent = state.status || "";
  dom.status.hidden = !state.status;
  dom.toast.hidden = !state.toast;
  dom.toast.textContent = state.toast || "";
  dom.confirm.hidden = !state.confirming;
  if (state.screen === "menu") renderMenu(state, dom.menu);
  const gameShown = state.screen === "game" && Boolean(state.board.game);
  if (gameShown) renderGame(state, dom);
  renderResult(gameShown ? state.board.game : null, dom.result);
  renderRace(state, dom);
}

/** The ticking figures (a few times a second): the game's clock, the race's counts. */
export function tick(state, dom) {
  const game = state.board.game;
  if (state.screen === "game" && game && !game.over) renderClock(state, dom);
  tickRace(state, dom);
}
