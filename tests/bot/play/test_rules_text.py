import pytest

from bot.play.rules_text import rules_text
from solitaire import UnknownVariantError


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ("draw1", ["draw 1", "−100", "× cards placed ÷ 52"]),
        ("draw3", ["draw 3", "−20 from the third time"]),
        ("goldrush", ["Gold Rush", "3 cards per draw, then 2, then 1", "never leave the foundations"]),
        ("friday13", ["Friday 13", "+20 more", "÷ 48"]),
    ],
)
def test_rules_name_the_variant_and_its_scoring(variant, words):
    text = rules_text(variant)
    assert all(word in text for word in words), text
    assert len(text) < 2000  # fits one Discord message


def test_an_unknown_variant_is_refused():
    with pytest.raises(UnknownVariantError):
        rules_text("spider")


@pytest.mark.parametrize(("variant", "mentioned"), [("draw1", True), ("draw3", True), ("goldrush", False)])
def test_the_foundation_to_pile_penalty_is_listed_only_where_that_move_exists(variant, mentioned):
    assert ("back to a pile" in rules_text(variant)) is mentioned
