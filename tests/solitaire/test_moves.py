import pytest

from solitaire import Family, InvalidMoveError, parse_move

K, F = Family.KLONDIKE, Family.FRIDAY13


@pytest.mark.parametrize(
    ("text", "family", "canonical"),
    [
        ("draw", K, "draw"),
        ("D", K, "draw"),
        ("UNDO", K, "undo"),
        ("u", K, "undo"),
        ("end", K, "end"),
        ("3-5", K, "3-5"),
        (" W-F ", K, "w-f"),
        ("w-7", K, "w-7"),
        ("7-f", K, "7-f"),
        ("FH-2", K, "fh-2"),
        ("1-fs", K, "1-f"),
        ("draw", F, "draw"),
        ("w-J", F, "w-J"),
        ("w-10", F, "w-10"),
        ("W-t", F, "w-10"),
        ("w-a", F, "w-A"),
    ],
)
def test_parse_valid(text, family, canonical):
    assert str(parse_move(text, family)) == canonical


@pytest.mark.parametrize(
    ("text", "family", "message"),
    [
        ("", K, "empty move"),
        ("jump", K, "unknown move 'jump'"),
        ("9-3", K, "unknown source '9'"),
        ("3-9", K, "unknown target '9'"),
        ("3-3", K, "two different places"),
        ("f-3", K, "say which foundation"),
        ("fx-3", K, "unknown source 'fx'"),
        ("3-w", K, "never move onto the waste"),
        ("fs-f", K, "can only go to a tableau pile"),
        ("3-", K, "unknown move"),
        ("w-X", F, "no foundation labelled 'x'"),
        ("3-J", F, "only the waste plays"),
        ("w-11x", F, "no foundation labelled"),
    ],
)
def test_parse_refuses_with_reason(text, family, message):
    with pytest.raises(InvalidMoveError, match=message):
        parse_move(text, family)
