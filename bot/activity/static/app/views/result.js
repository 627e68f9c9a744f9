// The result over a finished board: how it ended, the score sheet, the deal, and the way back to the menu.

import { escape, replace } from "../html.js";

const STATUS = { won: "You won!", stuck: "No more moves", expired: "Time's up", ended: "Game ended" };

/** Show the result when the game on show is over (hidden otherwise). */
export function renderResult(game, el) {
  el.hidden = !game || !game.over;
  if (el.hidden) return;
  replace(el, resultHtml(game));
}

/** The result's markup. */
export function resultHtml(game) {
  const lines = game.sheet.map(sheetLine).join("");
  return (
    `<div class="result-box"><h2>${escape(STATUS[game.status] || game.status)}</h2>` +
    `<p class="final-score">Score <b>${game.score}</b></p>` +
    (lines ? `<ul class="sheet">${lines}</ul>` : "") +
    `<p class="deal-words">${escape(game.title)}: ${escape(game.deal || "")}</p>` +
    (game.kind === "race" ? `<p class="note">The race's results show here once every racer is done.</p>` : "") +
    `<button type="button" class="big" data-action="menu">Back to menu</button></div>`
  );
}

function sheetLine(line) {
  const [label, points] = Array.isArray(line) ? line : [line, ""];
  return `<li><span>${escape(label)}</span><b>${escape(points)}</b></li>`;
}
