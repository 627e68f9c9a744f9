// The result over a finished board: how it ended, the score sheet, the deal, and the way back to the menu.

import { number, word, wordHtml } from "../../speech.js";
import { escape, replace } from "../html.js";

/** How a game ended, as the result's heading (`status`: the GAME's). */
function statusWords(status) {
  const words = {
    won: word("status_won"),
    stuck: word("status_stuck"),
    expired: word("status_expired"),
    ended: word("status_ended"),
  };
  return words[status] || status;
}

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
    `<div class="result-box"><h2>${escape(statusWords(game.status))}</h2>` +
    `<p class="final-score">${wordHtml("final_score", { score: `<b>${number(game.score)}</b>` })}</p>` +
    (lines ? `<ul class="sheet">${lines}</ul>` : "") +
    `<p class="deal-words">${escape(word("title_deal", { title: game.title, deal: game.deal || "" }))}</p>` +
    (game.kind === "race" ? `<p class="note">${escape(word("race_results_later"))}</p>` : "") +
    `<button type="button" class="big" data-action="menu">${escape(word("back_to_menu"))}</button></div>`
  );
}

function sheetLine(line) {
  const [label, points] = Array.isArray(line) ? line : [line, ""];
  return `<li><span>${escape(label)}</span><b>${escape(typeof points === "number" ? number(points) : points)}</b></li>`;
}
