"""The words of the daily competition: result lines, podiums, leaderboards, stats and reminders, in Discord markup.

Mentions (``<@id>``), timestamps (``<t:...:R>``), bold and underline are written here and nowhere else in
:mod:`bot.compete`; the values come from :mod:`bot.rules.ranking`, :mod:`bot.rules.stats` and
:mod:`bot.rules.streaks`.

Every sentence is said in the language spoken where it is composed (:mod:`solitaire.speech`): a public post in
its server's (the outbox speaks it), a private answer in its member's. A line made of several parts (a result
line's score, rank and streak; a stats line's figures) joins whole sentences with a separator (``—``, ``·``),
never pieces of one sentence.
"""

from __future__ import annotations

from datetime import date

from bot.rules.ranking import DailyResult, Leaderboard, Podium, Ranked
from bot.rules.stats import MemberStats
from languages import formats
from solitaire import find_variant
from solitaire.speech import _, n_
from solitaire.words import number

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
    """Return the variant's display title, in the spoken language (the titles are marked where they are defined)."""
    return find_variant(variant).title  # said in the spoken language as it is read


def _percent(ratio: float) -> str:
    """A ratio as a whole percentage, without its sign (the sentence places it): ``0.4`` -> ``40``."""
    return f"{ratio * 100:.0f}"


def _is_today(daily_date: str, today: date | None) -> bool:
    return today is not None and daily_date == today.isoformat()


def _day(daily_date: str) -> str:
    """A daily's date as the spoken language writes it (``2024-05-01`` in English)."""
    return formats.day(date.fromisoformat(daily_date))


def _scored(result: DailyResult, today: date | None) -> str:
    """The first part of a finished daily's public line: who scored what on which day's daily, and how it ended."""
    fields = {
        "player": f"<@{result.user_id}>",
        "score": number(result.score),
        "variant": variant_title(result.variant),
        "time": format_time(result.seconds_used),
    }
    if _is_today(result.daily_date, today):
        if result.status == "won":
            return _("{player} scored {score} on today's {variant} daily (won in {time})", **fields)
        if result.status == "expired":
            return _("{player} scored {score} on today's {variant} daily (out of time)", **fields)
        if result.status == "stuck":
            return _("{player} scored {score} on today's {variant} daily (stuck after {time})", **fields)
        return _("{player} scored {score} on today's {variant} daily (ended after {time})", **fields)
    day = _day(result.daily_date)
    if result.status == "won":
        return _("{player} scored {score} on the {day} {variant} daily (won in {time})", day=day, **fields)
    if result.status == "expired":
        return _("{player} scored {score} on the {day} {variant} daily (out of time)", day=day, **fields)
    if result.status == "stuck":
        return _("{player} scored {score} on the {day} {variant} daily (stuck after {time})", day=day, **fields)
    return _("{player} scored {score} on the {day} {variant} daily (ended after {time})", day=day, **fields)


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
    rank, total = number(result.rank), number(result.total)
    if final:
        # Translators: a member's place among the day's results, e.g. "rank 2 of 5".
        standing = _("rank {rank} of {total}", rank=rank, total=total)
    else:
        # Translators: a member's place among the day's results while others may still play, e.g. "rank 2 of 5 so far".
        standing = _("rank {rank} of {total} so far", rank=rank, total=total)
    line = f"{_scored(result, today)} — {standing}"
    if milestone is None:
        return line
    # Translators: a daily streak just reached, e.g. "🔥 7-day streak!".
    streak = n_("🔥 {count}-day streak!", "🔥 {count}-day streak!", milestone)
    return f"{line} · {streak}"


