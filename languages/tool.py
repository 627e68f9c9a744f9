"""Extraction, update and check of the catalogues (Babel's extractor and ``.po`` reader and writer)."""

from __future__ import annotations

import io
import re
import string
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from languages.catalogues import DOMAIN, LANGUAGES, LOCALES

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
KEYWORDS = {"_": None, "n_": (1, 2), "N_": None}
"""``solitaire.speech``'s three words: say, say counted, mark."""
PLURAL_FORMS = {
    "de": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "es_ES": "nplurals=2; plural=(n != 1);",
    "pt_BR": "nplurals=2; plural=(n > 1);",
}
"""Each language's plural rule as gettext writes it (French and Brazilian Portuguese: 0 and 1 are singular)."""
PROJECT = "Solitaire Rush"
STAMP = datetime(2026, 11, 29, tzinfo=UTC)
"""The date every catalogue's header carries, so that extracting again changes no line but the sentences'."""
MARKUP = ("**", "`", "<t:", "<@", "<#", "\n")
"""Discord markup a translation keeps as many of as its source."""


def source_catalogue() -> Catalog:
    """Every sentence of the code and of the command tree, as an English template."""
    template = Catalog(
        domain=DOMAIN, project=PROJECT, charset="utf-8", fuzzy=False, creation_date=STAMP, revision_date=STAMP
    )
    template.header_comment = (
        "# The English source of Solitaire Rush's sentences: written by python -m languages extract."
    )
    with (Path(__file__).parent / "babel.cfg").open() as config:
        mappings = _mappings(config.read())
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), method_map=mappings, keywords=KEYWORDS, comment_tags=("Translators:",)
    ):
        template.add(message, locations=[(filename, lineno)], auto_comments=comments, context=context)
    for context, words in _command_sentences():
        template.add(words, context=context, locations=[("cogs/solitaire.py", 0)])
    return template


def _command_sentences() -> list[tuple[str | None, str]]:
    """The words of the ``/solitaire`` command tree, in the order it declares them."""
    from bot.runtime.command_words import command_sentences
    from cogs.solitaire import Solitaire

    group = (str(Solitaire.__cog_group_name__), str(Solitaire.__cog_group_description__))
    return list(dict.fromkeys(command_sentences(Solitaire.__cog_app_commands__, group)))


def _mappings(config: str) -> list[tuple[str, str]]:
    return [(pattern, method) for method, pattern in re.findall(r"^\[(\w+):\s*(.+?)\]$", config, re.M)]


def _write(catalogue: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=116, sort_output=True, include_lineno=False, ignore_obsolete=True)
    path.write_bytes(buffer.getvalue())


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale, domain=DOMAIN)


def extract() -> int:
    """Write the English source catalogue."""
    template = source_catalogue()
    _write(template, TEMPLATE)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(template)} sentences")
    return 0


def update() -> int:
    """Bring each language's catalogue up to the source (new sentences untranslated, gone ones dropped)."""
    template = _read(TEMPLATE)
    for language in LANGUAGES:
        if language.is_source:
            continue
        path = LOCALES / language.code / "LC_MESSAGES" / f"{DOMAIN}.po"
        catalogue = _read(path, language.code) if path.exists() else Catalog(locale=language.code, domain=DOMAIN)
        catalogue.update(template, no_fuzzy_matching=True)
        catalogue.fuzzy = False
        catalogue.project, catalogue.version = PROJECT, ""
        catalogue.creation_date = catalogue.revision_date = STAMP
        catalogue.last_translator = catalogue.language_team = ""
        catalogue.header_comment = (
            f"# {language.name}: the sentences of {PROJECT}. Its words: glossary/{language.code}.md"
        )
        catalogue._num_plurals, catalogue._plural_expr = _plural(language.code)  # type: ignore[assignment]
        _write(catalogue, path)
        untranslated = sum(1 for message in catalogue if message.id and not _translated(message))
        print(f"{path.relative_to(ROOT)}: {len(catalogue)} sentences, {untranslated} untranslated")
    return 0


def _plural(code: str) -> tuple[int, str]:
    count, expression = re.fullmatch(r"nplurals=(\d+); plural=(.+);", PLURAL_FORMS[code]).groups()  # type: ignore[union-attr]
    return int(count), expression


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return not message.fuzzy and all(strings)


def fields(text: str) -> set[str]:
    """The ``{named}`` fields of a sentence.

    >>> sorted(fields("{name} won in {time:>5} {{not}}"))
    ['name', 'time']
    """
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def problems(template: Catalog, catalogue: Catalog, code: str) -> Iterable[str]:
    """What is wrong with one language's catalogue against the source."""
    wanted = {(message.context, _key(message.id)) for message in template if message.id}
    for message in catalogue:
        if not message.id:
            continue
        where = f"{code}: {_key(message.id)!r}"
        if (message.context, _key(message.id)) not in wanted:
            yield f"{where} is stale (no longer in the code)"
            continue
        if not _translated(message):
            yield f"{where} is not translated"
            continue
        yield from (f"{where}: {problem}" for problem in _differences(message))
    have = {(message.context, _key(message.id)) for message in catalogue if message.id}
    for _context, key in sorted(wanted - have, key=str):
        yield f"{code}: {key!r} is missing"


def _key(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def _differences(message: Message) -> Iterable[str]:
    sources = [message.id] if isinstance(message.id, str) else list(message.id)
    translations = [message.string] if isinstance(message.string, str) else list(message.string or ())
    source_fields = set().union(*(fields(text) for text in sources))
    for translation in translations:
        extra = fields(translation) - source_fields
        lost = source_fields - fields(translation) - ({"count"} if len(sources) > 1 else set())
        if extra or lost:
            yield f"fields differ: {sorted(extra)} added, {sorted(lost)} lost in {translation!r}"
        for mark in MARKUP:
            if translation.count(mark) != sources[-1].count(mark):
                yield f"{mark!r} appears {translation.count(mark)} times, {sources[-1].count(mark)} in the source"


def check() -> int:
    """Print every problem of the catalogues; 0 when there is none."""
    fresh = source_catalogue()
    found: list[str] = []
    written = _read(TEMPLATE)
    code_ids = {(message.context, _key(message.id)) for message in fresh if message.id}
    pot_ids = {(message.context, _key(message.id)) for message in written if message.id}
    if code_ids != pot_ids:
        found.append(
            f"messages.pot is out of date ({len(code_ids - pot_ids)} new, {len(pot_ids - code_ids)} gone):"
            " run python -m languages extract, then update"
        )
    for language in LANGUAGES:
        if language.is_source:
            continue
        path = LOCALES / language.code / "LC_MESSAGES" / f"{DOMAIN}.po"
        found.extend(problems(fresh, _read(path, language.code), language.code))
    for problem in found:
        print(problem)
    print(f"catalogues: {len(code_ids)} sentences, {len(found)} problems")
    return 1 if found else 0
