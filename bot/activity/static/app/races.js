// The races the page knows, from the server's RACE frames: the menu's list of the channel's open races, the race
// on show, and its phase. Every figure is the server's; the page only counts seconds down between two frames.
// Pure: no DOM, no screen (the controller decides what shows).

const OPEN = new Set(["lobby", "running"]);

/** A RACE as received at local time `receivedAt` (the page counts its seconds from then). */
export function received(race, receivedAt) {
  return { ...race, receivedAt };
}

/** Keep the menu's list of the channel's open races up to date with `race`. */
export function listRace(menu, race) {
  if (!menu || !Array.isArray(menu.races)) return;
  const others = menu.races.filter((r) => r.id !== race.id);
  menu.races = OPEN.has(race.status) ? [...others, race].sort((a, b) => a.id - b.id) : others;
}

/** Stamp the races of a `welcome` or `menu` frame; the race on show follows its fresh copy (returned). */
export function takeMenuRaces(menu, shown, receivedAt) {
  if (!menu || !Array.isArray(menu.races)) return shown;
  menu.races = menu.races.map((race) => received(race, receivedAt));
  return (shown && menu.races.find((r) => r.id === shown.id)) || shown;
}

/** One of the menu's races by id, or null. */
export function menuRace(menu, raceId) {
  return (menu && (menu.races || []).find((r) => r.id === raceId)) || null;
}

/** The race a racer's board belongs to: the one on show if it is their running race, else the menu's. */
export function raceOfBoard(game, shown, menu) {
  if (!game || game.kind !== "race") return shown;
  if (shown && shown.you === "racer" && shown.status === "running") return shown;
  const races = (menu && menu.races) || [];
  return races.find((r) => r.you === "racer" && r.status === "running") || shown;
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

/** Whether a race has not started yet (a lobby, or its countdown). */
export function beforeStart(race, nowMs) {
  const phase = phaseOf(race, nowMs);
  return phase === "lobby" || phase === "countdown";
}

/** The request a race button makes; `form` gives the Open a race form's `variant` and `racers`. */
export function raceRequest(action, data, form = {}) {
  if (action === "race-open") return { type: "race_open", variant: form.variant, racers: Number(form.racers) };
  const types = {
    "race-join": "race_join",
    "race-leave": "race_leave",
    "race-start": "race_start",
    "race-cancel": "race_cancel",
  };
  return { type: types[action], race: Number(data.race) };
}
