"""``/solitaire help`` and the notes given once: a player's first-board tip, an admin's note of what to configure.

A mixin of :class:`cogs.solitaire.Solitaire`. The words of the games come from their own definitions
(each family's goal, each pad's ``how_to``), the command list from the registered commands, the
version from the package metadata, so the help cannot drift from what the bot does.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass

import discord
from discord import app_commands
from discord.app_commands import Command
from discord.ext import commands

from bot.compete.onboarding import admin_notes
from bot.play.move_words import describe_move
from bot.play.pads import PLAY_HERE_ROW, Play, Select, pad_for
from bot.play.render_pool import BoardPicture
from bot.play.rules_text import markdown
from bot.storage import StorageError
from bot.version import bot_version
from cogs.base import SolitaireCogBase
from cogs.buttons import add_play_here
from cogs.errors import refusals
from render.samples import sample_game
from solitaire import Family, Game, Move, MoveKind, view_of
from solitaire.alt_text import describe_board
from solitaire.guide import rules_parts
from solitaire.moves import PILES
from solitaire.speech import N_, _, n_
from solitaire.variants import DEFAULT_VARIANT, VARIANTS, Rules
from solitaire.view import BoardView

log = logging.getLogger(__name__)

HELP_PICTURE = "help.png"
FIRST = ("start", "move", "draw", "undo", "end", "rules")
"""The commands the help lists first: playing your own game."""
FIELD_LIMIT = 1024
"""Discord's limit on one embed field's text."""
INTRO = N_(
    "Timed solitaire: every game is yours alone, on a five-minute clock, and scores points; the server "
    "ranks the scores. `/solitaire start` deals a proven-winnable game on a board with buttons, "
    "`/solitaire rules` explains one game's rules and scoring, `/solitaire daily` is the server's deal of the day."
)

PLAY_HERE = N_(
    "**Play here** (below, and on your running board) opens the game inside Discord as an Activity: the same "
    "games, with cards you drag or tap. It shows your own games, whoever's message the button is on."
)


@dataclass(frozen=True)
class HelpBoard:
    """The real board the help shows: a sample game mid-way, with a source selected if a move needs two clicks."""

    game: Game
    view: BoardView
    selected: str | None
    caption: str


def help_board() -> HelpBoard:
    """The default game after a few moves, and what a click on one of its piles does."""
    game = sample_game(DEFAULT_VARIANT, "mid")
    view = view_of(game)
    moves = [m for m in view.legal_moves if m.kind is MoveKind.PLAY and m.source in PILES]
    head = n_(
        "A {title} game after {count} move.", "A {title} game after {count} moves.", view.move_count, title=view.title
    )
    pad = pad_for(view.family)
    several = next((m for m in moves if pad.resolve(view, None, m.source) == Select(m.source)), None)
    if several is not None:
        caption = _(
            "**Pile {source}** was clicked: its cards can go to several places, so its button is blue and the "
            "places they may go are green. Clicking **Pile {target}** now moves {cards}.",
            source=several.source,
            target=several.target,
            cards=_card_words(game, several),
        )
        return HelpBoard(game, view, several.source, f"{head} {caption}")
    pressed = next((m for m in moves if pad.resolve(view, None, m.source) == Play(m)), None)
    if pressed is None:
        return HelpBoard(game, view, None, head)
    fields = {"source": pressed.source, "cards": _card_words(game, pressed)}
    if pressed.target == "f":
        clicking = _("Clicking **Pile {source}** moves {cards} at once: it can go up.", **fields)
    else:
        clicking = _("Clicking **Pile {source}** moves {cards} at once: it has one place to go.", **fields)
    rest = _(
        "A card that can go up goes up; one with several other places to go is selected instead, and the places "
        "it may go light up green (**Choose** first selects a card that could go up)."
    )
    return HelpBoard(game, view, None, f"{head} {clicking} {rest}")


def _card_words(game: Game, move: Move) -> str:
    """``9♣ onto 10♥``: the words of the move autocomplete, without its ``1 → 7:`` prefix."""
    return describe_move(game, move).split(": ", 1)[-1]


def demo_buttons(board: HelpBoard, *, play_here: bool = False) -> discord.ui.View:
    """The board's buttons as the player sees them, disabled: a picture of the pad, not a game to play.

    ``play_here``: the Activity is served, so a live **Play here** opens it below them.
    """
    buttons = discord.ui.View(timeout=None)
    for index, spec in enumerate(pad_for(board.view.family).layout(board.view, board.selected)):
        style = discord.ButtonStyle[spec.style]
        buttons.add_item(
            discord.ui.Button(
                label=spec.label, style=style, row=spec.row, disabled=True, custom_id=f"solitaire:help:{index}"
            )
        )
    if play_here:
        add_play_here(buttons, PLAY_HERE_ROW)
    return buttons


def family_fields() -> list[tuple[str, str]]:
    """One (name, text) per family: its games' titles, then its goal and how its buttons make a move."""
    families: dict[Family, list[Rules]] = {}
    for rules in VARIANTS.values():
        families.setdefault(rules.family, []).append(rules)
    return [
        (", ".join(rules.title for rules in games), f"{markdown(family_goal(games[0]))}\n{pad_for(family).how_to}")
        for family, games in families.items()
    ]


