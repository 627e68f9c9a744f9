// The page's one State object: what is shown (the server's last GAME), plus what the player is doing with it.

/** A fresh state: nothing shown yet. */
export function createState() {
  return {
    screen: "loading", // "loading" | "menu" | "game" | "race" | "error"
    status: "Connecting to Discord…",
    user: null,
    practiceOnly: false,
    menu: null,
    game: null, // the server's last GAME frame: the only truth about the board
    words: null, // what the last move did, in the server's words
    clock: null, // {serverNow, receivedAt}: the server's time when the GAME arrived, and local monotonic time then
    selected: null, // the source a tap chose, waiting for a tap on a lit target
    lit: new Set(), // slot ids lit (a `choose` answer, or the drag in progress)
    drag: null, // the drag in progress (drag.js)
    pending: new Map(), // ref -> the request sent and not answered yet (socket.js)
    toast: null,
    confirming: false,
    race: null, // the RACE on show (race.js): a lobby, a countdown, the standings beside the board, the results
    leaving: false, // a racer asked to leave the running race, and is asked to confirm
  };
}

/** Take a GAME frame from the server as the truth: the board, its clock, and no stale selection. */
export function setGame(state, game, words, receivedAt) {
  state.game = game;
  if (words !== undefined) state.words = words;
  state.clock = game ? { serverNow: game.now, receivedAt } : null;
  state.selected = null;
  state.lit = new Set();
  state.screen = "game";
}

/** Show the menu (a `welcome` or `menu` frame). */
export function setMenu(state, menu) {
  state.menu = menu;
  state.game = null;
  state.words = null;
  state.selected = null;
  state.lit = new Set();
  state.screen = "menu";
}
