"""The word dictionary the matcher reads lemmas from costs little memory and time.

simplemma can hold its English table as a Python dict (some 25 MiB more at the process's
peak) or read it from its compressed stream (a tenth of a second to index at each start).
claimledger has simplemma build a trie of the same table once, in the user's cache, and
reads that: the lemmas are the same (`test_lexicon.py` holds them), the peak grows by a
few MiB. Each test here runs in a cache directory of its own, in a new process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_runner import installed
from webserver import PageServer

GROWTH_ALLOWED_KIB = 12 * 1024  # the dict form grows the peak by about 25 MiB

MEASURE = """
import re
import simplemma  # the module itself costs the same in either form
from claimledger.reading.match.lexicon import is_word, lemma
from claimledger.services.lemmatable import use_trie
use_trie()  # as the command line does
def peak():
    status = open("/proc/self/status").read()
    return int(re.search(r"VmHWM:\\s*(\\d+) kB", status).group(1))
before = peak()
assert lemma("caught") == "catch" and is_word("guarantees") and not is_word("zqxv")
assert lemma("rarely") == "rare" and lemma("Replicas") == "replica"
print(peak() - before)
"""


def _first_lookups(cache: Path) -> int:
    """How much the first lookups grow a new process's peak (its VmHWM, KiB: ru_maxrss
    would start at the test runner's, since Linux keeps it across fork and exec)."""
    environment = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    measured = subprocess.run(
        [sys.executable, "-c", MEASURE], capture_output=True, text=True, check=True, env=environment
    )
    return int(measured.stdout)


def _tries(cache: Path) -> list[Path]:
    return sorted((cache / "claimledger" / "lemmas").glob("simplemma-*/en.dic"))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
def test_looking_up_words_reads_a_trie_built_once(tmp_path: Path) -> None:
    """The first command on a machine builds the trie (reading the whole table once);
    every later one reads it, and its peak grows by far less than the table would take."""
    _first_lookups(tmp_path)
    [trie] = _tries(tmp_path)
    built = trie.stat()
    growth = _first_lookups(tmp_path)
    assert growth < GROWTH_ALLOWED_KIB, f"the first lookups grew the peak by {growth} KiB"
    assert _tries(tmp_path) == [trie] and trie.stat().st_mtime_ns == built.st_mtime_ns


@pytest.mark.parametrize("kept", [b"", b"not a trie", "the first half"])
def test_a_damaged_trie_is_built_again(tmp_path: Path, kept: bytes | str) -> None:
    """A trie cut short (a full disk, a copy stopped) or overwritten is built again, and
    the lemmas are those of the table."""
    _first_lookups(tmp_path)
    [trie] = _tries(tmp_path)
    whole = trie.read_bytes()
    trie.write_bytes(whole[: len(whole) // 2] if isinstance(kept, str) else kept)
    _first_lookups(tmp_path)
    assert trie.read_bytes() == whole


def test_without_a_cache_directory_the_table_is_read_from_its_stream(tmp_path: Path) -> None:
    """Where no cache directory can be made (a file stands where it would go), the words
    are looked up all the same, and nothing is written."""
    blocked = tmp_path / "cache"
    blocked.write_text("a file, not a directory")
    _first_lookups(blocked)
    assert blocked.read_text() == "a file, not a directory"
    assert sorted(tmp_path.iterdir()) == [blocked]


def test_the_command_line_reads_its_lemmas_from_the_trie(
    tmp_path: Path, page_server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`claimledger verify` of a reworded sentence builds the trie and judges by it."""
    page_server.set_page("/doc", "<p>Every write is kept durably on three replicas.</p>")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    quote = "Each write is kept durably on three replicas."
    url = page_server.url("/doc")

    done = installed("verify", "--allow-private", url, quote, "--json", cwd=tmp_path, code=1)

    assert '"status": "drifted"' in done.stdout
    assert len(_tries(tmp_path / "cache")) == 1
