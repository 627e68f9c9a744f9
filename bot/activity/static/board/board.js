// Pure operations on a GAME frame. The server names every slot and feeds the moves, as lila feeds chessground
// its `movable.dests`: `dests` (for each source slot, the slots its card may go to now). A drop is sent as its
// two slots, and the server names the move. No solitaire rule and no move notation is read here.

import { word } from "../speech.js";

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const STOCK = "stock"; // the stock's slot: a tap there draws

/** The slots the server allows a card (or run) from `source` to go to now. */
export function destsOf(game, source) {
  return (game && game.dests && game.dests[source]) || [];
}

/** Whether any card move starts at `source`. */
export function canMoveFrom(game, source) {
  return destsOf(game, source).length > 0;
}

/** The drop of a card of `source` on `slot` to send (legal or not: the server refuses in its words), or null. */
export function dropOf(game, source, slot) {
  if (!game || !source || !slot || slot === source || slot === STOCK) return null;
  return { source, target: slot };
}

/** The one legal drop onto `slot` from anywhere (a Friday 13 foundation takes the waste's top), or null. */
export function onlyDropOnto(game, slot) {
  if (!game || !game.dests) return null;
  const sources = Object.keys(game.dests).filter((source) => game.dests[source].includes(slot));
  return sources.length === 1 ? dropOf(game, sources[0], slot) : null;
}

/** Whether the server lists the command (`draw`) as allowed now. */
export function isLegal(game, command) {
  return Boolean(game) && game.legal_moves.includes(command);
}

/** Whether the game has piles (a tableau): its foundations then sit in the top row. */
export function hasPiles(game) {
  return Boolean(game) && game.tableau.length > 0;
}

/** A card's suit letter ("8S" -> "S"). */
export function suitOf(card) {
  return card.slice(-1);
}

/** A card's rank as shown ("TC" -> "10", "AS" -> "A"). */
export function rankOf(card) {
  const rank = card.slice(0, -1);
  return rank === "T" ? "10" : rank;
}

/** A card in words for screen readers ("10 of clubs"). */
export function cardWords(card) {
  const suits = { S: word("suit_spades"), H: word("suit_hearts"), D: word("suit_diamonds"), C: word("suit_clubs") };
  const ranks = { A: word("rank_ace"), J: word("rank_jack"), Q: word("rank_queen"), K: word("rank_king") };
  const rank = rankOf(card);
  return word("card_name", { rank: ranks[rank] || rank, suit: suits[suitOf(card)] });
}

/** Seconds left on the game's clock, from the server's time at receipt plus the local time elapsed since. */
export function secondsLeft(game, clock, nowMs) {
  if (!game || game.deadline == null || !clock) return null;
  const serverNow = clock.serverNow + (nowMs - clock.receivedAt) / 1000;
  return Math.max(0, game.deadline - serverNow);
}

/** A clock's words: "4:05". */
export function formatClock(seconds) {
  if (seconds == null) return "–:––";
  const whole = Math.ceil(seconds);
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
}

/** "pass 2 of 3" where the game limits its passes through the stock, else null. */
export function passWords(game) {
  if (!game || game.max_passes == null) return null;
  return word("pass_of", { pass: game.pass, passes: game.max_passes });
}