def reminder_text(streak_days: int, server: str, ends_at: float) -> str:
    """Return the direct message sent before a daily streak breaks: the streak, when the day ends, the command.

    >>> reminder_text(5, "Solitaire Club", 1767225600)  # doctest: +NORMALIZE_WHITESPACE
    "Your 5-day daily streak in **Solitaire Club** ends <t:1767225600:R> unless you play today's daily:
    `/solitaire daily` there. (You asked for these reminders; stop them with `/solitaire settings reminders: False`.)"
    """
    return n_(
        "Your {count}-day daily streak in **{server}** ends <t:{ends}:R> unless you play today's daily: "
        "`/solitaire daily` there. (You asked for these reminders; stop them with "
        "`/solitaire settings reminders: False`.)",
        "Your {count}-day daily streak in **{server}** ends <t:{ends}:R> unless you play today's daily: "
        "`/solitaire daily` there. (You asked for these reminders; stop them with "
        "`/solitaire settings reminders: False`.)",
        streak_days,
        server=server,
        ends=int(ends_at),
    )


def _played(result: DailyResult, today: date | None) -> str:
    """The first part of the refusal of a second attempt: which daily was played, its points and how it ended."""
    score, fields = result.score, {"variant": variant_title(result.variant), "time": format_time(result.seconds_used)}
    if _is_today(result.daily_date, today):
        if result.status == "won":
            return n_(
                "You already played today's {variant} daily: {count} point (won in {time})",
                "You already played today's {variant} daily: {count} points (won in {time})",
                score,
                **fields,
            )
        if result.status == "expired":
            return n_(
                "You already played today's {variant} daily: {count} point (out of time)",
                "You already played today's {variant} daily: {count} points (out of time)",
                score,
                **fields,
            )
        if result.status == "stuck":
            return n_(
                "You already played today's {variant} daily: {count} point (stuck after {time})",
                "You already played today's {variant} daily: {count} points (stuck after {time})",
                score,
                **fields,
            )
        return n_(
            "You already played today's {variant} daily: {count} point (ended after {time})",
            "You already played today's {variant} daily: {count} points (ended after {time})",
            score,
            **fields,
        )
    day = _day(result.daily_date)
    if result.status == "won":
        return n_(
            "You already played the {day} {variant} daily: {count} point (won in {time})",
            "You already played the {day} {variant} daily: {count} points (won in {time})",
            score,
            day=day,
            **fields,
        )
    if result.status == "expired":
        return n_(
            "You already played the {day} {variant} daily: {count} point (out of time)",
            "You already played the {day} {variant} daily: {count} points (out of time)",
            score,
            day=day,
            **fields,
        )
    if result.status == "stuck":
        return n_(
            "You already played the {day} {variant} daily: {count} point (stuck after {time})",
            "You already played the {day} {variant} daily: {count} points (stuck after {time})",
            score,
            day=day,
            **fields,
        )
    return n_(
        "You already played the {day} {variant} daily: {count} point (ended after {time})",
        "You already played the {day} {variant} daily: {count} points (ended after {time})",
        score,
        day=day,
        **fields,
    )


def already_played_line(result: DailyResult, today: date | None = None) -> str:
    """Return the refusal for a second attempt, quoting the first one's result and rank.

    >>> result = DailyResult(1, 7, "draw1", "2024-05-01", "expired", 1, 300, 3, 4)
    >>> already_played_line(result, date(2024, 5, 1))  # doctest: +NORMALIZE_WHITESPACE
    "You already played today's Solitaire Rush (draw 1) daily: 1 point (out of time) — rank 3 of 4.
    Come back after the day rolls over."
    """
    rank = _(
        "rank {rank} of {total}. Come back after the day rolls over.",
        rank=number(result.rank),
        total=number(result.total),
    )
    return f"{_played(result, today)} — {rank}"


def forgotten_try_line(variant: str, daily_date: str, today: date | None = None) -> str:
    """Return the refusal for a second attempt after forget-me deleted the first (the try stays used).

    >>> forgotten_try_line("draw1", "2024-05-01", date(2024, 5, 1))  # doctest: +NORMALIZE_WHITESPACE
    "You already played today's Solitaire Rush (draw 1) daily: its result was deleted when you asked me to forget
    you, and the day's try stays used. Come back after the day rolls over."
    """
    title = variant_title(variant)
    if _is_today(daily_date, today):
        return _(
            "You already played today's {variant} daily: its result was deleted when you asked me to forget you, "
            "and the day's try stays used. Come back after the day rolls over.",
            variant=title,
        )
    return _(
        "You already played the {day} {variant} daily: its result was deleted when you asked me to forget you, "
        "and the day's try stays used. Come back after the day rolls over.",
        day=_day(daily_date),
        variant=title,
    )


