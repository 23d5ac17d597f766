"""Gathering evidence: the refresh and its after-steps (as-read check, recovery, saving),
the web archive and the evidence store."""
