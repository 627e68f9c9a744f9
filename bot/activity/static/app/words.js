// The bot's words are written for Discord messages: on the page, its markup reads as plain text (bold and code
// marks dropped, a timestamp tag written as a time, a mention as words).

/** `text` without Discord's markup: `**Play**` is "Play", `<t:1764000000:R>` is "in 3 h" (or "3 h ago"). */
export function plain(text, nowMs = Date.now()) {
  return String(text)
    .replace(/<t:(\d+)(?::([tTdDfFR]))?>/g, (_, seconds, style) => when(Number(seconds) * 1000, style, nowMs))
    .replace(/<#\d+>/g, "its channel")
    .replace(/<@!?\d+>/g, "a member")
    .replace(/\*\*(.+?)\*\*/g, "$1")
    .replace(/`([^`]+)`/g, "$1");
}

function when(ms, style, nowMs) {
  if (style !== "R") return new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  const minutes = Math.round(Math.abs(ms - nowMs) / 60000);
  const span = minutes >= 90 ? `${Math.round(minutes / 60)} h` : minutes >= 1 ? `${minutes} min` : "a moment";
  return ms >= nowMs ? `in ${span}` : `${span} ago`;
}
