"""How a page is read and judged, as every fetch and check names it (its `recipe`): the
extractor's and the matcher's versions, then the reading itself (in a browser or not,
through which selector). A check says something of a quote only as its source is read
now: one made through another selector, or with or without the page's scripts run,
read other text.
"""

from __future__ import annotations

from claimledger import versions

_VERSIONS = ("extract ", "match ")


def recipe(select: str | None, *, browser: bool = False) -> str:
    """How a page is read and judged: the extractor, the matcher, the reading.

    Stored with every fetch and check. A snapshot or a verdict made another way is not
    reused: a new selector, a browser, or a newer matcher reads the page afresh.
    """
    return f"extract {versions.EXTRACT}; match {versions.MATCH}; {reading(select, browser)}"


def reading(select: str | None, browser: bool = False) -> str:
    """The part of a recipe that says what text was read: a page read as sent keeps the
    form recipes had before browsers, so its earlier checks still say how it was read."""
    through = f"select {select or ''}"
    return f"render browser; {through}" if browser else through


def reading_of(recipe: str) -> str | None:
    """The reading a recipe names: the plain one for a check recorded before recipes were
    (a source read through a selector or a browser needs a check that says so), None for
    one that read no page (a repository's file)."""
    if not recipe:
        return reading(None)
    parts = recipe.split("; ", 2)
    if len(parts) < 3 or any(not p.startswith(v) for p, v in zip(parts, _VERSIONS, strict=False)):
        return None
    return parts[2]


def source_readings(select: str | None, browser: bool, *, archived: bool = False) -> frozenset[str]:
    """The readings a check of a source may name to count for its page as the ledger reads
    it now: through its `select`; in a browser where it says `render: browser` (`browser`:
    the page as sent may lack what its scripts write), in a browser or not where it does
    not (a run the user asked to read in a browser, `refresh --browser`, read the page as
    a reader sees it). An archived copy is always read as sent: the archive keeps what
    the server sent."""
    if browser and not archived:
        return frozenset({reading(select, browser=True)})
    if archived:
        return frozenset({reading(select)})
    return frozenset({reading(select), reading(select, browser=True)})
