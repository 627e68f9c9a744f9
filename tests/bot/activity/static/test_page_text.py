"""The page's words are the bot's: every key the page looks up is one the bot sends and the other way round, and the
page's own files (its JavaScript, its HTML, its styles) hold no English a player could read."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from bot.activity.page_words import COUNTED, WORDS

STATIC = Path(__file__).resolve().parents[4] / "bot" / "activity" / "static"
SCRIPTS = sorted(path for path in STATIC.rglob("*.js") if "vendor" not in path.parts)
STYLES = sorted(STATIC.rglob("*.css"))
INDEX = STATIC / "index.html"
LOOKUP = re.compile(r"\bword(?:Html)?\(")
KEY = re.compile(r'\bword(?:Html)?\(\s*"([a-z0-9_]+)"')
HTML_KEY = re.compile(r'\bdata-word(?:-[a-z]+)?="([a-z0-9_]+)"')
VISIBLE = ("title", "aria-label", "placeholder", "alt")
"""The attributes a reader sees (or hears)."""
LETTERS = re.compile(r"[A-Za-z]{2,}")
PROSE = re.compile(r"\b[A-Za-z]{2,}[,.!?]? [A-Za-z]{2,}\b")
"""Two words in a row: a sentence, not a name in code."""
CODE_PHRASES = {"input, textarea", "card back", "card face suit-${}", "no screen ${}"}
"""Literals that hold two words in a row and are code: a selector, a card's classes, a bug's error."""


def literals(source: str) -> list[str]:
    """Every string and template literal of a JavaScript source (a template's ``${...}`` left as ``${}``)."""
    found: list[str] = []
    i, n = 0, len(source)
    last = ""  # the last character of code read (to tell a regular expression from a division)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            line_end = source.find("\n", i)
            i = n if line_end < 0 else line_end
        elif source.startswith("/*", i):
            i = source.index("*/", i) + 2
        elif c in "\"'":
            end = i + 1
            while source[end] != c:
                end += 2 if source[end] == "\\" else 1
            found.append(source[i + 1 : end])
            i, last = end + 1, c
        elif c == "`":
            i = _template(source, i + 1, found)
            last = "`"
        elif c == "/" and (not last or last in "(,=:[!&|?{};+"):
            end, in_class = i + 1, False
            while in_class or source[end] != "/":
                in_class = (in_class or source[end] == "[") and source[end] != "]"
                end += 2 if source[end] == "\\" else 1
            i, last = end + 1, "/"
        else:
            if not c.isspace():
                last = c
            i += 1
    return found


def _template(source: str, i: int, found: list[str]) -> int:
    """Read a template literal from ``i`` (after its backtick) into ``found``; where it ends."""
    text: list[str] = []
    while source[i] != "`":
        if source[i] == "\\":
            text.append(source[i : i + 2])
            i += 2
        elif source.startswith("${", i):
            depth, i = 1, i + 2
            start = i
            while depth:
                if source[i] == "`":
                    i = _template(source, i + 1, found)
                    continue
                if source[i] in "\"'":
                    quote, i = source[i], i + 1
                    while source[i] != quote:
                        i += 2 if source[i] == "\\" else 1
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                i += 1
            found.extend(literals(source[start : i - 1]))
            text.append("${}")
        else:
            text.append(source[i])
            i += 1
    found.append("".join(text))
    return i + 1


def readable(literal: str) -> list[str]:
    """What a reader could see of a literal that is markup: its text between tags, its visible attributes."""
    seen = [match.group(1) for match in re.finditer(rf'\b(?:{"|".join(VISIBLE)})="([^"$]*)', literal)]
    if "<" in literal:
        outside = re.sub(r"<[^>]*>?", " ", re.sub(r"^[^<>]*>", " ", literal))
        seen.append(outside)
    return seen


def test_every_word_the_page_looks_up_is_the_bots_and_every_word_the_bot_sends_is_used() -> None:
    used: set[str] = set()
    for path in SCRIPTS:
        source = path.read_text(encoding="utf-8")
        if path.name != "speech.js":  # the look-up itself, and index.html's words by their attributes
            calls = len(LOOKUP.findall(source))
            keys = KEY.findall(source)
            assert len(keys) == calls, f"{path.name}: a word looked up by a key that is not written out"
            used |= set(keys)
    used |= set(HTML_KEY.findall(INDEX.read_text(encoding="utf-8")))
    sent = set(WORDS) | set(COUNTED)
    assert used - sent == set(), "looked up by the page, never sent by the bot"
    assert sent - used == set(), "sent by the bot, never looked up by the page"


def test_the_pages_scripts_hold_no_sentence_and_no_visible_word_of_their_own() -> None:
    found = []
    for path in SCRIPTS:
        for literal in literals(path.read_text(encoding="utf-8")):
            text = literal.replace("${}", " ")
            if PROSE.search(text) and literal not in CODE_PHRASES and "<" not in literal and "=" not in literal:
                found.append((path.name, literal))
            found += [(path.name, seen) for seen in readable(literal) if LETTERS.search(seen.replace("${}", " "))]
    assert found == []


class _Shown(HTMLParser):
    """The text and visible attributes of a page (its scripts and styles left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("script", "style")
        self.seen += [value or "" for name, value in attrs if name in VISIBLE]

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.seen.append(re.sub(r"\{\{\w+\}\}", "", data))


def test_the_page_and_its_styles_hold_no_word_of_their_own() -> None:
    shown = _Shown()
    shown.feed(INDEX.read_text(encoding="utf-8"))
    assert [text for text in shown.seen if LETTERS.search(text)] == []
    contents = [
        (path.name, value)
        for path in STYLES
        for value in re.findall(r"(?<![\w-])content:\s*([^;}]*)", path.read_text(encoding="utf-8"))
        if any(LETTERS.search(quoted) for quoted in re.findall(r'"([^"]*)"', value))
    ]
    assert contents == []


def test_the_scan_finds_a_sentence_a_word_between_tags_and_a_visible_attribute() -> None:
    source = 'const a = "Keep playing"; // not "this one"\nel.innerHTML = `<h3>Races</h3><b title="Score">${x}</b>`;'
    source += '\nconst r = /`[^"]+`/g; const ok = `${"data-race"}`;'
    assert literals(source) == ["Keep playing", '<h3>Races</h3><b title="Score">${}</b>', "data-race", "${}"]
    assert readable('<h3>Races</h3><b title="Score">${}</b>') == ["Score", " Races  ${} "]
    assert PROSE.search("Keep playing") and not PROSE.search("data-race")
