"""Every daily deal of the test bot is the easy deck (won by All up, then Draw and All up).

``instant_daily`` is autouse: it applies in the test modules that import it, and only there.
"""

from __future__ import annotations

import pytest

from solitaire.deals import DealRequest, ProvenDeal
from tests.support.decks import EASY_KLONDIKE


@pytest.fixture(autouse=True)
def instant_daily(make_bot) -> None:
    def solver(request: DealRequest) -> ProvenDeal:
        return ProvenDeal(request.variant, 0, EASY_KLONDIKE, ())

    make_bot.daily_solve = solver
