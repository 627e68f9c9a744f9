"""Members in their own Discord languages on SimCord: each member's client locale, and the server's, on every
interaction they make (SimCord itself always says ``en-US``)."""

from __future__ import annotations

from typing import Any

import pytest
import simcord.interactions as simcord_interactions


class MemberLocales(dict[int, str]):
    """The Discord locale of each member's client, by user id (any other member: ``en-US``)."""


@pytest.fixture
def member_locales(monkeypatch: pytest.MonkeyPatch) -> MemberLocales:
    """Give each interaction its member's locale and its server's preferred locale, as Discord does."""
    locales = MemberLocales()
    base_payload = simcord_interactions.base_payload

    def localized(backend: Any, **kwargs: Any) -> Any:
        record, payload = base_payload(backend, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale or "en-US"
        return record, payload

    monkeypatch.setattr(simcord_interactions, "base_payload", localized)
    return locales
