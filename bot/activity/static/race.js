// Races and watching: the menu's open races, the lobby, the common countdown, the other racers' counts beside
// the board, a watcher's standings and the results. Every figure is the server's last RACE frame; the page only
// counts seconds down between two frames. A race shows counts only: no board but the racer's own, ever.

import { formatClock } from "./board.js";

const OPEN = new Set(["lobby", "running"]);
const CARDS = 52;
const SIZES = [2, 3, 4, 5, 6, 7, 8];
const ENDINGS = {
  won: "won",
  stuck: "stuck",
  expired: "time",
  ended: "ended",
  left: "left",
  lost: "lost",
};

// -- the state ------------------------------------------------------------------------------------------------

/**
 * Take a RACE from the server (an answer when `asked`, else a push) received at local time `receivedAt`: the
 * menu's list, the race on show, and the screen (a racer's race shows itself; its results replace the board).
 */
export function takeRace(state, received, receivedAt, asked) {
  const race = { ...received, receivedAt };
  listRace(state, race);
  const shown = state.race && state.race.id === race.id;
  if (asked || shown) state.race = race;
  if (asked) state.screen = "race";
  else if (!state.race && race.you === "racer" && state.screen === "menu" && before(race, receivedAt)) {
    state.race = race; // joined elsewhere (the race message's button): the page follows to the start
    state.screen = "race";
  } else if (shown && race.status === "finished" && state.screen === "game") state.screen = "race";
}

/** Whether a race has not started yet (a lobby, or its countdown). */
function before(race, nowMs) {
  const phase = phaseOf(race, nowMs);
  return phase === "lobby" || phase === "countdown";
}

/** Keep the menu's list of the channel's open races up to date. */
function listRace(state, race) {
  if (!state.menu || !Array.isArray(state.menu.races)) return;
  const others = state.menu.races.filter((r) => r.id !== race.id);
  state.menu.races = OPEN.has(race.status) ? [...others, race].sort((a, b) => a.id - b.id) : others;
}

/** Take the races of a `welcome` or `menu` frame (the race on show follows its fresh copy). */
export function takeMenuRaces(state, receivedAt) {
  if (!state.menu || !Array.isArray(state.menu.races)) return;
  state.menu.races = state.menu.races.map((race) => ({ ...race, receivedAt }));
  const fresh = state.race && state.menu.races.find((r) => r.id === state.race.id);
  if (fresh) state.race = fresh;
}

/** Show one of the channel's races (Watch, or Open for a racer's own). */
function showRace(state, raceId) {
  const race = state.menu && (state.menu.races || []).find((r) => r.id === raceId);
  if (!race) return false;
  state.race = race;
  state.screen = "race";
  state.leaving = false;
  return true;
}

/**
 * A race button the page answers itself: Watch or Open (a race of the menu), the standings from beside the
 * board, and the two steps of leaving a running race; whether `action` was one.
 */
export function raceLocal(state, action, data) {
  if (action === "race-show") return showRace(state, Number(data.race)) || true;
  if (action === "race-standings" && state.race) {
    state.screen = "race";
    state.leaving = false;
  } else if (action === "race-leave-ask") state.leaving = true;
  else if (action === "race-keep") state.leaving = false;
  else return false;
  return true;
}

/** A race board on show belongs to the racer's running race: find it, so the other racers show beside it. */
export function adoptRace(state) {
  if (!state.game || state.game.kind !== "race") return;
  if (state.race && state.race.you === "racer" && state.race.status === "running") return;
  const races = (state.menu && state.menu.races) || [];
  state.race = races.find((r) => r.you === "racer" && r.status === "running") || state.race;
}

/** Whether a pushed GAME is the racer's board dealt at the common start (it opens the board, wherever the page is). */
export function isRaceStart(state, game) {
  return game.kind === "race" && !game.over && state.screen !== "game";
}

