// The races' tables as markup: a race of the menu's list, the live standings, the results with the ratings'
// changes, and the other racers' strip beside a racer's board. Counts only: never a card.

import { formatClock } from "../../board/board.js";
import { number, word } from "../../speech.js";
import { escape, placeWords } from "../html.js";

const CARDS = 52;

/** How a racer's game ended, as a small tag (`status`: the server's). */
function endingWords(status) {
  const words = {
    won: word("ending_won"),
    stuck: word("ending_stuck"),
    expired: word("ending_expired"),
    ended: word("ending_ended"),
    left: word("ending_left"),
    lost: word("ending_lost"),
  };
  return words[status] || status;
}

export { placeWords };

/** One race of the menu's list, with the buttons the player may press. */
export function menuRaceHtml(race) {
  const count = race.racers.length;
  const words =
    race.status === "lobby"
      ? word("menu_race_lobby", { count, capacity: race.capacity, name: race.host.name })
      : word("menu_race_running", { count });
  const id = `data-race="${race.id}"`;
  let buttons;
  if (race.you === "racer") buttons = `<button type="button" data-action="race-show" ${id}>${escape(word("open"))}</button>`;
  else {
    const join =
      race.status === "lobby"
        ? `<button type="button" data-action="race-join" ${id}${count >= race.capacity ? " disabled" : ""}>` +
          `${escape(word("join"))}</button>`
        : "";
    buttons = `${join}<button type="button" class="quiet" data-action="race-show" ${id}>${escape(word("watch"))}</button>`;
  }
  return (
    `<li class="race-item" ${id}><span><b>${escape(race.title)}</b> <small>${escape(words)}</small></span>` +
    `<span class="race-buttons">${buttons}</span></li>`
  );
}

/** Table heads of `words`. */
function heads(...words) {
  return words.map((text) => `<th>${escape(text)}</th>`).join("");
}

/** The live standings: place, name, score, cards up, time used (a watcher's screen, or a racer's after the game). */
export function standingsHtml(race, user) {
  const me = user ? user.id : null;
  const rows = race.racers.map((r, i) => {
    const status = r.status === "playing" || r.status === "waiting" ? "" : ` <small class="tag">${escape(endingWords(r.status))}</small>`;
    return (
      `<tr data-racer="${escape(r.id)}"${r.id === me ? ' class="me"' : ""}><td>${i + 1}</td>` +
      `<td class="who">${escape(r.name)}${status}</td><td class="pts">${number(r.score)}</td>` +
      `<td class="up">${r.up}/${CARDS}</td><td>${usedHtml(r)}</td></tr>`
    );
  });
  return (
    `<table class="standings"><thead><tr><th>#</th>${heads(word("head_racer"), word("head_score"), word("head_up"), word("head_time"))}</tr></thead>` +
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
export function resultsHtml(race, user) {
  const me = user ? user.id : null;
  const rows = race.results.map((r) => {
    const status = r.status === "won" ? "" : ` <small class="tag">${escape(endingWords(r.status))}</small>`;
    return (
      `<tr data-racer="${escape(r.id)}"${r.id === me ? ' class="me"' : ""}><td class="place">${placeWords(r.place)}</td>` +
      `<td class="who">${escape(r.name)}${status}</td><td class="pts">${number(r.score)}</td>` +
      `<td>${formatClock(r.seconds)}</td><td class="rating">${ratingWords(r)}</td></tr>`
    );
  });
  return (
    `<table class="standings results"><thead><tr>` +
    `${heads(word("head_place"), word("head_racer"), word("head_score"), word("head_time"), word("head_rating"))}` +
    `</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`
  );
}

/** A rating change in words: "1516 (+16)", or the unchanged rating and "unrated". */
export function ratingWords(result) {
  const before = Math.round(result.rating_before);
  if (result.rating_after == null) return `${before} <small>${escape(word("unrated"))}</small>`;
  const after = Math.round(result.rating_after);
  const change = after - before;
  const sign = change > 0 ? "+" : change < 0 ? "−" : "±";
  return `${after} <small class="${change >= 0 ? "gain" : "loss"}">${sign}${Math.abs(change)}</small>`;
}

/** The other racers beside the board: one chip each, in the standings' order (the racer's own marked). */
export function rivalsHtml(race, user) {
  const me = user ? user.id : null;
  const chips = race.racers.map((r, i) => {
    const ended = r.status === "playing" || r.status === "waiting" ? "" : ` ended`;
    const tag = ended ? ` <small class="tag">${escape(endingWords(r.status))}</small>` : "";
    return (
      `<li class="rival${r.id === me ? " me" : ""}${ended}" data-racer="${escape(r.id)}">` +
      `<span class="place">${i + 1}</span><span class="who">${escape(r.id === me ? word("you") : r.name)}${tag}</span>` +
      `<span class="pts" aria-label="${escape(word("score"))}">${number(r.score)}</span>` +
      `<span class="up" aria-label="${escape(word("cards_up"))}">${r.up}/${CARDS}</span>` +
      `<span class="used" aria-label="${escape(word("time_used"))}">${usedHtml(r)}</span></li>`
    );
  });
  const open =
    `<button type="button" class="rivals-open" data-action="race-standings" title="${escape(word("standings_title"))}"` +
    ` aria-label="${escape(word("standings_aria"))}">` +
    `<span class="open-words">${escape(word("race_word"))} </span>▸</button>`;
  const list = `<ol class="rivals-list" aria-label="${escape(word("standings"))}">${chips.join("")}</ol>`;
  return `<div class="rivals">${open}${list}</div>`;
}
