// The controller's screen logic, pure: which screen a frame from the server shows, given what is on show now.
// (The controller's show() alone sets the screen; these only say which.)

import { beforeStart } from "./races.js";

export const SCREENS = ["loading", "menu", "game", "race", "error"];

/** Whether a pushed GAME is the racer's board dealt at the common start (it opens, wherever the page is). */
export function isRaceStart(state, game) {
  return game.kind === "race" && !game.over && state.screen !== "game";
}

/** Whether a pushed GAME (changed elsewhere: a button, the clock, a race's start) replaces what is on show. */
export function takesPushedGame(state, game) {
  if (!game) return false;
  if (isRaceStart(state, game)) return true;
  if (state.screen === "race" || state.screen === "menu") return false;
  const shown = state.board.game;
  return !(shown && game.id !== shown.id && state.screen === "game");
}

/** Whether a pushed MENU (a challenge changed) is taken: only on the menu. */
export function takesPushedMenu(state) {
  return state.screen === "menu";
}

/**
 * The screen a RACE received at `nowMs` shows, or null (the screen stays): an answer shows its race; a race the
 * player joined elsewhere (the race message's button) shows from the menu until its start; a racer's race on
 * show replaces the board with its results.
 */
export function raceScreen(state, race, asked, nowMs) {
  if (asked) return "race";
  if (!state.race && race.you === "racer" && state.screen === "menu" && beforeStart(race, nowMs)) return "race";
  const shown = Boolean(state.race) && state.race.id === race.id;
  if (shown && race.status === "finished" && state.screen === "game") return "race";
  return null;
}

/** Whether the page shows a racer's board with the other racers beside it. */
export function racingOnBoard(state) {
  const game = state.board.game;
  return state.screen === "game" && Boolean(game) && game.kind === "race" && Boolean(state.race) && state.race.you === "racer";
}

/** Whether the board on show may be played (a game running, on the game screen). */
export function playable(state) {
  return state.screen === "game" && Boolean(state.board.game) && !state.board.game.over;
}
