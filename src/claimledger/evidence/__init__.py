"""Gathering evidence: the refresh and its after-steps (as-read check, recovery, saving),
the page readers' pool, the web archive and the evidence store."""
