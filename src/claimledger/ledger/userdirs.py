"""The user's own directories: where claimledger keeps what it made (caches) and what the
user allowed (trust), never inside a checkout.

What these directories hold is believed (the clones of documentation repositories that
`blame` reads, the commands a user trusted), so each is made for the user alone and
refused when another user owns it or anyone else may write to it. A repository can
plant files in its own tree; it cannot plant them here.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

APP = "claimledger"


def cache_directory(name: str) -> Path | None:
    """claimledger/NAME in $XDG_CACHE_HOME (else ~/.cache); None where none can be had."""
    return _private(_base("XDG_CACHE_HOME", ".cache") / APP / name)


def config_directory() -> Path | None:
    """claimledger in $XDG_CONFIG_HOME (else ~/.config); None where none can be had."""
    return _private(_base("XDG_CONFIG_HOME", ".config") / APP)


def _base(variable: str, fallback: str) -> Path:
    base = Path(os.environ.get(variable) or "")
    if base.is_absolute():  # unset, or relative (which the XDG spec says to ignore)
        return base
    return Path.home() / fallback


def _private(directory: Path) -> Path | None:
    """`directory`, made if need be, when it is the user's alone; else None."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        found = directory.lstat()
    except (OSError, RuntimeError):  # no home, a read-only one, a file in the way
        return None
    return directory if is_private(found) else None


def is_private(found: os.stat_result) -> bool:
    """A directory of this user's that no group or other user may write to or read."""
    mine = stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid()
    return mine and stat.S_IMODE(found.st_mode) & 0o077 == 0
