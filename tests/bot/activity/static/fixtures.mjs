// GAME, RACE and MENU frames as the server sends them (trimmed to what the page reads), for the page's tests, and
// the page's words as the bot sends them (English, and the tests' pseudo-language), written for these tests by
// test_page_modules.py (PAGE_SPEECH, PAGE_SPEECH_PSEUDO): the page is spoken to in English unless a test says.

import { readFileSync } from "node:fs";

import { setSpeech } from "../../../../bot/activity/static/speech.js";

function speechFile(name) {
  if (!process.env[name]) throw new Error(`${name} is not set: run these tests through test_page_modules.py`);
  return JSON.parse(readFileSync(process.env[name], "utf8"));
}

/** The bot's speech in English and in the pseudo-language: `{locale, words, ordinals}`. */
export const ENGLISH = speechFile("PAGE_SPEECH");
export const PSEUDO = speechFile("PAGE_SPEECH_PSEUDO");
setSpeech(ENGLISH);

/** A Klondike-shaped GAME: the waste's 5♥ may go on pile 2's 6♠ or up; pile 1's ace up. */
export function klondikeGame(overrides = {}) {
  return {
    id: 7,
    version: 3,
    title: "Klondike (draw 3)",
    family: "klondike",
    kind: "casual",
    over: false,
    status: "playing",
    score: 40,
    sheet: [],
    deadline: null,
    now: 1000,
    hints: true,
    all_up: true,
    four_colour: false,
    waste_id: "w",
    stock: 20,
    waste: ["9C", "5H"],
    waste_count: 2,
    pass: 1,
    max_passes: null,
    can_undo: true,
    tableau: [
      { id: "1", hidden: 0, up: ["AS"] },
      { id: "2", hidden: 1, up: ["6S"] },
    ],
    foundations: [
      { id: "fs", label: "S", top: null, count: 0, takes: "A", source: true },
      { id: "fh", label: "H", top: "4H", count: 4, takes: "5", source: true },
    ],
    legal_moves: ["draw", "w-f", "w-2", "1-f"],
    dests: { w: ["fh", "2"], 1: ["fs"] },
    ...overrides,
  };
}

/** A Friday 13-shaped GAME: no piles; the waste's top goes on the Q foundation alone. */
export function fridayGame(overrides = {}) {
  return klondikeGame({
    id: 8,
    family: "friday13",
    all_up: false,
    tableau: [],
    foundations: [
      { id: "J", label: "J", top: "JS", count: 1, takes: "Q", source: false },
      { id: "Q", label: "Q", top: null, count: 0, takes: "Q", source: false },
    ],
    legal_moves: ["draw", "w-Q"],
    dests: { w: ["Q"] },
    ...overrides,
  });
}

/** A RACE: `status` lobby, running (starting in `startsIn` seconds) or finished. */
export function race(overrides = {}) {
  return {
    id: 4,
    variant: "draw3",
    title: "Klondike (draw 3)",
    status: "lobby",
    host: { id: "31", name: "Ada" },
    capacity: 2,
    you: "racer",
    starts_in: null,
    ends_in: null,
    racers: [{ id: "31", name: "Ada", status: "waiting", score: 0, up: 0, seconds: null }],
    results: [],
    ...overrides,
  };
}

/** A MENU with the channel's `races`. */
export function menu(races = []) {
  return {
    running: null,
    variants: [{ name: "draw3", title: "Klondike (draw 3)" }],
    daily: { date: "2026-11-29", played: ["draw3"] },
    challenges: [],
    races,
  };
}
