"""The word dictionary the matcher reads lemmas from costs little memory and time.

simplemma can hold its English table as a Python dict (some 25 MiB more at the process's
peak) or read it from its compressed stream (a tenth of a second to index at each start).
claimledger builds a trie of the same table once, in the user's cache, and maps it: the
lemmas are the same (`test_the_trie_holds_simplemma_s_table`), the peak grows by a few
MiB. The tests that start commands give each a cache directory of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
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
        [sys.executable, "-c", MEASURE],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
        timeout=120,  # a reader blocked on a planted pipe fails the test, not the run
    )
    assert measured.stderr == ""
    return int(measured.stdout)


def _tries(cache: Path) -> list[Path]:
    return sorted((cache / "claimledger" / "lemmas").glob("*.trie"))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
def test_looking_up_words_maps_a_trie_built_once(tmp_path: Path) -> None:
    """The first command on a machine builds the trie (reading the whole table once);
    every later one maps it, and its peak grows by far less than the table would take."""
    _first_lookups(tmp_path)
    [trie] = _tries(tmp_path)
    built = trie.stat()
    growth = _first_lookups(tmp_path)
    assert growth < GROWTH_ALLOWED_KIB, f"the first lookups grew the peak by {growth} KiB"
    assert _tries(tmp_path) == [trie] and trie.stat().st_mtime_ns == built.st_mtime_ns


def _flipped(whole: bytes) -> bytes:
    """The trie with one bit of its middle flipped: it may still load, with wrong lemmas."""
    middle = len(whole) // 2
    return whole[:middle] + bytes([whole[middle] ^ 0x10]) + whole[middle + 1 :]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
@pytest.mark.parametrize(
    "damage",
    [
        lambda whole: b"",
        lambda whole: b"not a trie",
        lambda whole: whole[: len(whole) // 2],
        _flipped,
    ],
    ids=["emptied", "overwritten", "cut short", "one bit flipped"],
)
def test_a_damaged_trie_is_built_again(tmp_path: Path, damage: Callable[[bytes], bytes]) -> None:
    """A trie cut short (a full disk, a copy stopped), overwritten or with a bit flipped is
    not believed (its digest is at its head): it is built again, and the lemmas are those
    of the table."""
    _first_lookups(tmp_path)
    [trie] = _tries(tmp_path)
    whole = trie.read_bytes()
    trie.write_bytes(damage(whole))
    _first_lookups(tmp_path)
    assert trie.read_bytes() == whole


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
@pytest.mark.parametrize("planted", ["directory", "named pipe", "link"])
@pytest.mark.parametrize("where", ["trie", "digest"])
def test_what_is_not_the_trie_file_is_never_read(tmp_path: Path, planted: str, where: str) -> None:
    """A directory, a named pipe (which would block a reader for good) or a link where the
    trie or its digest goes is not read: the words are looked up all the same, the file
    is written again where it can be (the link itself replaced, never its target), and a
    directory is left as it is."""
    _first_lookups(tmp_path)
    [trie] = _tries(tmp_path)
    if where == "digest":
        trie = trie.with_name(f"{trie.name}.sha256")
    elsewhere = tmp_path / "elsewhere.trie"
    trie.rename(elsewhere)
    kept = elsewhere.read_bytes()
    if planted == "directory":
        trie.mkdir()
    elif planted == "named pipe":
        os.mkfifo(trie)
    else:
        elsewhere.write_bytes(b"what the link points at")
        trie.symlink_to(elsewhere)

    _first_lookups(tmp_path)

    if planted == "directory":
        assert trie.is_dir()
    else:
        assert not trie.is_symlink() and trie.read_bytes() == kept
    if planted == "link":
        assert elsewhere.read_bytes() == b"what the link points at"


def test_the_trie_holds_simplemma_s_table() -> None:
    """Every 40th word of simplemma's table, and words it does not know, read the same
    from the trie as from simplemma's own compressed stream."""
    from simplemma.strategies.dictionaries import StreamDictionaryFactory

    from claimledger.services.lemmatable import TrieTable, _built

    stream = StreamDictionaryFactory().get_dictionary("en")
    trie = TrieTable(_built()).get_dictionary("en")
    words = [*list(stream)[::40], "zqxvbn", "Replicas", "caught", "stubbing", ""]
    assert [trie.get(word) for word in words] == [stream.get(word) for word in words]
    assert len(trie) == len(stream)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
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
