"""claimledger: keep a teardown's quoted evidence alive.

Refresh quotes from the documentation they were taken from, regrade the claims
that rest on them by explicit rules, and render the teardown report.
"""

from __future__ import annotations

__version__ = "0.1.0"
