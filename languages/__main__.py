"""``python -m languages extract|update|check``: the catalogues' loop.

- ``extract``: read every sentence of the code (``_``, ``n_``, ``N_``; see ``languages/babel.cfg``) and of the slash
  commands into ``languages/locales/messages.pot``, the English source.
- ``update``: bring each language's ``messages.po`` up to the source: new sentences added untranslated, gone
  ones dropped.
- ``check``: fail (exit 1, naming each) when the source is out of date, a language misses a sentence, keeps a
  stale one, or a translation's ``{fields}`` or Discord markup differ from the source's. The test command runs it.
"""

from __future__ import annotations

import sys

from languages.tool import check, extract, update


def main(argv: list[str] | None = None) -> int:
    """Run one step; return the exit code."""
    steps = {"extract": extract, "update": update, "check": check}
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in steps:
        print(f"usage: python -m languages {'|'.join(steps)}", file=sys.stderr)
        return 2
    return steps[args[0]]()


if __name__ == "__main__":
    raise SystemExit(main())
