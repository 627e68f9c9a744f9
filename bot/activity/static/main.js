// Wires the page: sign in through Discord, open the socket, then the menu screen and the game screen. Every
// answer from the server replaces what is shown; the page only adds the drag in progress and the lit targets.

import { dropMove, isLegal, litSlots, slotsOfTarget } from "./board.js";
import { signIn } from "./discord.js";
import { challengeRequest } from "./challenges.js";
import { attachPointer, flyBack, letGo } from "./drag.js";
import { adoptRace, isRaceStart, raceLocal, raceRequest, renderRace, takeMenuRaces, takeRace, tickRace } from "./race.js";
import { render, renderClock } from "./render.js";
import { routerOf } from "./route.js";
import { Connection, socketUrl } from "./socket.js";
import { plain } from "./words.js";
import { createState, setGame, setMenu } from "./state.js";

const TOAST_MS = 3500;
const state = createState();
const dom = findDom();
let connection = null;
let toastTimer = 0;

/** The elements index.html gives. */
function findDom() {
  const byId = (id) => document.getElementById(id);
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

function draw() {
  render(state, dom);
  renderRace(state, dom);
}

function toast(words) {
  state.toast = plain(words);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    state.toast = null;
    draw();
  }, TOAST_MS);
}

// -- asking the server ----------------------------------------------------------------------------------------

/** Send a request and take its answer as the truth; resolves with the answer frame. */
async function ask(frame) {
  const { frame: answer, resent } = await connection.request(frame);
  take(answer, resent);
  return answer;
}

/** Apply one answer (or pushed frame) from the server. */
function take(frame, resent = false) {
  const now = performance.now();
  if (frame.type === "game") {
    if (frame.game) {
      setGame(state, frame.game, frame.words ?? null, now);
      adoptRace(state);
    } else if (state.screen !== "menu") ask({ type: "menu" });
  } else if (frame.type === "refused") {
    if (frame.game) setGame(state, frame.game, undefined, now);
    if (!resent) toast(frame.reason);
  } else if (frame.type === "menu") {
    setMenu(state, frame.menu);
    state.race = null;
    takeMenuRaces(state, now);
  } else if (frame.type === "race") {
    takeRace(state, frame.race, now, frame.ref != null);
    if (frame.words) toast(frame.words); // the race opened, but its message could not be posted
  }
  draw();
}

/** A request about the game on show (its id and version name the board the player saw). */
function onBoard(frame) {
  return { ...frame, game: state.game.id, version: state.game.version };
}

function playable() {
  return Boolean(state.game) && !state.game.over && state.screen === "game";
}

/** Play one command in notation (a drop, a tap on a lit target, a button). */
function userMove(text) {
  if (!playable()) return Promise.resolve(null);
  state.selected = null;
  state.lit = new Set();
  return ask(onBoard({ type: "move", move: text }));
}

/** A tap on a card: the server plays it, or answers with the places it may go (lit until the next tap). */
async function userTap(source) {
  if (!playable()) return;
  const { frame } = await connection.request(onBoard({ type: "tap", source }));
  if (frame.type === "choose") {
    state.selected = frame.source;
    state.lit = new Set(frame.targets.flatMap((t) => slotsOfTarget(state.game, frame.source, t)));
    draw();
  } else take(frame);
}

function command(name) {
  if (!playable()) return;
  if (name === "draw" || name === "undo") userMove(name);
  else if (name === "allup" || (name === "hint" && state.game.hints)) ask(onBoard({ type: name }));
  else if (name === "end") {
    state.confirming = true;
    draw();
    document.getElementById("confirm-no").focus();
  }
}

function clearSelection() {
  if (!state.selected && !state.lit.size) return;
  state.selected = null;
  state.lit = new Set();
  draw();
}

// -- taps, drags and keys -------------------------------------------------------------------------------------

/** A tap (or Enter) on a card or a slot. */
function tap(el) {
  if (!playable()) return;
  const slotEl = el.closest("[data-slot]");
  const slotId = slotEl ? slotEl.dataset.slot : null;
  if (slotId === "stock") return void userMove("draw");
  if (state.selected && slotId && state.lit.has(slotId)) return void userMove(dropMove(state.game, state.selected, slotId));
  const source = el.dataset.source || (slotEl && slotEl.dataset.source);
  if (!source && slotId) {
    const only = onlyMoveTo(slotId);
    if (only) return void userMove(only);
  }
  if (source && source === state.selected) return clearSelection();
  if (source && hasCard(slotEl)) return void userTap(source);
  clearSelection();
}

/** The one legal move onto a slot that is no source (a Friday 13 foundation takes the waste's top). */
function onlyMoveTo(slotId) {
  const moves = state.game.legal_moves.filter((text) => {
    const dash = text.indexOf("-");
    return dash > 0 && slotsOfTarget(state.game, text.slice(0, dash), text.slice(dash + 1)).includes(slotId);
  });
  return moves.length === 1 ? moves[0] : null;
}

function hasCard(slotEl) {
  return Boolean(slotEl && slotEl.querySelector(".card.face"));
}

const pointer = {
  state,
  canDrag: () => playable(),
  pickUp(drag) {
    state.selected = null;
    state.lit = litSlots(state.game, drag.source);
    draw();
  },
  async drop(drag, slotId) {
    const text = slotId ? dropMove(state.game, drag.source, slotId) : null;
    state.lit = new Set();
    if (!text) {
      state.drag = null;
      flyBack(drag.els);
      draw();
      return;
    }
    letGo(drag.els);
    const answer = await userMove(text);
    state.drag = null;
    if (!answer || answer.type !== "game") flyBack(drag.els.filter((el) => el.isConnected));
  },
  tap,
};

