"""Let `python -m claimledger` run the command line."""

from __future__ import annotations

from claimledger.cli import main

main()
