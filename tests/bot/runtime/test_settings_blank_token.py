import pytest

from bot.runtime.settings import SettingsError, load_settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here


@pytest.mark.parametrize("token", ["", "   ", "\t\n"])
def test_a_blank_or_whitespace_token_is_not_set(token, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", token)
    with pytest.raises(SettingsError, match="^DISCORD_TOKEN is not set"):
        load_settings()


def test_spaces_around_a_token_are_dropped():
    assert load_settings(discord_token="  abc.def  ").discord_token.get_secret_value() == "abc.def"
