"""What `refresh` prints of its after-steps (`claimledger.evidence.service` runs them):
each search for a source that went (`relocate.py`) and, with `--save`, what the web
archive said of each page it was asked to snapshot (`preserve.py`); and their options.
Neither step changes the refresh's exit status.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the core loads where a command uses it
    pass


# --------------------------------------------------------------------------- options

Save = Annotated[
    bool,
    typer.Option(
        "--save",
        help="Then ask the web archive to snapshot each page read (Save Page Now), and "
        "keep the snapshot's address; off by default.",
    ),
]
Recover = Annotated[
    bool,
    typer.Option(
        "--recover/--no-recover",
        help="Look for each source that went (404/410, or an empty page) on its site's "
        "sitemap, and propose the page that carries its quotes (default: on).",
        show_default=False,
    ),
]
RecoverCandidates = Annotated[
    int | None,
    typer.Option(
        "--recover-candidates",
        metavar="N",
        help="Pages of the sitemap read at most for each source that went (default 5; "
        "recover_candidates in claimledger.toml).",
        show_default=False,
    ),
]
Archive = Annotated[
    str | None,
    typer.Option(
        "--archive",
        metavar="URL",
        help="The web archive's base URL (default https://web.archive.org; archive in "
        "claimledger.toml).",
        show_default=False,
    ),
]
"""The web archive's base URL, as `archive.archive_settings` reads it (with the
`archive` setting of claimledger.toml): one option for every part of a refresh that asks
the archive (--save here; the as-read check may take it too)."""
