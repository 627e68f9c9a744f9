// The race screen: the lobby, the common countdown, a watcher's (or a finished racer's) standings and the results,
// and the other racers' strip beside a racer's board. Every figure is the server's last RACE (app/races.js); the
// page only counts seconds down between two frames.

import { formatClock } from "../../board/board.js";
import { escape, replace } from "../html.js";
import { phaseOf, secondsTo } from "../races.js";
import { racingOnBoard } from "../screens.js";
import { resultsHtml, rivalsHtml, standingsHtml } from "./standings.js";

/** Draw the race screen and the other racers' strip from the state. */
export function renderRace(state, dom) {
  const racing = racingOnBoard(state);
  dom.app.dataset.racing = racing ? "on" : "";
  document.documentElement.classList.toggle("racing", racing);
  dom.opponents.hidden = !racing;
  if (racing) replace(dom.opponents, rivalsHtml(state.race, state.user));
  if (state.screen === "race" && state.race) {
    const phase = phaseOf(state.race, performance.now());
    dom.race.dataset.phase = phase;
    const had = dom.race.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    if (replace(dom.race, raceHtml(state, phase))) keepFocus(dom.race, had);
  }
  tickRace(state, dom);
}

/** After the race screen changed, focus the button of the same action as before, else its main one (never Leave). */
function keepFocus(el, action) {
  const same = action ? el.querySelector(`button[data-action="${action}"]:not(:disabled)`) : null;
  const main = el.querySelector("button[data-focus]:not(:disabled), button[data-action='menu']");
  const next = same || main;
  if (next) next.focus({ preventScroll: true });
}

/** The ticking figures alone (a few times a second): the countdown, the time left, each racer's time used. */
export function tickRace(state, dom) {
  const race = state.race;
  if (!race) return;
  const now = performance.now();
  if (state.screen === "race" && dom.race.dataset.phase !== phaseOf(race, now)) return renderRace(state, dom);
  for (const el of document.querySelectorAll("#race [data-tick], #opponents [data-tick]")) {
    el.textContent = tickWords(race, el.dataset, now);
  }
  return undefined;
}

function tickWords(race, data, now) {
  if (data.tick === "start") return String(Math.ceil(secondsTo(race, "starts_in", now) || 0));
  if (data.tick === "end") return formatClock(secondsTo(race, "ends_in", now));
  const running = phaseOf(race, now) === "running";
  const since = Math.max(0, (now - race.receivedAt) / 1000); // seconds since the RACE was received
  if (data.clock === "waiting") return running ? formatClock(since - (race.starts_in || 0)) : "–:––";
  if (data.seconds === "") return "–:––";
  return formatClock(Number(data.seconds) + (data.clock === "playing" && running ? since : 0));
}

function raceHtml(state, phase) {
  const race = state.race;
  const head = headHtml("Race", race);
  const back = `<button type="button" class="quiet" data-action="menu">Back to menu</button>`;
  if (phase === "lobby") return `<div class="race-box">${head}${lobbyHtml(race, state.user)}</div>`;
  if (phase === "countdown") {
    const who = race.you === "racer" ? "Same deal, same clock for every racer." : "You are watching.";
    return (
      `<div class="race-box">${head}<p class="countdown-words">Starts in</p>` +
      `<p class="countdown" role="timer" aria-live="off"><span data-tick="start"></span></p>` +
      `<p class="note">${who}</p>${racerNames(race)}<p class="race-buttons">${back}</p></div>`
    );
  }
  if (phase === "running") {
    const still = (r) => r.id === userId(state) && (r.status === "playing" || r.status === "waiting");
    const mine = race.you === "racer" && race.racers.some(still);
    const role = race.you === "racer" ? "" : `<p class="note">Watching: standings and counts only.</p>`;
    return (
      `<div class="race-box">${head}<p class="race-clock">time left <b data-tick="end"></b></p>${role}` +
      `${standingsHtml(race, state.user)}${mine ? racerButtons(race, state.leaving) : `<p class="race-buttons">${back}</p>`}</div>`
    );
  }
  if (phase === "results") {
    const again = `<button type="button" class="big" data-focus data-action="menu">Back to menu</button>`;
    return `<div class="race-box">${headHtml("Results", race)}${resultsHtml(race, state.user)}${again}</div>`;
  }
  const closed = race.status === "cancelled" ? "This race was cancelled." : "This lobby expired before a start.";
  return `<div class="race-box">${head}<p>${closed}</p>${back}</div>`;
}

function headHtml(word, race) {
  return `<h2>${word} <small>${escape(race.title)}</small></h2>`;
}

/** A racer's buttons beside the standings: back to the board, or leave the race (asked twice). */
function racerButtons(race, leaving) {
  const id = `data-race="${race.id}"`;
  if (leaving) {
    return (
      `<p class="leave-words">Leave the race now? You are ranked after everyone who stays.</p><p class="race-buttons">` +
      `<button type="button" class="danger" data-action="race-leave" ${id}>Leave race</button>` +
      `<button type="button" data-focus data-action="race-keep">Keep racing</button></p>`
    );
  }
  return (
    `<p class="race-buttons"><button type="button" data-focus data-action="resume">Back to my board</button>` +
    `<button type="button" class="danger" data-action="race-leave-ask">Leave race</button></p>`
  );
}

function lobbyHtml(race, user) {
  const me = user ? user.id : null;
  const count = race.racers.length;
  const rows = race.racers
    .map((r) => {
      const tags = [r.id === race.host.id ? "host" : "", r.id === me ? "you" : ""].filter(Boolean);
      return `<li>${escape(r.name)}${tags.map((t) => ` <small class="tag">${t}</small>`).join("")}</li>`;
    })
    .join("");
  const id = `data-race="${race.id}"`;
  const buttons = [];
  if (race.you === "racer" && race.host.id === me) {
    const start = count >= 2 ? "" : " disabled";
    buttons.push(`<button type="button" class="big" data-focus data-action="race-start" ${id}${start}>Start</button>`);
    buttons.push(`<button type="button" class="danger" data-action="race-cancel" ${id}>Cancel race</button>`);
  } else if (race.you === "racer") {
    buttons.push(`<button type="button" class="danger" data-action="race-leave" ${id}>Leave</button>`);
  } else {
    const full = count >= race.capacity ? " disabled" : "";
    buttons.push(`<button type="button" class="big" data-focus data-action="race-join" ${id}${full}>Join</button>`);
  }
  buttons.push(`<button type="button" class="quiet" data-action="menu">Back to menu</button>`);
  const waiting =
    race.you !== "racer"
      ? "Join to race on the same deal."
      : race.host.id === me
        ? count >= 2
          ? "Start when everyone is in (it starts by itself when full)."
          : "Waiting for a second racer…"
        : `Waiting for ${escape(race.host.name)} to start (it starts by itself when full).`;
  return (
    `<p class="capacity"><b>${count}</b>/${race.capacity} racers</p><ul class="lobby-racers">${rows}</ul>` +
    `<p class="note">${waiting}</p><p class="race-buttons">${buttons.join("")}</p>`
  );
}

function racerNames(race) {
  return `<ul class="lobby-racers">${race.racers.map((r) => `<li>${escape(r.name)}</li>`).join("")}</ul>`;
}

function userId(state) {
  return state.user ? state.user.id : null;
}
