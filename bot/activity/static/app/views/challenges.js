// The challenges on the menu: the ones the player is in, as the server lists them (a hidden score arrives as
// null and is shown as hidden), with the Accept, Decline and Play buttons the server says they may press.

import { escape, placeWords } from "../html.js";

const STATES = {
  challenger: "not played yet",
  invited: "no answer yet",
  accepted: "accepted · not played yet",
  declined: "declined",
  playing: "playing now",
  played: "✓ played",
};

/** The menu's challenges section (empty when the player is in none). */
export function challengesHtml(challenges, user) {
  if (!challenges || !challenges.length) return "";
  const cards = challenges.map((c) => challengeCard(c, user)).join("");
  return `<h3>Challenges</h3><div class="challenges">${cards}</div>`;
}

/** The request a challenge button sends (`data`: its data attributes). */
export function challengeRequest(data) {
  const challenge = Number(data.challenge);
  if (data.what === "play") return { type: "challenge_play", challenge };
  return { type: "challenge_answer", challenge, accept: data.what === "accept" };
}

function challengeCard(c, user) {
  const from = user && c.challenger.id === user.id ? "your challenge" : `from ${escape(c.challenger.name)}`;
  const when = c.closed ? "closed" : c.closes_in > 0 ? `closes in ${duration(c.closes_in)}` : "no more attempts";
  const rows = c.players.map((p) => playerRow(c, p, user)).join("");
  const rule = c.closed ? "" : c.open ? "Scores show as they come: not rated." : "Scores stay hidden until it closes.";
  return (
    `<article class="challenge${c.closed ? " closed" : ""}" data-challenge="${c.id}">` +
    `<header><b>${c.closed ? "Results ·" : "⚔"} ${escape(c.title)}</b><small>${from} · ${when}</small></header>` +
    `<ul class="players">${rows}</ul>` +
    (rule ? `<p class="note">${rule}</p>` : "") +
    buttons(c) +
    `</article>`
  );
}

function playerRow(c, p, user) {
  const you = user && p.id === user.id;
  const name = `${you ? "You" : escape(p.name)}${p.id === c.challenger.id ? " <small>(challenger)</small>" : ""}`;
  let what;
  if (p.score != null) {
    const place = p.place != null ? `${placeWords(p.place)} · ` : "";
    what = `${place}<b>${p.score}</b> pts`;
  } else if (p.played) {
    what = c.closed ? "✓ played" : "✓ played · score hidden";
  } else if (c.closed && p.state !== "declined") {
    what = "did not play";
  } else {
    what = STATES[p.state] || escape(p.state);
  }
  return `<li class="${you ? "you" : ""}"><span>${name}</span><span>${what}</span></li>`;
}

function buttons(c) {
  const list = [];
  const button = (what, label, cls) =>
    `<button type="button" class="${cls}" data-action="challenge" data-what="${what}" data-challenge="${c.id}">${label}</button>`;
  if (c.can_answer && c.me === "named") list.push(button("accept", "Accept", "accept"));
  if (c.can_play) list.push(button("play", c.me === "playing" ? "Resume" : "Play", "play"));
  if (c.can_answer) list.push(button("decline", "Decline", "decline"));
  return list.length ? `<div class="challenge-buttons">${list.join("")}</div>` : "";
}

/** A time left in words: "23 h 59 min", "12 min", "under a minute". */
function duration(seconds) {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours) return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
  return minutes ? `${minutes} min` : "under a minute";
}
