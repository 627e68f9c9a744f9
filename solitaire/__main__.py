"""Run the command line: ``python -m solitaire``."""

from solitaire.cli import main

raise SystemExit(main())
