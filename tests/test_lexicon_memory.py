"""The word dictionary the matcher reads lemmas from costs little memory.

simplemma can hold its English table as a Python dict (some 25 MiB more at the process's
peak) or read it from its compressed stream as words are asked (some 3 MiB); the lemmas
are the same. A refresh asks for lemmas while it holds the ledger and its pages, so the
table's size adds to the refresh's peak: the lookups use the frugal form.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

GROWTH_ALLOWED_KIB = 12 * 1024  # the dict form grows the peak by about 25 MiB

MEASURE = """
import re
import simplemma  # the module itself costs the same in either form
from claimledger.reading.match.lexicon import is_word, lemma
def peak():
    status = open("/proc/self/status").read()
    return int(re.search(r"VmHWM:\\s*(\\d+) kB", status).group(1))
before = peak()
assert lemma("caught") == "catch" and is_word("guarantees")
print(peak() - before)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
def test_looking_up_words_does_not_load_the_whole_table() -> None:
    """The peak grows by far less than the whole table would take. The peak is the
    process's own high-water mark (VmHWM, KiB): ru_maxrss would start at the test
    runner's, since Linux keeps it across fork and exec."""
    measured = subprocess.run(
        [sys.executable, "-c", MEASURE], capture_output=True, text=True, check=True
    )
    growth = int(measured.stdout)
    assert growth < GROWTH_ALLOWED_KIB, f"the first lookups grew the peak by {growth} KiB"