/** The request a race button makes (to open, join, leave, start or cancel a race). */
export function raceRequest(action, data) {
  const race = Number(data.race);
  if (action === "race-open") {
    const variant = document.getElementById("race-variant");
    const size = document.getElementById("race-size");
    return { type: "race_open", variant: variant.value, racers: Number(size.value) };
  }
  const types = {
    "race-join": "race_join",
    "race-leave": "race_leave",
    "race-start": "race_start",
    "race-cancel": "race_cancel",
  };
  return { type: types[action], race };
}

/** Seconds left until a RACE's `field` (`starts_in`, `ends_in`) at local time `nowMs`, or null. */
export function secondsTo(race, field, nowMs) {
  if (!race || race[field] == null) return null;
  return Math.max(0, race[field] - (nowMs - race.receivedAt) / 1000);
}

/** What a race shows now: lobby, countdown, running, results or closed (cancelled, expired). */
export function phaseOf(race, nowMs) {
  if (race.status === "lobby") return "lobby";
  if (race.status === "running") return secondsTo(race, "starts_in", nowMs) > 0 ? "countdown" : "running";
  return race.status === "finished" ? "results" : "closed";
}

/** Whether the page shows a racer's board with the other racers beside it. */
export function racingOnBoard(state) {
  return (
    state.screen === "game" &&
    Boolean(state.game) &&
    state.game.kind === "race" &&
    Boolean(state.race) &&
    state.race.you === "racer"
  );
}

// -- drawing --------------------------------------------------------------------------------------------------

