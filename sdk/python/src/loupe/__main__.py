"""``python -m loupe …`` runs the command line (see loupe.cli)."""

from .cli import main

raise SystemExit(main())
