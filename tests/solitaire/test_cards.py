import pytest

from solitaire import FULL_DECK, Card, InvalidCardError, InvalidDeckError, format_deck, parse_deck


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("TH", Card(10, "H")),
        ("10h", Card(10, "H")),
        ("as", Card(1, "S")),
        (" kd ", Card(13, "D")),
        ("2C", Card(2, "C")),
    ],
)
def test_parse_card(text, card):
    assert Card.parse(text) == card


@pytest.mark.parametrize("text", ["", "1H", "11S", "TX", "H", "AHS", "0C"])
def test_parse_card_refuses(text):
    with pytest.raises(InvalidCardError, match="invalid card"):
        Card.parse(text)


def test_card_names():
    card = Card.parse("TH")
    assert (str(card), card.label, card.is_red, card.rank_name) == ("TH", "10♥", True, "10")
    assert not Card.parse("QS").is_red


def test_full_deck_is_52_distinct_in_documented_order():
    assert len(set(FULL_DECK)) == 52
    assert format_deck(FULL_DECK[:3]) == "AC 2C 3C"
    assert str(FULL_DECK[-1]) == "KS"


def test_deck_round_trip():
    assert parse_deck(format_deck(FULL_DECK)) == FULL_DECK


@pytest.mark.parametrize(
    ("text", "message"),
    [("AC 2C", "got 2"), (" ".join(["AC"] * 52), "got 52"), ("ZZ " * 52, "invalid card")],
)
def test_parse_deck_refuses(text, message):
    with pytest.raises(InvalidDeckError, match=message):
        parse_deck(text)
