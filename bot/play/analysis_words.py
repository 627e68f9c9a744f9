"""The analysis answer in words: the verdict, the losing move and a winning line, in the move autocomplete's words.

Pure (no Discord): the analysis job (:func:`bot.play.after_game.analysis_reply`) calls it in a worker process,
since it replays the game through the engine.
"""

from __future__ import annotations

from bot.play.move_words import describe_move
from solitaire import Game, new_game
from solitaire.analysis import Analysis
from solitaire.words import plural

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
    lines = ["**Analysis** (solved with every card known, now that the game is over)"]
    start = {True: "The deal was winnable.", False: "The deal could not be won.", None: "Undecided whether the deal"}
    lines.append(start[analysis.winnable_at_start] + (" could be won." if analysis.winnable_at_start is None else ""))
    if analysis.status == "won":
        lines.append("You won it: nothing was lost.")
        return "\n".join(lines)
    if analysis.last_winnable is None:
        return "\n".join(lines)
    where = f"after move {analysis.last_winnable}" if analysis.last_winnable else "at the start"
    if analysis.lost_by is not None:
        lost = describe_move(kept, kept.parse_move(analysis.lost_by))
        lines.append(f"It was still winnable {where} (the picture); **{lost}** lost it.")
    elif analysis.decided:
        lines.append(f"It was still winnable {where}, when the game ended.")
    else:
        lines.append(f"It was proven winnable {where}; after that my search ran out of time (undecided).")
    lines.append(line_words(kept, analysis.line))
    return "\n".join(lines)


def line_words(kept: Game, line: tuple[str, ...]) -> str:
    """A winning line in the move autocomplete's words, cut to fit a message."""
    if not line:
        return ""
    game = new_game(kept.rules, deck=kept.deck)
    for text, seconds in kept.log:
        game.play(text, seconds=seconds)
    head = f"A winning line from there ({plural(len(line), 'move')}): "
    words: list[str] = []
    used = len(head)
    for index, text in enumerate(line):
        said = describe_move(game, game.parse_move(text))
        if used + len(said) + 3 > MAX_CONTENT - 400:
            words.append(f"… and {len(line) - index} more")
            break
        words.append(said)
        used += len(said) + 3
        game.play(text)
    return head + " · ".join(words)
