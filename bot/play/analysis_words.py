"""The analysis answer in words: the verdict, the losing move and a winning line, in the move autocomplete's words.

Pure (no Discord): the analysis job (:func:`bot.play.after_game.analysis_reply`) calls it in a worker process,
since it replays the game through the engine.
"""

from __future__ import annotations

from bot.play.move_words import describe_move
from solitaire import Game, new_game
from solitaire.analysis import Analysis
from solitaire.speech import N_, _, n_

MAX_CONTENT = 1900
"""Room left in a 2000-character message for the analysis text."""


def game_after(game: Game, applied: int) -> Game:
    """The game after the first ``applied`` logged commands."""
    kept = new_game(game.rules, deck=game.deck)
    for text, seconds in game.log[:applied]:
        kept.play(text, seconds=seconds)
    return kept


def analysis_text(analysis: Analysis, kept: Game) -> str:
    """The private answer: winnable or not, the last winnable move, the losing move and a winning line in words."""
    lines = [_("**Analysis** (solved with every card known, now that the game is over)")]
    lines.append(_(_START[analysis.winnable_at_start]))
    if analysis.status == "won":
        lines.append(_("You won it: nothing was lost."))
        return "\n".join(lines)
    if analysis.last_winnable is None:
        return "\n".join(lines)
    after = analysis.last_winnable
    if analysis.lost_by is not None:
        lost = describe_move(kept, kept.parse_move(analysis.lost_by))
        if after:
            lines.append(
                _("It was still winnable after move {move} (the picture); **{lost}** lost it.", move=after, lost=lost)
            )
        else:
            lines.append(_("It was still winnable at the start (the picture); **{lost}** lost it.", lost=lost))
    elif analysis.decided:
        if after:
            lines.append(_("It was still winnable after move {move}, when the game ended.", move=after))
        else:
            lines.append(_("It was still winnable at the start, when the game ended."))
    elif after:
        lines.append(
            _("It was proven winnable after move {move}; after that my search ran out of time (undecided).", move=after)
        )
    else:
        lines.append(_("It was proven winnable at the start; after that my search ran out of time (undecided)."))
    lines.append(line_words(kept, analysis.line))
    return "\n".join(lines)


_START = {
    True: N_("The deal was winnable."),
    False: N_("The deal could not be won."),
    None: N_("Undecided whether the deal could be won."),
}
"""Whether the deal could be won from its start (``None``: the search ran out of time)."""


def line_words(kept: Game, line: tuple[str, ...]) -> str:
    """A winning line in the move autocomplete's words, cut to fit a message."""
    if not line:
        return ""
    game = new_game(kept.rules, deck=kept.deck)
    for text, seconds in kept.log:
        game.play(text, seconds=seconds)
    count = len(line)
    used = len(_winning_line(count, ""))
    words: list[str] = []
    for index, text in enumerate(line):
        said = describe_move(game, game.parse_move(text))
        if used + len(said) + 3 > MAX_CONTENT - 400:
            more = count - index
            # Translators: the end of a winning line cut short: how many moves are left out.
            words.append(n_("… and {count} more", "… and {count} more", more))
            break
        words.append(said)
        used += len(said) + 3
        game.play(text)
    return _winning_line(count, " · ".join(words))


def _winning_line(count: int, moves: str) -> str:
    """The winning line's sentence: how many moves, then ``moves`` in words."""
    return n_(
        "A winning line from there ({count} move): {moves}",
        "A winning line from there ({count} moves): {moves}",
        count,
        moves=moves,
    )
