"""The catalogue check: what it finds wrong in a language's catalogue against the source."""

from __future__ import annotations

from babel.messages.catalog import Catalog

from languages.tool import check, fields, problems


def _template() -> Catalog:
    template = Catalog()
    template.add("You won in {time}")
    template.add(("{count} move", "{count} moves"))
    template.add("**Play** now")
    template.add("start", context="command name")
    return template


def _german(changes: dict[object, object] | None = None, /, **named: object) -> Catalog:
    catalogue = Catalog(locale="de")
    strings: dict[object, object] = {
        "You won in {time}": "Gewonnen in {time}",
        ("{count} move", "{count} moves"): ("{count} Zug", "{count} Züge"),
        "**Play** now": "Jetzt **spielen**",
        "start": "starten",
    }
    strings.update(changes or {})
    strings.update(named)
    for source, translation in strings.items():
        if translation is not None:
            context = "command name" if source == "start" else None
            catalogue.add(source, translation, context=context)  # type: ignore[arg-type]
    return catalogue


def test_a_complete_catalogue_has_no_problem() -> None:
    assert list(problems(_template(), _german(), "de")) == []


def test_a_missing_an_untranslated_and_a_stale_sentence_are_each_named() -> None:
    found = list(problems(_template(), _german(**{"You won in {time}": None, "Gone": "Weg", "start": ""}), "de"))
    assert "de: 'You won in {time}' is missing" in found
    assert "de: 'Gone' is stale (no longer in the code)" in found
    assert "de: 'start' is not translated" in found


def test_a_translation_whose_fields_or_markup_differ_is_named() -> None:
    found = list(problems(_template(), _german(**{"You won in {time}": "Gewonnen in {zeit}"}), "de"))
    assert found == ["de: 'You won in {time}': fields differ: ['zeit'] added, ['time'] lost in 'Gewonnen in {zeit}'"]
    found = list(problems(_template(), _german(**{"**Play** now": "Jetzt spielen"}), "de"))
    assert found == ["de: '**Play** now': '**' appears 0 times, 2 in the source"]


def test_a_plural_form_may_leave_the_count_out() -> None:
    """French says "une partie", not "1 partie": the count may go; any other field may not."""
    catalogue = _german({("{count} move", "{count} moves"): ("un coup", "{count} coups")})
    assert list(problems(_template(), catalogue, "de")) == []


def test_fields_are_read_as_python_formats_them() -> None:
    assert fields("{a} and {b:>5} but {{c}}") == {"a", "b"}


def test_the_real_catalogues_are_complete_and_match_the_code() -> None:
    """The catalogue check of the test command, here too: the code and every catalogue agree."""
    assert check() == 0
