"""The languages the bot speaks: its gettext catalogues (read through Babel), which one a Discord locale gets,
and the numbers, dates and times of each.

English is the source: every sentence is written in English in the code (``_("...")``, :mod:`solitaire.speech`)
and speaking English looks nothing up. German, French, Spanish and Brazilian Portuguese are catalogues in
``languages/locales``; any other Discord locale is answered in English, whole sentences at a time.
"""

from __future__ import annotations

from languages.catalogues import ENGLISH, LANGUAGES, Language, find, for_discord, speaking_language

__all__ = ["ENGLISH", "LANGUAGES", "Language", "find", "for_discord", "speaking_language"]
