// The race screen: the lobby, the common countdown, a watcher's (or a finished racer's) standings and the results,
// and the other racers' strip beside a racer's board. Every figure is the server's last RACE (app/races.js); the
// page only counts seconds down between two frames.

import { formatClock } from "../../board/board.js";
import { word, wordHtml } from "../../speech.js";
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

/** The race screen's markup in `phase`. */
export function raceHtml(state, phase) {
  const race = state.race;
  const head = headHtml(wordHtml("race_title", { title: small(race.title) }));
  const back = `<button type="button" class="quiet" data-action="menu">${escape(word("back_to_menu"))}</button>`;
  if (phase === "lobby") return `<div class="race-box">${head}${lobbyHtml(race, state.user)}</div>`;
  if (phase === "countdown") {
    const who = race.you === "racer" ? word("same_deal") : word("you_watch");
    return (
      `<div class="race-box">${head}<p class="countdown-words">${escape(word("starts_in"))}</p>` +
      `<p class="countdown" role="timer" aria-live="off"><span data-tick="start"></span></p>` +
      `<p class="note">${escape(who)}</p>${racerNames(race)}<p class="race-buttons">${back}</p></div>`
    );
  }
  if (phase === "running") {
    const still = (r) => r.id === userId(state) && (r.status === "playing" || r.status === "waiting");
    const mine = race.you === "racer" && race.racers.some(still);
    const role = race.you === "racer" ? "" : `<p class="note">${escape(word("watching_note"))}</p>`;
    const clock = wordHtml("race_time_left", { clock: `<b data-tick="end"></b>` });
    return (
      `<div class="race-box">${head}<p class="race-clock">${clock}</p>${role}` +
      `${standingsHtml(race, state.user)}${mine ? racerButtons(race, state.leaving) : `<p class="race-buttons">${back}</p>`}</div>`
    );
  }
  if (phase === "results") {
    const again =
      `<button type="button" class="big" data-focus data-action="menu">${escape(word("back_to_menu"))}</button>`;
    const results = headHtml(wordHtml("results_title", { title: small(race.title) }));
    return `<div class="race-box">${results}${resultsHtml(race, state.user)}${again}</div>`;
  }
  const closed = race.status === "cancelled" ? word("race_cancelled") : word("lobby_expired");
  return `<div class="race-box">${head}<p>${escape(closed)}</p>${back}</div>`;
}

function headHtml(words) {
  return `<h2>${words}</h2>`;
}

function small(text) {
  return `<small>${escape(text)}</small>`;
}

/** A racer's buttons beside the standings: back to the board, or leave the race (asked twice). */
function racerButtons(race, leaving) {
  const id = `data-race="${race.id}"`;
  const leave = escape(word("leave_race"));
  if (leaving) {
    return (
      `<p class="leave-words">${escape(word("leave_confirm"))}</p><p class="race-buttons">` +
      `<button type="button" class="danger" data-action="race-leave" ${id}>${leave}</button>` +
      `<button type="button" data-focus data-action="race-keep">${escape(word("keep_racing"))}</button></p>`
    );
  }
  return (
    `<p class="race-buttons">` +
    `<button type="button" data-focus data-action="resume">${escape(word("back_to_board"))}</button>` +
    `<button type="button" class="danger" data-action="race-leave-ask">${leave}</button></p>`
  );
}

function lobbyHtml(race, user) {
  const me = user ? user.id : null;
  const count = race.racers.length;
  const rows = race.racers
    .map((r) => {
      const tags = [r.id === race.host.id ? word("tag_host") : "", r.id === me ? word("tag_you") : ""].filter(Boolean);
      return `<li>${escape(r.name)}${tags.map((t) => ` <small class="tag">${escape(t)}</small>`).join("")}</li>`;
    })
    .join("");
  const id = `data-race="${race.id}"`;
  const button = (cls, action, label, extra = "") =>
    `<button type="button" class="${cls}"${cls === "big" ? " data-focus" : ""} data-action="${action}"${extra}>` +
    `${escape(label)}</button>`;
  const buttons = [];
  if (race.you === "racer" && race.host.id === me) {
    buttons.push(button("big", "race-start", word("start"), ` ${id}${count >= 2 ? "" : " disabled"}`));
    buttons.push(button("danger", "race-cancel", word("cancel_race"), ` ${id}`));
  } else if (race.you === "racer") {
    buttons.push(button("danger", "race-leave", word("leave"), ` ${id}`));
  } else {
    buttons.push(button("big", "race-join", word("join"), ` ${id}${count >= race.capacity ? " disabled" : ""}`));
  }
  buttons.push(button("quiet", "menu", word("back_to_menu")));
  let waiting = word("join_note");
  if (race.you === "racer" && race.host.id === me) waiting = count >= 2 ? word("start_note") : word("waiting_second");
  else if (race.you === "racer") waiting = word("waiting_host", { name: race.host.name });
  const capacity = wordHtml("lobby_count", { count: `<b>${count}</b>`, capacity: race.capacity }, count);
  return (
    `<p class="capacity">${capacity}</p><ul class="lobby-racers">${rows}</ul>` +
    `<p class="note">${escape(waiting)}</p><p class="race-buttons">${buttons.join("")}</p>`
  );
}

function racerNames(race) {
  return `<ul class="lobby-racers">${race.racers.map((r) => `<li>${escape(r.name)}</li>`).join("")}</ul>`;
}

function userId(state) {
  return state.user ? state.user.id : null;
}
