"""Small promises about what the tool writes: permissions, links and secrets."""

from __future__ import annotations

import os
from pathlib import Path

from claimledger.artifact import run_artifact
from claimledger.atomicfile import replace_atomically
from claimledger.ledger import Artifact
from claimledger.report.markup import author_markdown
from claimledger.urls import has_secrets, safe_url


def test_a_new_file_follows_the_umask_and_a_replaced_one_keeps_its_mode(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        replace_atomically(tmp_path / "new.md", b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "new.md").stat().st_mode & 0o777 == 0o600
    kept = tmp_path / "kept.md"
    kept.write_bytes(b"x")
    kept.chmod(0o640)
    replace_atomically(kept, b"y")
    assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_bytes() == b"y"


def test_an_author_link_with_parentheses_is_kept_as_written() -> None:
    link = "[p](https://en.wikipedia.org/wiki/Consistency_(database_systems))"
    assert str(author_markdown(link)) == link


def test_secrets_in_a_query_or_a_fragment_are_redacted() -> None:
    assert (
        safe_url("https://x.example/a?token=s3cr3t&q=1") == "https://x.example/a?token=REDACTED&q=1"
    )
    assert (
        safe_url("https://x.example/cb#access_token=abc")
        == "https://x.example/cb#access_token=REDACTED"
    )
    assert safe_url("https://me:pw@x.example/") == "https://x.example/"
    assert has_secrets("https://x.example/a?token=1") and not has_secrets("https://x.example/a?q=1")


def test_a_command_the_shell_cannot_find_is_no_evidence(tmp_path: Path) -> None:
    outcome = run_artifact(
        "toy", Artifact(run="no-such-tool-claimledger-xyz", expect="", shell=True), tmp_path
    )
    assert not outcome.ran and not outcome.matched
    direct = run_artifact(
        "toy", Artifact(run=("no-such-tool-claimledger-xyz",), expect=""), tmp_path
    )
    assert not direct.ran
