// What the page shows: one screen, the board (board/state.js), and what the app adds around it.

import { createBoard } from "../board/state.js";
import { word } from "../speech.js";

/** What the page shows: a screen, the board (board/state.js), and what the app adds around it. */
export function createState() {
  return {
    screen: "loading", // one of SCREENS, set by show() alone
    status: word("connecting_discord"),
    user: null,
    practiceOnly: false,
    menu: null,
    words: null, // what the last move did, in the server's words
    toast: null,
    confirming: false,
    race: null, // the RACE on show: a lobby, a countdown, the standings beside the board, the results
    leaving: false, // a racer asked to leave the running race, and is asked to confirm
    board: createBoard(),
  };
}
