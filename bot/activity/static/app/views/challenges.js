// The challenges on the menu: the ones the player is in, as the server lists them (a hidden score arrives as
// null and is shown as hidden), with the Accept, Decline and Play buttons the server says they may press.

import { number, word, wordHtml } from "../../speech.js";
import { escape, placeWords } from "../html.js";

/** A player's answer or attempt in words (`state`: the public message's). */
function stateWords(state) {
  const words = {
    challenger: word("state_challenger"),
    invited: word("state_invited"),
    accepted: word("state_accepted"),
    declined: word("state_declined"),
    playing: word("state_playing"),
    played: word("played"),
  };
  return words[state] || state;
}

/** The menu's challenges section (empty when the player is in none). */
export function challengesHtml(challenges, user) {
  if (!challenges || !challenges.length) return "";
  const cards = challenges.map((c) => challengeCard(c, user)).join("");
  return `<h3>${escape(word("challenges"))}</h3><div class="challenges">${cards}</div>`;
}

/** The request a challenge button sends (`data`: its data attributes). */
export function challengeRequest(data) {
  const challenge = Number(data.challenge);
  if (data.what === "play") return { type: "challenge_play", challenge };
  return { type: "challenge_answer", challenge, accept: data.what === "accept" };
}

function challengeCard(c, user) {
  const mine = user && c.challenger.id === user.id;
  const from = mine ? word("your_challenge") : word("challenge_from", { name: c.challenger.name });
  let when = word("no_more_attempts");
  if (c.closed) when = word("closed");
  else if (c.closes_in > 0) when = word("closes_in", { time: duration(c.closes_in) });
  const rows = c.players.map((p) => playerRow(c, p, user)).join("");
  const rule = c.closed ? "" : c.open ? word("scores_open") : word("scores_hidden");
  const title = c.closed ? word("challenge_results", { title: c.title }) : `⚔ ${c.title}`;
  return (
    `<article class="challenge${c.closed ? " closed" : ""}" data-challenge="${c.id}">` +
    `<header><b>${escape(title)}</b><small>${escape(from)} · ${escape(when)}</small></header>` +
    `<ul class="players">${rows}</ul>` +
    (rule ? `<p class="note">${escape(rule)}</p>` : "") +
    buttons(c) +
    `</article>`
  );
}

function playerRow(c, p, user) {
  const you = user && p.id === user.id;
  const tag = p.id === c.challenger.id ? ` <small>${escape(word("challenger_tag"))}</small>` : "";
  const name = `${escape(you ? word("you") : p.name)}${tag}`;
  let what;
  if (p.score != null) {
    const points = `<b>${escape(number(p.score))}</b>`;
    const place = p.place != null ? escape(placeWords(p.place)) : null;
    what = place ? wordHtml("place_points", { place, points }) : wordHtml("points", { points });
  } else if (p.played) {
    what = escape(c.closed ? word("played") : word("played_hidden"));
  } else if (c.closed && p.state !== "declined") {
    what = escape(word("did_not_play"));
  } else {
    what = escape(stateWords(p.state));
  }
  return `<li class="${you ? "you" : ""}"><span>${name}</span><span>${what}</span></li>`;
}

function buttons(c) {
  const list = [];
  const button = (what, label, cls) =>
    `<button type="button" class="${cls}" data-action="challenge" data-what="${what}" data-challenge="${c.id}">${escape(label)}</button>`;
  if (c.can_answer && c.me === "named") list.push(button("accept", word("accept"), "accept"));
  if (c.can_play) list.push(button("play", c.me === "playing" ? word("resume") : word("play"), "play"));
  if (c.can_answer) list.push(button("decline", word("decline"), "decline"));
  return list.length ? `<div class="challenge-buttons">${list.join("")}</div>` : "";
}

/** A time left in words: "23 h 59 min", "12 min", "under a minute". */
function duration(seconds) {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours) return minutes ? word("hours_minutes", { hours, minutes }) : word("hours", { hours });
  return minutes ? word("minutes", { minutes }) : word("under_a_minute");
}
