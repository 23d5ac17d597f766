"""A snapshot's text as the store keeps it: zlib-compressed, and read back no further
than the size it was kept with."""

from __future__ import annotations

import zlib

SNAPSHOT_LEVEL = 1
"""zlib's fastest level: a fifth of the time of level 6 for snapshots a quarter larger;
a refresh compresses every new page, a reader decompresses the few it shows."""


MOST_SNAPSHOT_CHARACTERS = 64 * 1024 * 1024
"""No page's text is longer (a body is cut at 32 MB decompressed): a snapshot said to be
is a store someone else made, not one of ours."""


def inflated(compressed: bytes, size: int) -> str:
    """A snapshot's text, inflated no further than the `size` it was stored with (in
    characters, four bytes at most each): a store from elsewhere may hold a zlib bomb, and
    300 MB of one took 3 s and a gigabyte of memory to print."""
    if not isinstance(size, int) or not 0 <= size <= MOST_SNAPSHOT_CHARACTERS:
        raise ValueError(f"a size of {size!r} characters")
    inflater = zlib.decompressobj()
    data = inflater.decompress(compressed, 4 * size + 1)
    text = data.decode("utf-8")
    if inflater.unconsumed_tail or len(text) != size:
        raise ValueError(f"its text is not the {size} characters it was stored with")
    return text


def snapshot_zlib(text: str) -> bytes:
    """A snapshot's text as the store keeps it."""
    return zlib.compress(text.encode("utf-8"), SNAPSHOT_LEVEL)
