"""The words of the daily competition: result lines, podiums, leaderboards, stats and reminders, in Discord markup.

Mentions (``<@id>``), timestamps (``<t:...:R>``), bold and underline are written here and nowhere else in
:mod:`bot.compete`; the values come from :mod:`bot.rules.ranking`, :mod:`bot.rules.stats` and
:mod:`bot.rules.streaks`.
"""

from __future__ import annotations

from datetime import date

from bot.rules.ranking import DailyResult, Leaderboard, Podium, Ranked
from bot.rules.stats import MemberStats
from solitaire import find_variant
from solitaire.words import plural

MEDALS = ("🥇", "🥈", "🥉")


def format_time(seconds: int | None) -> str:
    """Format seconds as ``m:ss`` (``-`` when unknown).

    >>> format_time(187), format_time(None)
    ('3:07', '-')
    """
    if seconds is None:
        return "-"
    return f"{seconds // 60}:{seconds % 60:02d}"


def variant_title(variant: str) -> str:
    """Return the variant's display title."""
    return find_variant(variant).title


def outcome(status: str, seconds_used: int | None) -> str:
    """Describe how a game ended, e.g. ``won in 3:20`` or ``out of time``.

    >>> outcome("won", 200), outcome("ended", 61), outcome("expired", 300)
    ('won in 3:20', 'ended after 1:01', 'out of time')
    """
    if status == "won":
        return f"won in {format_time(seconds_used)}"
    if status == "expired":
        return "out of time"
    return f"{status} after {format_time(seconds_used)}"


def _day_words(daily_date: str, today: date | None) -> str:
    return "today's" if today is not None and daily_date == today.isoformat() else f"the {daily_date}"


def daily_line(
    result: DailyResult, today: date | None = None, *, final: bool = True, milestone: int | None = None
) -> str:
    """Return the public line announcing a finished daily: score and rank, never the board.

    While the day's dailies may still change the ranks (``final=False``) the rank is "so far":
    the podium, posted once they are all over, has the last word. A ``milestone`` (a daily streak
    of one of :data:`MILESTONES` days, reached with this daily) is named at the end.

    >>> r = DailyResult(1, 7, "draw3", "2024-05-01", "won", 1234, 200, 2, 5)
    >>> daily_line(r, date(2024, 5, 1), final=False)
    "<@7> scored 1234 on today's Solitaire Rush (draw 3) daily (won in 3:20) — rank 2 of 5 so far"
    >>> daily_line(r, date(2024, 5, 2), milestone=7)
    '<@7> scored 1234 on the 2024-05-01 Solitaire Rush (draw 3) daily (won in 3:20) — rank 2 of 5 · 🔥 7-day streak!'
    """
    line = (
        f"<@{result.user_id}> scored {result.score} on {_day_words(result.daily_date, today)} "
        f"{variant_title(result.variant)} daily ({outcome(result.status, result.seconds_used)}) "
        f"— rank {result.rank} of {result.total}{'' if final else ' so far'}"
    )
    return line if milestone is None else f"{line} · 🔥 {milestone}-day streak!"


def reminder_text(streak_days: int, server: str, ends_at: float) -> str:
    """Return the direct message sent before a daily streak breaks: the streak, when the day ends, the command.

    >>> reminder_text(5, "Solitaire Club", 1767225600)  # doctest: +NORMALIZE_WHITESPACE
    "Your 5-day daily streak in **Solitaire Club** ends <t:1767225600:R> unless you play today's daily:
    `/solitaire daily` there. (You asked for these reminders; stop them with `/solitaire settings reminders: False`.)"
    """
    return (
        f"Your {streak_days}-day daily streak in **{server}** ends <t:{int(ends_at)}:R> unless you play today's "
        "daily: `/solitaire daily` there. (You asked for these reminders; stop them with "
        "`/solitaire settings reminders: False`.)"
    )


def already_played_line(result: DailyResult, today: date | None = None) -> str:
    """Return the refusal for a second attempt, quoting the first one's result and rank."""
    return (
        f"You already played {_day_words(result.daily_date, today)} {variant_title(result.variant)} daily: "
        f"{plural(result.score, 'point')} ({outcome(result.status, result.seconds_used)}) — "
        f"rank {result.rank} of {result.total}. Come back after the day rolls over."
    )


def forgotten_try_line(variant: str, daily_date: str, today: date | None = None) -> str:
    """Return the refusal for a second attempt after forget-me deleted the first (the try stays used).

    >>> forgotten_try_line("draw1", "2024-05-01", date(2024, 5, 1))  # doctest: +NORMALIZE_WHITESPACE
    "You already played today's Solitaire Rush (draw 1) daily: its result was deleted when you asked me to forget
    you, and the day's try stays used. Come back after the day rolls over."
    """
    return (
        f"You already played {_day_words(daily_date, today)} {variant_title(variant)} daily: its result was "
        "deleted when you asked me to forget you, and the day's try stays used. Come back after the day rolls over."
    )


def ranked_line(entry: Ranked) -> str:
    """Return one leaderboard line: rank (a medal on the podium), player, score and time used."""
    place = MEDALS[entry.rank - 1] if entry.rank <= len(MEDALS) else f"`{entry.rank:>2}.`"
    return f"{place} <@{entry.user_id}> — **{entry.score}** in {format_time(entry.seconds_used)}"


def leaderboard_lines(board: Leaderboard, caller_id: int) -> list[str]:
    """Return the leaderboard's lines: the top, then the caller's own rank when it is outside the top."""
    if not board.top:
        return ["No results yet."]
    lines = [ranked_line(entry) for entry in board.top]
    shown = {entry.user_id for entry in board.top}
    if board.caller is not None and board.caller.user_id not in shown:
        lines += ["…", ranked_line(board.caller)]
    elif board.caller is None:
        lines.append(f"<@{caller_id}> has no result here yet.")
    lines.append(f"{board.total} ranked")
    return lines


def podium_lines(podium: Podium) -> list[str]:
    """Return the podium post: a heading, then each variant's medals (variants nobody played are skipped)."""
    lines = [f"**Daily podium for {podium.daily_date}**"]
    for variant, entries in podium.places.items():
        if entries:
            lines.append(f"__{variant_title(variant)}__")
            lines += [ranked_line(entry) for entry in entries]
    if podium.empty:
        lines.append("Nobody played the daily deals that day.")
    return lines


def stats_lines(stats: MemberStats) -> list[str]:
    """Return the stats summary: totals, streaks, then one line per variant played."""
    rate = stats.wins / stats.games if stats.games else 0.0
    lines = [
        f"<@{stats.user_id}>: {plural(stats.games, 'game')}, {plural(stats.wins, 'win')} ({rate:.0%})",
        f"Daily streak: {plural(stats.played.current, 'day')} (best {stats.played.best}) · "
        f"winning streak: {plural(stats.won.current, 'day')} (best {stats.won.best})",
    ]
    for v in stats.variants:
        lines.append(
            f"{variant_title(v.variant)}: {plural(v.games, 'game')}, {plural(v.wins, 'win')} ({v.win_rate:.0%}), "
            f"best {v.best_score}, average {v.average_score:.0f}"
        )
    return lines
