"""What reading a ledger yields, whichever reader read it: plain data, and where each
value sits in the text.

Apart from `safeyaml`, so that what only needs these (the model, the checks of meaning)
loads no YAML library.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

Path_ = tuple[str | int, ...]
"""Where a value sits in the document: keys and list indexes from the root."""


@dataclass
class Located:
    """A document as plain data, plus the position of each value and each key."""

    data: Any
    values: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    tree: yaml.Node | None = None
    """The node tree it was read from: its marks index the text's characters."""

    def where(self, path: Path_, *, key: bool = False) -> tuple[int, int]:
        """Position of the value at `path` (or its key), else of its nearest ancestor."""
        table = self.keys if key else self.values
        probe = path
        while probe:
            if probe in table:
                return table[probe]
            if probe in self.values:
                return self.values[probe]
            probe = probe[:-1]
        return self.values.get((), (1, 1))


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a ledger is read (or a command works on what it
    read): reading makes hundreds of thousands of containers and frees none, and each
    collection would walk them all again. Plain data holds no cycle; the collector runs
    again as soon as the work is done, and finds whatever it would have found (what was
    made meanwhile joins the oldest generation rather than being walked at once)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:  # (never thaw what someone else froze)
                gc.freeze()  # what was made meanwhile goes to the oldest generation,
                gc.unfreeze()  # unwalked: the next full collection walks it, as ever
            gc.enable()
