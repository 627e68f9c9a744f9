// The bot's words are written for Discord messages: on the page, its markup reads as plain text (bold and code
// marks dropped, a timestamp tag written as a time, a mention as words), in the page's language.

import { pageLocale, word } from "../speech.js";

/** `text` without Discord's markup: `**Play**` is "Play", `<t:1764000000:R>` is "in 3 h" (or "3 h ago"). */
export function plain(text, nowMs = Date.now()) {
  return String(text)
    .replace(/<t:(\d+)(?::([tTdDfFR]))?>/g, (_, seconds, style) => when(Number(seconds) * 1000, style, nowMs))
    .replace(/<#\d+>/g, word("its_channel"))
    .replace(/<@!?\d+>/g, word("a_member"))
    .replace(/\*\*(.+?)\*\*/g, "$1")
    .replace(/`([^`]+)`/g, "$1");
}

function when(ms, style, nowMs) {
  if (style !== "R") return new Date(ms).toLocaleString(pageLocale(), { dateStyle: "medium", timeStyle: "short" });
  const minutes = Math.round(Math.abs(ms - nowMs) / 60000);
  const ahead = ms >= nowMs;
  const hours = { count: Math.round(minutes / 60) };
  if (minutes >= 90) return ahead ? word("in_hours", hours) : word("hours_ago", hours);
  if (minutes >= 1) return ahead ? word("in_minutes", { count: minutes }) : word("minutes_ago", { count: minutes });
  return ahead ? word("in_a_moment") : word("moment_ago");
}