def family_goal(rules: Rules) -> str:
    """The goal of the family of ``rules``' game, as its rules say it (``/solitaire rules`` says the same)."""
    goal, _stock, _scoring = rules_parts(rules)
    return goal


def command_lines(group: app_commands.Group | None) -> list[str]:
    """``/solitaire start``: its description, for every command of the group (sub-groups included).

    Playing your own game comes first (:data:`FIRST`), then the rest as they are registered. The descriptions
    are in the catalogue as the slash commands' own words (:func:`bot.runtime.command_words.command_sentences`).
    """
    found = [command for command in (group.walk_commands() if group else ()) if isinstance(command, Command)]
    found.sort(key=lambda command: FIRST.index(command.name) if command.name in FIRST else len(FIRST))
    return [f"`/{command.qualified_name}` {_(command.description)}" for command in found]


def fields_of(lines: list[str], limit: int = FIELD_LIMIT) -> list[str]:
    """``lines`` joined into as few texts of at most ``limit`` characters as they fit in (a line is never split)."""
    texts: list[str] = []
    for line in lines:
        if texts and len(texts[-1]) + 1 + len(line) <= limit:
            texts[-1] += "\n" + line
        else:
            texts.append(line[:limit])
    return texts


def help_embed(board: HelpBoard, commands_text: list[str], *, play_here: bool = False) -> discord.Embed:
    """The help as one embed: the games, the buttons, the picture of a real board, the commands, the version.

    ``play_here``: the Activity is served, so the help says what **Play here** does.
    """
    embed = discord.Embed(title=_("Solitaire Rush: how to play"), description=_(INTRO))
    if play_here:
        embed.add_field(name=_("Play here"), value=_(PLAY_HERE), inline=False)
    for name, text in family_fields():
        add_fields(embed, name, text)
    add_fields(embed, _("The board below"), board.caption)
    for index, text in enumerate(commands_text):
        embed.add_field(name=_("Commands") if index == 0 else _("More commands"), value=text, inline=False)
    embed.set_image(url=f"attachment://{HELP_PICTURE}")
    embed.set_footer(text=_("Solitaire Rush for Discord {version}", version=bot_version()))
    return embed


MORE = "\u200b"
"""The (blank) name of a field that goes on with the one above it."""


def add_fields(embed: discord.Embed, name: str, text: str) -> None:
    """Add ``text`` under ``name``, in as many fields as Discord's limit needs (a longer language may need two)."""
    for index, part in enumerate(fields_of(text.split("\n"))):
        embed.add_field(name=name if index == 0 else MORE, value=part, inline=False)


class HelpCommands(SolitaireCogBase):
    """``/solitaire help`` and the once-only notes (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    @app_commands.command(name="help", description="How to play: the games, the buttons and the commands")
    async def help_command(self, interaction: discord.Interaction) -> None:
        """Answer privately with the help, a picture of a real board and its (disabled) buttons."""
        async with refusals(interaction):
            board = help_board()
            clock = board.game.log[-1][1] if board.game.log else 0
            picture = BoardPicture(board.view, time_left=board.game.rules.time_limit - clock, selected=board.selected)
            png = await self.bot.renders.render(picture)
            await interaction.response.send_message(
                embed=help_embed(board, fields_of(command_lines(self.app_command)), play_here=self.play_here),
                file=discord.File(io.BytesIO(png), filename=HELP_PICTURE, description=describe_board(board.view)),
                view=demo_buttons(board, play_here=self.play_here),
                ephemeral=True,
            )

    async def first_board_tip(self, user_id: int, family: Family) -> str | None:
        """The tip for the player's first board, once (``None`` for every later board)."""
        if await self.onboarding.first_board(user_id):
            return pad_for(family).first_tip
        return None

    @commands.Cog.listener("on_app_command_completion")
    async def _setup_note_once(self, interaction: discord.Interaction, command: object) -> None:
        """After a command of a member who may manage the server, say once what to set or fix there."""
        guild_id, user_id = interaction.guild_id, interaction.user.id
        if guild_id is None or not interaction.permissions.manage_guild or not interaction.response.is_done():
            return
        try:
            for note, text in admin_notes(await self.daily.server_config(guild_id)):
                if await self.onboarding.first_time(note, user_id, guild_id):
                    await interaction.followup.send(text, ephemeral=True)
        except (StorageError, discord.HTTPException) as error:
            log.warning("could not give the setup note in server %s: %s", guild_id, error)
