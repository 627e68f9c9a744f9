// The menu: hello, the running game to resume, the challenges, new games (or practice), the channel's races and
// today's daily. Its form (the race's game and size, a practice deal) survives a redraw: the list of races is
// replaced on its own.

import { pageLocale, word, wordHtml } from "../../speech.js";
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
  const parts = [`<h2>${escape(word("app_name"))}</h2>`];
  if (user) parts.push(`<p class="hello">${escape(word("hello", { name: user.name }))}</p>`);
  if (menu.running) {
    const score = `<small>${escape(word("score_small", { score: menu.running.score }))}</small>`;
    parts.push(
      `<button type="button" class="big resume" data-action="resume">` +
        `${escape(word("resume_game", { title: menu.running.title }))} ${score}</button>`,
    );
  }
  parts.push(challengesHtml(menu.challenges, user));
  if (practiceOnly) {
    parts.push(`<h3>${escape(word("practice"))}</h3><p class="note">${escape(word("practice_note"))}</p>`);
    parts.push(
      `<label class="deal">${escape(word("deal_number"))} <input id="practice-deal" type="number" min="1"` +
        ` inputmode="numeric" placeholder="${escape(word("any_deal"))}"></label>`,
    );
    parts.push(`<div class="choices">${menu.variants.map((v) => startButton(v, "practice")).join("")}</div>`);
  } else {
    const choices = menu.variants.map((v) => startButton(v, "casual")).join("");
    parts.push(`<h3>${escape(word("new_game"))}</h3><div class="choices">${choices}</div>`);
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
  const sizes = SIZES.map(
    (n) => `<option value="${n}"${n === 2 ? " selected" : ""}>${escape(word("racer_count", { count: n }))}</option>`,
  );
  return (
    `<h3>${escape(word("races"))}</h3><ul class="race-list" id="race-list"></ul>` +
    `<div class="race-new">` +
    `<label>${escape(word("game_label"))} <select id="race-variant">${variants.join("")}</select></label>` +
    `<label>${escape(word("racers_label"))} <select id="race-size">${sizes.join("")}</select></label>` +
    `<button type="button" data-action="race-open">${escape(word("open_race"))}</button></div>`
  );
}

/** The channel's open races, or a word on how to open one. */
export function raceListHtml(races) {
  if (!races.length) return `<li class="note">${escape(word("no_race"))}</li>`;
  return races.map(menuRaceHtml).join("");
}

/** Today's date in the page's language ("Nov 29, 2026"; the server's date as it is if it cannot be read). */
function dayWords(date) {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(date));
  if (!parts) return String(date);
  const day = new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3])));
  return day.toLocaleDateString(pageLocale(), { dateStyle: "medium", timeZone: "UTC" });
}

function dailyHtml(menu) {
  const played = new Set(menu.daily.played);
  const date = `<small>${escape(dayWords(menu.daily.date))}</small>`;
  const parts = [`<h3>${wordHtml("daily_title", { date })}</h3><div class="choices">`];
  for (const v of menu.variants) {
    const done = played.has(v.name);
    parts.push(
      `<button type="button" data-action="start" data-kind="daily" data-variant="${escape(v.name)}"` +
        `${done ? " disabled" : ""}>${escape(v.title)}${done ? ` <small>${escape(word("played"))}</small>` : ""}</button>`,
    );
  }
  parts.push(`</div>`);
  return parts.join("");
}
