// The menu: hello, the running game to resume, the challenges, new games (or practice), the channel's races and
// today's daily. Its form (the race's game and size, a practice deal) survives a redraw: the list of races is
// replaced on its own.

import { escape, replace } from "../html.js";
import { challengesHtml } from "./challenges.js";
import { menuRaceHtml } from "./standings.js";

const SIZES = [2, 3, 4, 5, 6, 7, 8];

/** Draw the menu into `el`. */
export function renderMenu(state, el) {
  const menu = state.menu || { running: null, variants: [], daily: null };
  replace(el, menuHtml(menu, state.user, state.practiceOnly));
  const list = el.querySelector("#race-list");
  if (list) replace(list, raceListHtml(menu.races || []));
}

/** The menu's markup (its list of races apart). */
export function menuHtml(menu, user, practiceOnly) {
  const parts = [`<h2>Solitaire Rush</h2>`];
  if (user) parts.push(`<p class="hello">Hello, ${escape(user.name)}</p>`);
  if (menu.running) {
    parts.push(
      `<button type="button" class="big resume" data-action="resume">Resume ${escape(menu.running.title)}` +
        ` <small>score ${menu.running.score}</small></button>`,
    );
  }
  parts.push(challengesHtml(menu.challenges, user));
  if (practiceOnly) {
    parts.push(`<h3>Practice</h3><p class="note">Games here are practice: nothing is ranked.</p>`);
    parts.push(`<label class="deal">Deal number <input id="practice-deal" type="number" min="1" inputmode="numeric" placeholder="any"></label>`);
    parts.push(`<div class="choices">${menu.variants.map((v) => startButton(v, "practice")).join("")}</div>`);
  } else {
    parts.push(`<h3>New game</h3><div class="choices">${menu.variants.map((v) => startButton(v, "casual")).join("")}</div>`);
  }
  parts.push(racesHtml(menu, practiceOnly));
  if (menu.daily) parts.push(dailyHtml(menu));
  return parts.join("");
}

function startButton(variant, kind) {
  return (
    `<button type="button" data-action="start" data-kind="${kind}" data-variant="${escape(variant.name)}">` +
    `${escape(variant.title)}</button>`
  );
}

/** The menu's race part: a place for the channel's open races, and the form that opens one. */
function racesHtml(menu, practiceOnly) {
  if (!Array.isArray(menu.races) || practiceOnly) return "";
  const variants = menu.variants.map((v) => `<option value="${escape(v.name)}">${escape(v.title)}</option>`);
  const sizes = SIZES.map((n) => `<option value="${n}"${n === 2 ? " selected" : ""}>${n} racers</option>`);
  return (
    `<h3>Races</h3><ul class="race-list" id="race-list"></ul>` +
    `<div class="race-new"><label>Game <select id="race-variant">${variants.join("")}</select></label>` +
    `<label>Racers <select id="race-size">${sizes.join("")}</select></label>` +
    `<button type="button" data-action="race-open">Open a race</button></div>`
  );
}

/** The channel's open races, or a word on how to open one. */
export function raceListHtml(races) {
  if (!races.length) return `<li class="note">No race open here. Open one and the others join with a tap.</li>`;
  return races.map(menuRaceHtml).join("");
}

function dailyHtml(menu) {
  const played = new Set(menu.daily.played);
  const parts = [`<h3>Today's daily <small>${escape(menu.daily.date)}</small></h3><div class="choices">`];
  for (const v of menu.variants) {
    const done = played.has(v.name);
    parts.push(
      `<button type="button" data-action="start" data-kind="daily" data-variant="${escape(v.name)}"` +
        `${done ? " disabled" : ""}>${escape(v.title)}${done ? " <small>✓ played</small>" : ""}</button>`,
    );
  }
  parts.push(`</div>`);
  return parts.join("");
}
