"""The ledger cache: the commands after the first on the same bytes skip reading and
checking the YAML; a byte changed, a claimledger upgraded or a damaged cache reads and
checks the ledger in full. It lives in the user's own cache, never in the checkout: a
cache file a repository commits is never read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimledger.ledger import cache as ledgercache
from cli_runner import Cli
from evidence_site import page
from webserver import PageServer

LEDGER = """\
ledger: 1
title: Cached
date_read: 2026-08-23
sections:
  - id: s
    title: S
sources:
  docs:
    url: https://docs.example/a
    title: D
    kind: docs
    publisher: vendor
claims:
  - id: only
    section: s
    title: Only
    kind: guarantee
    statement: S.
    quotes:
      - text: one quote on one page
        sources:
          - docs
    grades:
      - on: wording
        grade: CLAIMED
        basis: quotes
"""


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER, encoding="utf-8")
    (tmp_path / "out").mkdir()
    return Cli(ledger)


def cache_of(cli: Cli) -> Path:
    found = ledgercache.cache_file(cli.ledger)
    assert found is not None
    return found


def rename_cached(cli: Cli, claim_id: str) -> None:
    """Rename the claim in the cached data only: a command that shows it read the cache."""
    key, _, body = cache_of(cli).read_text(encoding="utf-8").partition("\n")
    data = json.loads(body)
    data["claims"][0]["id"] = claim_id
    cache_of(cli).write_text(f"{key}\n{json.dumps(data)}", encoding="utf-8")


def claims_seen(cli: Cli) -> list[str]:
    seen: list[str] = cli.json("status")["unchecked_claims"]
    return seen


def test_a_sound_ledger_is_kept_and_the_next_command_reads_it_from_the_cache(cli: Cli) -> None:
    cli("check")
    assert cache_of(cli).read_text(encoding="utf-8").startswith(ledgercache._key(LEDGER))
    rename_cached(cli, "from-cache")
    assert claims_seen(cli) == ["from-cache"]


def test_a_byte_changed_misses_and_the_ledger_is_checked_in_full(cli: Cli) -> None:
    cli("check")
    rename_cached(cli, "from-cache")
    cli.ledger.write_text(LEDGER.replace("grade: CLAIMED", "grade: CLAIMD"), encoding="utf-8")
    result = cli("check", code=2)
    assert "CLAIMD" in result.stderr and "claims.yaml:" in result.stderr
    cli.ledger.write_text(LEDGER.replace("id: only", "id: edited"), encoding="utf-8")
    assert claims_seen(cli) == ["edited"]


def test_another_version_of_claimledger_misses(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    cli("check")
    rename_cached(cli, "from-cache")
    monkeypatch.setattr(ledgercache, "__version__", "99.0")
    assert claims_seen(cli) == ["only"]
    assert cache_of(cli).read_text(encoding="utf-8").startswith("99.0:")


@pytest.mark.parametrize("damage", [b"", b"\xff\xfe", b"not a key\n{}", b"KEY\n[1, 2", b"KEY\n[]"])
def test_a_damaged_cache_is_read_past(cli: Cli, damage: bytes) -> None:
    cache_of(cli).write_bytes(damage.replace(b"KEY", ledgercache._key(LEDGER).encode()))
    assert claims_seen(cli) == ["only"]
    assert cache_of(cli).read_text(encoding="utf-8").startswith(ledgercache._key(LEDGER))


def test_nothing_is_written_in_the_checkout_for_the_cache(tmp_path: Path) -> None:
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER, encoding="utf-8")
    Cli(ledger)("check")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["claims.yaml"]
    assert cache_of(Cli(ledger)).is_file()


HIDDEN = LEDGER.replace("id: only", "id: hidden").replace(
    "    grades:\n",
    "    artifact:\n      run: [sh, -c, 'touch ran']\n      expect: ''\n    grades:\n",
)


@pytest.mark.parametrize("name", ["ledger-cache.json", "ledger_cache.json"])
def test_a_cache_file_committed_to_the_checkout_is_never_believed(
    tmp_path: Path, name: str
) -> None:
    """The attack: a repository commits a cache keyed by this version and the hash of its
    harmless claims.yaml, whose body is another ledger with an artifact. The ledger on
    disk is what every command reads, and nothing runs."""
    from claimledger.ledger.model import read

    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER, encoding="utf-8")
    _, hidden = read(HIDDEN, "hidden.yaml")
    assert hidden is not None and hidden["claims"][0]["artifact"]
    planted = f"{ledgercache._key(LEDGER)}\n{json.dumps(hidden)}"
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / name).write_text(planted, encoding="utf-8")
    cli = Cli(ledger)
    assert "ok: 1 claim" in cli("check").stdout
    assert claims_seen(cli) == ["only"]
    cli("regrade", "--allow-artifacts", code=0)
    assert not (tmp_path / "ran").exists()


def test_a_cache_directory_another_may_write_to_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "shared"))
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER, encoding="utf-8")
    cli = Cli(ledger)
    cli("check")
    kept = cache_of(cli)
    kept.parent.chmod(0o777)  # now anyone's
    assert ledgercache.cache_file(ledger) is None
    cli("check")
    kept.write_text("planted", encoding="utf-8")
    assert claims_seen(cli) == ["only"]
    assert kept.read_text(encoding="utf-8") == "planted"  # neither read nor rewritten


def test_a_ledger_with_a_problem_is_never_kept(cli: Cli) -> None:
    cli.ledger.write_text(
        LEDGER.replace("sources:\n          - docs", "sources:\n          - nope"), encoding="utf-8"
    )
    cli("check", code=2)
    assert not cache_of(cli).exists()


def test_a_first_refresh_keeps_the_ledger_it_read_for_the_command_after_it(
    tmp_path: Path, page_server: PageServer
) -> None:
    page_server.set_page("/a", page("Here is one quote on one page, as read."))
    text = LEDGER.replace("https://docs.example/a", page_server.url("/a"))
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(text, encoding="utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", code=0)
    assert cache_of(cli).read_text(encoding="utf-8").startswith(ledgercache._key(text))
    rename_cached(cli, "from-cache")
    assert claims_seen(cli) == ["from-cache"]


def test_a_refresh_of_a_ledger_with_a_problem_makes_no_out_directory(tmp_path: Path) -> None:
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.replace("grade: CLAIMED", "grade: CLAIMD"), encoding="utf-8")
    Cli(ledger)("refresh", code=2)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["claims.yaml"]