function onKey(event) {
  if (event.target.closest("input, textarea")) return;
  if (state.confirming) {
    if (event.key === "Escape") confirmEnd(false);
    return;
  }
  const key = event.key.toLowerCase();
  const shortcuts = { d: "draw", u: "undo", a: "allup", h: "hint" };
  if (state.screen === "game" && shortcuts[key] && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    return command(shortcuts[key]);
  }
  if (key === "escape") return clearSelection();
  const slotEl = event.target.closest && event.target.closest("[data-slot]");
  if (!slotEl) return undefined;
  if (key === "enter" || key === " ") {
    event.preventDefault();
    const cardsHere = slotEl.querySelectorAll(".card.face");
    tap(cardsHere.length ? cardsHere[cardsHere.length - 1] : slotEl);
  } else if (key.startsWith("arrow")) {
    event.preventDefault();
    const slots = [...dom.table.querySelectorAll("[data-slot]")];
    const step = key === "arrowleft" || key === "arrowup" ? -1 : 1;
    const next = slots[(slots.indexOf(slotEl) + step + slots.length) % slots.length];
    next.focus();
  }
  return undefined;
}

function confirmEnd(yes) {
  state.confirming = false;
  draw();
  if (yes) userMove("end");
  else dom.buttons.end.focus();
}

function onMenuClick(event) {
  const button = event.target.closest("button[data-action]");
  if (!button || button.disabled) return;
  const action = button.dataset.action;
  if (action.startsWith("race-")) onRaceAction(action, button.dataset);
  else if (action === "resume") ask({ type: "resume" });
  else if (action === "menu") ask({ type: "menu" });
  else if (action === "challenge") {
    ask(challengeRequest(button)).then((answer) => {
      if (answer.type === "refused") ask({ type: "menu" }); // the menu was out of date (answered or played elsewhere)
    });
  }
  else if (action === "start") {
    const kind = button.dataset.kind;
    const field = document.getElementById("practice-deal");
    const deal = kind === "practice" && field && field.value ? Number(field.value) : null;
    ask({ type: "start", variant: button.dataset.variant, kind, deal }).then((answer) => {
      if (answer.type === "refused") ask({ type: "menu" }); // the menu was out of date (a daily played elsewhere)
    });
  }
}

/** A race button: one the page answers itself (race.js), or a request answered by the race (shown). */
async function onRaceAction(action, data) {
  if (raceLocal(state, action, data)) return draw();
  const request = raceRequest(action, data);
  const answer = await ask(request);
  state.leaving = false;
  const closed = answer.type === "race" && ["lobby", "cancelled"].includes(answer.race.status);
  if (closed && (request.type === "race_leave" || request.type === "race_cancel")) {
    ask({ type: "menu" }); // out of the lobby: back to the channel's races
  } else draw();
  return undefined;
}

// -- start ----------------------------------------------------------------------------------------------------

function wire() {
  attachPointer(dom.table, pointer);
  for (const button of Object.values(dom.buttons)) {
    button.addEventListener("click", () => command(button.dataset.command));
  }
  dom.menu.addEventListener("click", onMenuClick);
  dom.result.addEventListener("click", onMenuClick);
  dom.race.addEventListener("click", onMenuClick);
  dom.opponents.addEventListener("click", () => onRaceAction("race-standings", {})); // the whole line, or its button
  document.getElementById("confirm-yes").addEventListener("click", () => confirmEnd(true));
  document.getElementById("confirm-no").addEventListener("click", () => confirmEnd(false));
  document.addEventListener("keydown", onKey);
  setInterval(() => {
    if (state.screen === "game" && state.game && !state.game.over) renderClock(state, dom);
    tickRace(state, dom);
  }, 250);
}

async function start() {
  wire();
  draw();
  const clientId = document.querySelector('meta[name="discord-client-id"]').content;
  let hello;
  try {
    ({ hello } = await signIn(clientId, new URL("api/token", document.baseURI).toString()));
  } catch (error) {
    state.status = `Could not sign in through Discord: ${error.message || error}`;
    state.screen = "error";
    draw();
    return;
  }
  state.status = "Connecting to the game…";
  draw();
  connection = new Connection(socketUrl(document.baseURI), hello, {
    welcome(frame, again) {
      state.user = frame.user;
      state.practiceOnly = frame.practice_only;
      state.pending = connection.pending;
      if (again && frame.menu) {
        state.menu = frame.menu; // the channel's races as they are now (the race on show follows)
        takeMenuRaces(state, performance.now());
      }
      if (again && state.game) ask({ type: "resume" });
      else if (!again) {
        setMenu(state, frame.menu);
        takeMenuRaces(state, performance.now());
        state.status = null;
        draw();
      }
    },
    push(frame) {
      if (frame.type === "menu" && state.screen === "menu") return void take(frame); // a challenge changed
      if (frame.type === "race") return take(frame);
      if (frame.type !== "game" || !frame.game) return;
      if (isRaceStart(state, frame.game)) return take(frame); // the common start: the racer's board opens
      if (state.screen === "race") return;
      if (state.game && frame.game.id !== state.game.id && state.screen === "game") return;
      if (state.screen === "menu") return;
      if (state.drag) {
        flyBack(state.drag.els);
        state.drag = null;
      }
      take(frame);
    },
    status(words) {
      state.status = words;
      draw();
    },
    closed(reason) {
      state.status = reason;
      draw();
    },
  }, routerOf(document));
  connection.open();
  window.solitaireRush = { state, connection }; // for the browser tests and for debugging from the console
}

start();
