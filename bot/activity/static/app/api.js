// The page's one seam for the outside: the browser tests, the host and a console read what is on show and act
// through this, never through the state itself.

import { pageLocale } from "../speech.js";

/** The seam over the controller `c`: a snapshot of what is on show, and the few acts a test or the host needs. */
export function pageApi(c) {
  return Object.freeze({
    /** What is on show, as plain data: the screen, the GAME and RACE on show, the lights, the socket's state. */
    snapshot() {
      const { state } = c;
      const board = state.board;
      const connection = c.connection;
      return {
        screen: state.screen,
        status: state.status,
        toast: state.toast,
        user: state.user,
        game: board.game,
        race: state.race,
        selected: board.selected,
        lit: [...board.lit],
        dragging: Boolean(board.drag),
        pending: connection ? connection.pending.size : 0, // requests sent and not answered yet
        stopped: Boolean(connection && connection.stopped), // closed for good: the page will not reconnect
        locale: pageLocale(), // the language its words are said in, as Intl names it
      };
    },
    /** Send a request on the page's socket (as a button would); resolves with `{frame, resent}`. */
    request(frame) {
      return c.connection.request(frame);
    },
    /** Drop the socket as a network would (the page reconnects by itself). */
    dropSocket() {
      c.connection.socket.close();
    },
    /** Take the toast away now. */
    hideToast() {
      c.hideToast();
    },
  });
}

/** Put the seam where the host and the tests find it. */
export function installApi(c, win) {
  win.solitaireRush = pageApi(c);
}
