// The page's one controller, in the shape of lila's round handlers: one handler per frame type the server sends,
// and one show(screen), the only place the screen changes. Every answer replaces what is shown; the page only
// adds the drag in progress and the lit slots. No DOM here: the `ui` given draws, flies cards back and focuses.

import { STOCK, dropOf, onlyDropOnto } from "../board/board.js";
import { clearSelection, dropGame, lightDrag, select, takeGame } from "../board/state.js";
import { menuAction } from "./actions.js";
import { listRace, raceOfBoard, received, takeMenuRaces } from "./races.js";
import { setSpeech } from "../speech.js";
import { SCREENS, playable, raceScreen, takesPushedGame, takesPushedMenu } from "./screens.js";
import { createState } from "./state.js";
import { plain } from "./words.js";

const TOAST_MS = 3500;

/** One handler per frame type: `how` says whether it was `asked` (an answer) and `resent` (after a reconnect). */
function handlersOf(c) {
  const { state } = c;
  return {
    game(frame, now) {
      if (!frame.game) {
        if (state.screen !== "menu") c.ask({ type: "menu" }); // no game here any more
        return;
      }
      takeGame(state.board, frame.game, now);
      state.words = frame.words ?? null;
      state.race = raceOfBoard(frame.game, state.race, state.menu); // a racer's board: its race beside it
      c.show("game");
    },
    refused(frame, now, how) {
      if (frame.game) {
        takeGame(state.board, frame.game, now);
        c.show("game");
      }
      if (!how.resent) c.toast(frame.reason);
    },
    menu(frame, now) {
      state.menu = frame.menu;
      dropGame(state.board);
      state.words = null;
      state.race = takeMenuRaces(state.menu, null, now);
      c.show("menu");
    },
    race(frame, now, how) {
      const race = received(frame.race, now);
      listRace(state.menu, race);
      const screen = raceScreen(state, race, how.asked, now);
      if (screen || (state.race && state.race.id === race.id)) state.race = race;
      if (screen) c.show(screen);
      if (frame.words) c.toast(frame.words); // the race opened, but its message could not be posted
    },
    choose(frame) {
      select(state.board, frame.source); // the tapped card may go to several places: its dests lit
    },
  };
}

export class Controller {
  /** `ui`: {draw(), retell(), flyBack(els), letGo(els), focus(id)}; `clock`: local monotonic milliseconds. */
  constructor(ui, clock = () => performance.now()) {
    this.state = createState();
    this.ui = ui;
    this.clock = clock;
    this.connection = null;
    this.toastTimer = 0;
    this.handlers = handlersOf(this);
  }

  /** The one place the screen changes. */
  show(screen) {
    if (!SCREENS.includes(screen)) throw new Error(`no screen ${screen}`);
    this.state.screen = screen;
  }

  /** Apply one frame from the server (an answer or a push) through its handler, and draw. */
  take(frame, how = {}) {
    this.hear(frame);
    const handler = this.handlers[frame.type];
    if (handler) handler(frame, this.clock(), { asked: frame.ref != null, resent: false, ...how });
    this.ui.draw();
  }

  /** A frame pushed by the server: taken when it concerns what is on show. */
  push(frame) {
    if (frame.type === "menu") return takesPushedMenu(this.state) ? this.take(frame) : undefined;
    if (frame.type === "race") return this.take(frame);
    if (frame.type !== "game" || !takesPushedGame(this.state, frame.game)) return undefined;
    const board = this.state.board;
    if (board.drag) {
      this.ui.flyBack(board.drag.els);
      board.drag = null;
    }
    return this.take(frame);
  }

  /** Take the words a frame carries (a `welcome`'s, a `menu`'s after the language changed): every word shown again. */
  hear(frame) {
    const carries = frame.type === "welcome" || frame.type === "menu"; // a game's or race's `words` are news
    if (carries && setSpeech(frame) && this.ui.retell) this.ui.retell();
  }

  /** The socket's `welcome` (`again` after a reconnect: the game on show is asked for again). */
  welcome(frame, again) {
    const state = this.state;
    this.hear(frame);
    state.user = frame.user;
    state.practiceOnly = frame.practice_only;
    if (!again) {
      this.take({ type: "menu", menu: frame.menu });
      state.status = null;
      return this.ui.draw();
    }
    if (frame.menu) {
      state.menu = frame.menu; // the channel's races as they are now (the race on show follows)
      state.race = takeMenuRaces(state.menu, state.race, this.clock());
    }
    if (state.board.game) this.ask({ type: "resume" });
    return undefined;
  }

