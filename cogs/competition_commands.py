from cogs.base import SolitaireCogBase


class CompetitionCommands(SolitaireCogBase):
    """Daily competitions (see issue 6)."""