def ranked_line(entry: Ranked) -> str:
    """Return one leaderboard line: rank (a medal on the podium), player, score and time used."""
    place = MEDALS[entry.rank - 1] if entry.rank <= len(MEDALS) else f"`{entry.rank:>2}.`"
    player = f"<@{entry.user_id}>"
    # Translators: one leaderboard line: a medal or "` 4.`", the player, their score and the time it took.
    return _(
        "{place} {player} — **{score}** in {time}",
        place=place,
        player=player,
        score=number(entry.score),
        time=format_time(entry.seconds_used),
    )


def leaderboard_lines(board: Leaderboard, caller_id: int) -> list[str]:
    """Return the leaderboard's lines: the top, then the caller's own rank when it is outside the top."""
    if not board.top:
        return [_("No results yet.")]
    lines = [ranked_line(entry) for entry in board.top]
    shown = {entry.user_id for entry in board.top}
    if board.caller is not None and board.caller.user_id not in shown:
        lines += ["…", ranked_line(board.caller)]
    elif board.caller is None:
        caller = f"<@{caller_id}>"
        lines.append(_("{player} has no result here yet.", player=caller))
    # Translators: how many members the leaderboard ranks, e.g. "20 ranked".
    lines.append(n_("{count} ranked", "{count} ranked", board.total))
    return lines


def podium_lines(podium: Podium) -> list[str]:
    """Return the podium post: a heading, then each variant's medals (variants nobody played are skipped)."""
    lines = [_("**Daily podium for {day}**", day=_day(podium.daily_date))]
    for variant, entries in podium.places.items():
        if entries:
            lines.append(f"__{variant_title(variant)}__")
            lines += [ranked_line(entry) for entry in entries]
    if podium.empty:
        lines.append(_("Nobody played the daily deals that day."))
    return lines


def _games(count: int) -> str:
    # Translators: one figure of a member's stats line, e.g. "5 games".
    return n_("{count} game", "{count} games", count)


def _wins(count: int, ratio: float) -> str:
    # Translators: one figure of a member's stats line: wins and the share of games won, e.g. "2 wins (40%)".
    return n_("{count} win ({percent}%)", "{count} wins ({percent}%)", count, percent=_percent(ratio))


def stats_lines(stats: MemberStats) -> list[str]:
    """Return the stats summary: totals, streaks, then one line per variant played.

    Each line lists whole figures (``5 games``, ``2 wins (40%)``) after the member or the variant they are of.
    """
    rate = stats.wins / stats.games if stats.games else 0.0
    played, won = stats.played, stats.won
    # Translators: one figure of a member's stats line: the days in a row they played the daily, and their best.
    daily = n_(
        "Daily streak: {count} day (best {best})",
        "Daily streak: {count} days (best {best})",
        played.current,
        best=number(played.best),
    )
    # Translators: one figure of a member's stats line: the days in a row they won the daily, and their best.
    winning = n_(
        "winning streak: {count} day (best {best})",
        "winning streak: {count} days (best {best})",
        won.current,
        best=number(won.best),
    )
    lines = [f"<@{stats.user_id}>: {_games(stats.games)}, {_wins(stats.wins, rate)}", f"{daily} · {winning}"]
    for v in stats.variants:
        # Translators: one figure of a member's stats line of a game: their best score and their average score.
        scores = _("best {best}, average {average}", best=number(v.best_score), average=number(round(v.average_score)))
        lines.append(f"{variant_title(v.variant)}: {_games(v.games)}, {_wins(v.wins, v.win_rate)}, {scores}")
    return lines
