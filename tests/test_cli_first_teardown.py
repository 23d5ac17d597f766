"""A new user's first teardown, as they type it: what each command tells them after a page
of theirs moved, and how a typed grade is read.

The real CLI, in-process, against a real loopback server (`PageServer`): every fetch a real
HTTP request, every ledger a real file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_runner import Cli
from evidence_site import write_ledger
from webserver import PageServer


@pytest.fixture
def cli(tmp_path: Path, page_server: PageServer) -> Cli:
    return Cli(write_ledger(tmp_path, page_server))


@pytest.mark.parametrize("typed", ["unknown", "Unknown", "UNKNOWN"])
def test_claims_takes_a_grade_in_any_case_as_grade_and_add_do(cli: Cli, typed: str) -> None:
    """`grade durable unknown` is taken; `claims --grade unknown` lists what it graded."""
    listed = cli("claims", "--grade", typed, "--plain").stdout.splitlines()
    assert [line.split("\t")[0] for line in listed[1:]] == ["durable"]


def test_claims_says_which_grade_a_mistyped_one_meant(cli: Cli) -> None:
    said = cli("claims", "--grade", "DEMONSTRATD", code=2).stderr
    assert said.count("\n") == 1
    assert "did you mean 'DEMONSTRATED'?" in said
