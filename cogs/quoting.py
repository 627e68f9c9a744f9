"""Names quoted in the bot's messages: a server's, a member's, a role's or a channel's, as written by anyone.

Every name a message shows goes through :func:`quoted`, so a name made of Markdown (a masked link, bold,
a heading) or a mention shows as the text it is, never as a live link or a ping.
"""

from __future__ import annotations

from discord.utils import escape_markdown, escape_mentions


def quoted(name: str) -> str:
    """Return ``name`` with its Markdown and mentions escaped, to show as written.

    >>> quoted("[Solitaire Club](https://phish.example/login)")
    '\\\\[Solitaire Club](https://phish.example/login)'
    >>> quoted("**@everyone**")
    '\\\\*\\\\*@\\u200beveryone\\\\*\\\\*'
    """
    return escape_mentions(escape_markdown(name))
