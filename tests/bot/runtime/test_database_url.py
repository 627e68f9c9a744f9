"""``DATABASE_URL`` shown without its password in any form, and refused with a message that never quotes it."""

from __future__ import annotations

import doctest

import pytest

from bot.runtime import database_url
from bot.runtime.settings import SettingsError, load_settings

SECRET = "Pw-s3cret"


def test_the_examples_in_the_module_hold():
    assert doctest.testmod(database_url).failed == 0


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"postgresql://bot:{SECRET}@db:5432/x", "postgresql://bot@db:5432/x"),
        (f"postgresql://bot@db/x?password={SECRET}", "postgresql://bot@db/x?password=***"),
        (
            f"postgresql://bot@db/x?sslpassword={SECRET}&search_path=s",
            "postgresql://bot@db/x?sslpassword=***&search_path=s",
        ),
        ("postgresql://bot:Pw%2Ds3cret@db/x?sslmode=require", "postgresql://bot@db/x?sslmode=require"),
        (f"postgres://:{SECRET}@db/x", "postgres://db/x"),
        ("postgresql://db/x", "postgresql://db/x"),
    ],
)
def test_the_label_holds_no_password(url, shown):
    assert database_url.label(url) == shown


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bot:{SECRET}@db/x",
        "postgresql://bot:Pw%2Ds3cret@db/x",
        f"postgresql://bot@db/x?password={SECRET}",
        "postgresql://bot@db/x?password=Pw%2Ds3cret",
    ],
)
def test_every_form_of_the_password_is_taken_out_of_a_text(url):
    text = f"auth failed: {SECRET!r} / {url} / {url.replace('%2D', '%2d')}"  # decoded, as written, either case
    assert "s3cret" not in database_url.redact(text, url)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        (f"postgresql://bot:{SECRET}@x@db/x", "holds an '@'"),
        (f"postgresql://bot:{SECRET}@[::1/x", "not a readable URL"),
        (f"mysql://bot:{SECRET}@db/x", "postgresql:// URL"),
        (f"postgresql://bot:{SECRET}@/x", "names no host"),
    ],
)
def test_a_url_that_cannot_work_is_refused_without_quoting_it(url, words):
    with pytest.raises(SettingsError) as refused:
        load_settings(_env_file=None, discord_token="t", database_url=url)
    assert words in str(refused.value) and "s3cret" not in str(refused.value)