/** Draw the race screen and the other racers' strip from the state. */
export function renderRace(state, dom) {
  const racing = racingOnBoard(state);
  dom.app.dataset.racing = racing ? "on" : "";
  document.documentElement.classList.toggle("racing", racing);
  dom.opponents.hidden = !racing;
  if (racing) replace(dom.opponents, rivalsHtml(state.race, state.user));
  if (state.screen === "menu") renderMenuRaces(state, dom);
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

/** Replace an element's HTML when it changed; whether it did. */
function replace(el, html) {
  if (el.dataset.html === html) return false;
  el.innerHTML = html;
  el.dataset.html = html;
  return true;
}

/** The menu's race part: a place for the channel's open races, and the form that opens one. */
export function menuRacesHtml(menu, practiceOnly) {
  if (!menu || !Array.isArray(menu.races) || practiceOnly) return "";
  const variants = menu.variants.map((v) => `<option value="${escape(v.name)}">${escape(v.title)}</option>`);
  const sizes = SIZES.map((n) => `<option value="${n}"${n === 2 ? " selected" : ""}>${n} racers</option>`);
  return (
    `<h3>Races</h3><ul class="race-list" id="race-list"></ul>` +
    `<div class="race-new"><label>Game <select id="race-variant">${variants.join("")}</select></label>` +
    `<label>Racers <select id="race-size">${sizes.join("")}</select></label>` +
    `<button type="button" data-action="race-open">Open a race</button></div>`
  );
}

function renderMenuRaces(state, dom) {
  const list = dom.menu.querySelector("#race-list");
  if (!list) return;
  const races = state.menu.races || [];
  const html = races.length
    ? races.map(menuRaceHtml).join("")
    : `<li class="note">No race open here. Open one and the others join with a tap.</li>`;
  replace(list, html);
}

function menuRaceHtml(race) {
  const count = race.racers.length;
  const words =
    race.status === "lobby"
      ? `${count}/${race.capacity} racers · host ${escape(race.host.name)}`
      : `running · ${count} racers`;
  const id = `data-race="${race.id}"`;
  let buttons;
  if (race.you === "racer") buttons = `<button type="button" data-action="race-show" ${id}>Open</button>`;
  else {
    const join =
      race.status === "lobby"
        ? `<button type="button" data-action="race-join" ${id}${count >= race.capacity ? " disabled" : ""}>Join</button>`
        : "";
    buttons = `${join}<button type="button" class="quiet" data-action="race-show" ${id}>Watch</button>`;
  }
  return (
    `<li class="race-item" ${id}><span><b>${escape(race.title)}</b> <small>${words}</small></span>` +
    `<span class="race-buttons">${buttons}</span></li>`
  );
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

/** The live standings: place, name, score, cards up, time used (a watcher's screen, or a racer's after the game). */
function standingsHtml(race, user) {
  const me = user ? user.id : null;
  const rows = race.racers.map((r, i) => {
    const status = r.status === "playing" || r.status === "waiting" ? "" : ` <small class="tag">${escape(ENDINGS[r.status] || r.status)}</small>`;
    return (
      `<tr data-racer="${escape(r.id)}"${r.id === me ? ' class="me"' : ""}><td>${i + 1}</td>` +
      `<td class="who">${escape(r.name)}${status}</td><td class="pts">${r.score}</td>` +
      `<td class="up">${r.up}/${CARDS}</td><td>${usedHtml(r)}</td></tr>`
    );
  });
  return (
    `<table class="standings"><thead><tr><th>#</th><th>Racer</th><th>Score</th><th>Up</th><th>Time</th></tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`
  );
}

/** A racer's time used: fixed once their game is over, else counted on from the RACE (from the start, before a move). */
function usedHtml(racer) {
  const seconds = racer.seconds == null ? "" : String(racer.seconds);
  const clock = racer.status === "playing" || racer.status === "waiting" ? racer.status : "stopped";
  return `<span data-tick="used" data-seconds="${seconds}" data-clock="${clock}"></span>`;
}

/** The results: place, name, score, time and the rating's change. */
function resultsHtml(race, user) {
  const me = user ? user.id : null;
  const rows = race.results.map((r) => {
    const status = r.status === "won" ? "" : ` <small class="tag">${escape(ENDINGS[r.status] || r.status)}</small>`;
    return (
      `<tr data-racer="${escape(r.id)}"${r.id === me ? ' class="me"' : ""}><td class="place">${placeWords(r.place)}</td>` +
      `<td class="who">${escape(r.name)}${status}</td><td class="pts">${r.score}</td>` +
      `<td>${formatClock(r.seconds)}</td><td class="rating">${ratingWords(r)}</td></tr>`
    );
  });
  return (
    `<table class="standings results"><thead><tr><th>Place</th><th>Racer</th><th>Score</th><th>Time</th>` +
    `<th>Rating</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
  );
}

/** A place in words: "1st", "2nd", "3rd", "4th". */
export function placeWords(place) {
  const ends = { 1: "st", 2: "nd", 3: "rd" };
  return `${place}${(place % 100 > 10 && place % 100 < 14) || !ends[place % 10] ? "th" : ends[place % 10]}`;
}

/** A rating change in words: "1516 (+16)", or the unchanged rating and "unrated". */
export function ratingWords(result) {
  const before = Math.round(result.rating_before);
  if (result.rating_after == null) return `${before} <small>unrated</small>`;
  const after = Math.round(result.rating_after);
  const change = after - before;
  const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
  return `${after} <small class="${change >= 0 ? "gain" : "loss"}">${sign}${Math.abs(change)}</small>`;
}

/** The other racers beside the board: one chip each, in the standings' order (the racer's own marked). */
function rivalsHtml(race, user) {
  const me = user ? user.id : null;
  const chips = race.racers.map((r, i) => {
    const ended = r.status === "playing" || r.status === "waiting" ? "" : ` ended`;
    const tag = ended ? ` <small class="tag">${escape(ENDINGS[r.status] || r.status)}</small>` : "";
    return (
      `<li class="rival${r.id === me ? " me" : ""}${ended}" data-racer="${escape(r.id)}">` +
      `<span class="place">${i + 1}</span><span class="who">${r.id === me ? "You" : escape(r.name)}${tag}</span>` +
      `<span class="pts" aria-label="score">${r.score}</span><span class="up" aria-label="cards up">${r.up}/${CARDS}</span>` +
      `<span class="used" aria-label="time used">${usedHtml(r)}</span></li>`
    );
  });
  const open =
    `<button type="button" class="rivals-open" data-action="race-standings" title="Standings and Leave race"` +
    ` aria-label="Race: standings and Leave race"><span class="open-words">Race </span>▸</button>`;
  return `<div class="rivals">${open}<ol class="rivals-list" aria-label="standings">${chips.join("")}</ol></div>`;
}

function userId(state) {
  return state.user ? state.user.id : null;
}

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
