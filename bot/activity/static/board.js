// Pure operations on a GAME frame. The server's `legal_moves` is the only source of which drops are lit:
// no solitaire rule is written here.

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const KLONDIKE_FOUNDATION = /^f[shdc]$/;

/** Split a move in notation ("3-5", "w-f", "w-10") into its source and target, or null for a command. */
export function parseMove(text) {
  const dash = text.indexOf("-");
  if (dash <= 0) return null;
  return { source: text.slice(0, dash), target: text.slice(dash + 1) };
}

/** The targets the server allows a card (or run) from `source` to go to. */
export function targetsOf(game, source) {
  if (!game) return [];
  const targets = [];
  for (const text of game.legal_moves) {
    const move = parseMove(text);
    if (move && move.source === source) targets.push(move.target);
  }
  return targets;
}

/** Whether the server lists `text` as a legal move now. */
export function isLegal(game, text) {
  return Boolean(game) && game.legal_moves.includes(text);
}

/** The move text for a card from `source` dropped on `target`. */
export function moveText(source, target) {
  return `${source}-${target}`;
}

/** The top card (notation) of a source: a pile's last face-up card, the waste's top, a foundation's top. */
export function topCard(game, source) {
  if (!game) return null;
  if (source === "w") return game.waste.length ? game.waste[game.waste.length - 1] : null;
  if (/^[1-7]$/.test(source)) {
    const pile = game.tableau[Number(source) - 1];
    return pile && pile.up.length ? pile.up[pile.up.length - 1] : null;
  }
  if (KLONDIKE_FOUNDATION.test(source)) {
    const found = game.foundations.find((f) => `f${f.label.toLowerCase()}` === source);
    return found ? found.top : null;
  }
  return null;
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

/** The page's slot id of a Klondike foundation (its source in notation: fs, fh, fd, fc) or a Friday 13 one (its label). */
export function foundationSlot(game, foundation) {
  return game.family === "klondike" ? `f${foundation.label.toLowerCase()}` : foundation.label;
}

/** The slot ids to light for a card from `source`: each target of its legal moves ("f": its suit's foundation). */
export function litSlots(game, source) {
  const slots = new Set();
  for (const target of targetsOf(game, source)) {
    for (const slot of slotsOfTarget(game, source, target)) slots.add(slot);
  }
  return slots;
}

/** The slots a target names: a pile or label is its own slot; "f" is the foundation of the moving card's suit. */
export function slotsOfTarget(game, source, target) {
  if (target !== "f") return [target];
  const card = topCard(game, source);
  const all = game.foundations.map((f) => foundationSlot(game, f));
  if (!card) return all;
  const own = `f${suitOf(card).toLowerCase()}`;
  return all.includes(own) ? [own] : all;
}

/** The target in notation a slot stands for (a Klondike foundation is "f"). */
export function targetOfSlot(game, slot) {
  return game.family === "klondike" && KLONDIKE_FOUNDATION.test(slot) ? "f" : slot;
}

/** The move a drop of `source` on `slot` asks for, or null when the slot is the source itself. */
export function dropMove(game, source, slot) {
  if (!slot || slot === source) return null;
  return moveText(source, targetOfSlot(game, slot));
}

/** Whether any card move starts at `source`. */
export function canMoveFrom(game, source) {
  return targetsOf(game, source).length > 0;
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
  return `pass ${game.pass} of ${game.max_passes}`;
}
