"""`explain` says what the docs' history says of each quote by its number (a claim with
two quotes: which one changed?), and leaves out what `blame` kept of a quote the page
still says as written (its history is no news: the check says it). A real git repository
and a real loopback page, made here."""

from __future__ import annotations

from pathlib import Path

from cli_runner import Cli
from evidence_site import page
from test_blame import NEW, OLD, PATH, commit, git
from test_history_unread import LEDGER
from webserver import PageServer

KEPT = "Reads are served by the leader unless the client asks otherwise."


def test_explain_names_the_quote_each_history_is_of_and_leaves_out_the_verified(
    tmp_path: Path, page_server: PageServer
) -> None:
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    held = commit(repo, PATH, f"# Durability\n\n{KEPT}\n\n{OLD}\n", "Add it", "2026-01-05T10:00")
    text = f"# Durability\n\n{KEPT}\n\n{NEW}\n"
    reworded = commit(repo, PATH, text, "Soften it (#12)", "2026-05-15T10:00")
    page_server.set_page("/durability", page(KEPT, NEW))
    ledger = tmp_path / "work" / "claims.yaml"
    ledger.parent.mkdir()
    written = LEDGER.format(url=page_server.url("/durability"), path=PATH, quote=KEPT)
    second = f'      - {{text: "{OLD}", sources: [guide]}}\n'
    ledger.write_text(written.replace("    grades:\n", f"{second}    grades:\n"), "utf-8")
    cli = Cli(ledger)
    cli("trust")
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)
    cli("blame", "durable")  # both quotes: the first, still on the page, kept as well

    said = [line for line in cli("explain", "durable").stdout.splitlines() if "history" in line]
    told = cli.json("explain", "durable")["histories"]

    assert said == [
        f"in the docs' history ({PATH}): quote 2 on guide: changed on 2026-05-15 in “Soften "
        f"it (#12)”, commit {reworded[:7]} (last held in {held[:7]})"
    ]
    assert sorted(h["quote_text"] for h in told) == sorted([KEPT, OLD])  # all it kept