  /** The connection's words (null: connected), or why it closed; `error`: the page cannot go on. */
  say(words, error = false) {
    this.state.status = words;
    if (error) this.show("error");
    this.ui.draw();
  }

  toast(words) {
    this.state.toast = plain(words);
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => this.hideToast(), TOAST_MS);
  }

  hideToast() {
    this.state.toast = null;
    this.ui.draw();
  }

  /** Send a request and take its answer as the truth; resolves with the answer frame. */
  async ask(frame) {
    const { frame: answer, resent } = await this.connection.request(frame);
    this.take(answer, { resent });
    return answer;
  }

  // -- the board ----------------------------------------------------------------------------------------------

  /** A request about the game on show (its id and version name the board the player saw). */
  onBoard(frame) {
    const game = this.state.board.game;
    return { ...frame, game: game.id, version: game.version };
  }

  /** Play a command (a button: draw, undo, end). */
  play(move) {
    if (!playable(this.state)) return Promise.resolve(null);
    clearSelection(this.state.board);
    return this.ask(this.onBoard({ type: "move", move }));
  }

  /** Play a drop (a card dragged, or a tap on a lit slot): its two slots; the server names the move. */
  playDrop(drop) {
    if (!playable(this.state)) return Promise.resolve(null);
    clearSelection(this.state.board);
    return this.ask(this.onBoard({ type: "drop", source: drop.source, target: drop.target }));
  }

  /** A tap on a card of `source`: the server plays it, or answers `choose` (its dests lit until the next tap). */
  async tapSource(source) {
    if (!playable(this.state)) return;
    const { frame } = await this.connection.request(this.onBoard({ type: "tap", source }));
    this.take(frame);
  }

  /** A tap (or Enter) on `slot` (its id), on a card of `source` or none; `hasCard`: a face-up card is there. */
  tap({ slot, source, hasCard }) {
    const board = this.state.board;
    if (!playable(this.state)) return undefined;
    if (slot === STOCK) return void this.play("draw");
    if (board.selected && slot && board.lit.has(slot)) return void this.playDrop(dropOf(board.game, board.selected, slot));
    if (!source && slot) {
      const only = onlyDropOnto(board.game, slot);
      if (only) return void this.playDrop(only);
    }
    if (source && source === board.selected) return this.unselect();
    if (source && hasCard) return void this.tapSource(source);
    return this.unselect();
  }

  unselect() {
    if (clearSelection(this.state.board)) this.ui.draw();
  }

  /** A card picked up: its dests lit. */
  pickUp(drag) {
    lightDrag(this.state.board, drag.source);
    this.ui.draw();
  }

  /** A drag let go over `slot` (null: off the table): sent as a drop, or back it flies. */
  async drop(drag, slot) {
    const board = this.state.board;
    const drop = dropOf(board.game, drag.source, slot);
    board.lit = new Set();
    if (!drop) {
      board.drag = null;
      this.ui.flyBack(drag.els);
      this.ui.draw();
      return;
    }
    this.ui.letGo(drag.els);
    const answer = await this.playDrop(drop);
    board.drag = null;
    if (!answer || answer.type !== "game") this.ui.flyBack(drag.els.filter((el) => el.isConnected));
  }

  /** A toolbar button (or its key): draw, undo, all up, hint, or end (asked first). */
  command(name) {
    const game = this.state.board.game;
    if (!playable(this.state)) return;
    if (name === "draw" || name === "undo") this.play(name);
    else if (name === "allup" || (name === "hint" && game.hints)) this.ask(this.onBoard({ type: name }));
    else if (name === "end") {
      this.state.confirming = true;
      this.ui.draw();
      this.ui.focus("confirm-no");
    }
  }

  confirmEnd(yes) {
    this.state.confirming = false;
    this.ui.draw();
    if (yes) this.play("end");
    else this.ui.focus("btn-end");
  }

  /** A button of the menu, the race screen or the result (`data`: its data attributes; `form`: the menu's fields). */
  action(action, data, form = {}) {
    return menuAction(this, action, data, form);
  }
}
