"""A ``DATABASE_URL`` shown without its password, in any form it was written, and checked before it is used.

asyncpg reads the password from the URL's user part (``user:password@host``) or from a
``?password=`` parameter; it splits the user part at the *first* ``@``, so a password with
an unencoded ``@`` would send the rest of it to the DNS as a host name. Such a URL is refused
(:func:`problem`) with a message that does not quote it. :func:`label` names the database
without any password, and :func:`redact` takes every form of it out of a text to print
(a driver's error message included).

>>> label("postgresql://bot:s3cret@db.example:5432/solitaire?password=x&search_path=s")
'postgresql://bot@db.example:5432/solitaire?password=***&search_path=s'
>>> redact("failed for 's3cret' and 's3%63ret'", "postgresql://bot:s3%63ret@db/x")
"failed for '***' and '***'"
>>> problem("postgresql://bot:p@ss@db/x")
"its password holds an '@': write it as %40"
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterator

HIDDEN = "***"
_SECRET_KEYS = ("password", "sslpassword")
"""Query parameters whose values are secrets (asyncpg's names)."""


def _parts(url: str) -> tuple[str, str, str, str, str]:
    """The URL's scheme, user part (before the last ``@``, ``""`` if none), host part, path and query."""
    split = urllib.parse.urlsplit(url.strip())
    user, at, host = split.netloc.rpartition("@")
    return split.scheme, user if at else "", host, split.path, split.query


def problem(url: str) -> str | None:
    """What makes ``url`` unusable as a PostgreSQL URL, in words that never quote it; ``None`` if nothing."""
    try:
        scheme, user, host, _, query = _parts(url)
        urllib.parse.parse_qsl(query, strict_parsing=bool(query))
    except ValueError:
        return "it is not a readable URL (a bracket or a character that needs %-encoding?)"
    if scheme not in ("postgresql", "postgres"):
        return "it must be a postgresql:// URL, e.g. postgresql://solitaire:secret@localhost:5432/solitaire"
    if "@" in user:
        return "its password holds an '@': write it as %40"
    if not host:
        return "it names no host, e.g. postgresql://solitaire:secret@localhost:5432/solitaire"
    return None


def label(url: str) -> str:
    """``url`` without its password (secret parameters shown as ``***``), to name the database in messages."""
    try:
        scheme, user, host, path, query = _parts(url)
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
    except ValueError:
        return "an unreadable DATABASE_URL"
    name = user.split(":", 1)[0]
    shown = "&".join(
        f"{key}={HIDDEN if key in _SECRET_KEYS else urllib.parse.quote(value, safe=',/:')}" for key, value in pairs
    )
    return f"{scheme}://{name + '@' if name else ''}{host}{path}{'?' + shown if shown else ''}"


def _secrets(url: str) -> Iterator[str]:
    """Every password the URL holds, as written, decoded and encoded (longest first, so no piece is left)."""
    text = url.strip()
    found = set()
    try:
        _, user, _, _, query = _parts(text)
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
    except ValueError:  # unreadable: hide everything after the scheme
        found.add(text.partition("://")[2])
    else:
        if ":" in user:
            written = user.split(":", 1)[1]
            found.add(written)
        found |= {value for key, value in pairs if key in _SECRET_KEYS}
        raw = dict(pair.partition("=")[::2] for pair in query.split("&"))
        found |= {raw[key] for key in _SECRET_KEYS if key in raw}
    found |= {urllib.parse.unquote(secret) for secret in found}
    found |= {urllib.parse.quote(secret, safe="") for secret in found}
    yield from sorted((secret for secret in found if secret), key=len, reverse=True)


def redact(text: str, url: str) -> str:
    """``text`` with every form of the URL's passwords replaced by ``***`` (in any letter case)."""
    for secret in _secrets(url):
        text = re.sub(re.escape(secret), HIDDEN, text, flags=re.IGNORECASE)
    return text
