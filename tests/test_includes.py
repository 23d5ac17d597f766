"""The partials a docs file pulls in, by each generator's plain convention: found,
resolved inside the repository, and expanded where the page shows them."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimledger.reading.includes import Include, expanded, includes_of
from cli_runner import Cli
from evidence_site import page
from test_blame import LEDGER, NEW, OLD, commit, git
from webserver import PageServer


@pytest.mark.parametrize(
    ("text", "path", "paths"),
    [
        ("import N from './_note.mdx';\n<N />\n", "docs/a.mdx", ("docs/_note.mdx", "_note.mdx")),
        (".. include:: ../shared/limits.rst\n", "docs/ops/a.rst", ("docs/shared/limits.rst",)),
        ("include::partial$keep.adoc[]\n", "m/ops/pages/a.adoc", ("m/ops/partials/keep.adoc",)),
        ("include::ROOT:partial$k.adoc[]\n", "m/ops/pages/a.adoc", ("m/ROOT/partials/k.adoc",)),
        ("include::partial$keep.adoc[]\n", "docs/a.adoc", ()),
        ("include::_keep.adoc[leveloffset=+1]\n", "m/a.adoc", ("m/_keep.adoc", "_keep.adoc")),
        ('{{< include "/shared/ack.md" >}}\n', "c/a.md", ("shared/ack.md", "c/shared/ack.md")),
        ('{{% readfile file="ack.md" %}}\n', "content/a.md", ("content/ack.md", "ack.md")),
        ('--8<-- "includes/ack.md"\n', "docs/a.md", ("docs/includes/ack.md", "includes/ack.md")),
        ('{{< include "https://example.com/x.md" >}}\n', "a.md", ()),
        (".. include:: ../../../etc/passwd\n", "docs/a.rst", ()),
    ],
)
def test_each_convention_names_the_partial_it_pulls_in(
    text: str, path: str, paths: tuple[str, ...]
) -> None:
    found = includes_of(text, path)
    assert tuple(p for include in found for p in include.paths) == paths


def test_a_shortcode_reads_its_parameters_within_a_thousand_characters() -> None:
    """10,000 Hugo shortcodes never closed, then one closed: each unclosed one once
    scanned the rest of the file for its end (200 KB took 13 s). A shortcode's path and
    parameters are read within 1,000 characters each, so only the last few reach the
    close, and the one found is read no further back than that."""
    text = '{{< include "a.md" x\n' * 10_000 + '{{< include "b.md" lang="go" >}}\n'
    (found,) = includes_of(text, "c/x.md")
    assert found.written.endswith('{{< include "b.md" lang="go" >}}')
    assert len(found.written) <= 1_000 + len('{{< include "a.md" ')


def test_a_partial_stands_where_its_component_is_used_and_the_import_goes() -> None:
    text = "import Ack from './_ack.mdx';\n\n# Durability\n\n<Ack />\n\nMore.\n"
    found = includes_of(text, "docs/durability.mdx")
    shown = expanded(text, found, {"docs/_ack.mdx": r"Writes are kept \1 durable."})
    assert shown == "\n\n# Durability\n\nWrites are kept \\1 durable.\n\nMore.\n"


def test_an_include_whose_partial_is_missing_stays_as_written() -> None:
    include = Include(".. include:: gone.rst", ("gone.rst",))
    assert expanded("A.\n.. include:: gone.rst\n", [include], {}) == "A.\n.. include:: gone.rst\n"


def test_blame_follows_a_sentence_into_the_partial_the_page_imports(
    tmp_path: Path, page_server: PageServer
) -> None:
    """The sentence lives in a snippet the page imports; the snippet is reworded in a
    commit that never touches the page's own file: blame names that commit."""
    repo = tmp_path / "docs-repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    main = "docs/durability.mdx"
    written = commit(
        repo, main, "import Ack from './_ack.mdx';\n\n# Durability\n\n<Ack />\n",
        "Add the guide", "2026-01-05T10:00",
    )  # fmt: skip
    commit(repo, "docs/_ack.mdx", f"{OLD}\n", "Add the snippet", "2026-01-06T10:00")
    held = git(repo, "rev-parse", "HEAD")
    commit(repo, "docs/other.md", "Unrelated.\n", "Other page", "2026-02-01T10:00")
    reworded = commit(repo, "docs/_ack.mdx", f"{NEW}\n", "Soften it (#12)", "2026-05-15T10:00")
    assert written != held

    page_server.set_page("/durability", page(NEW))
    ledger = tmp_path / "ledger" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)
    (row,) = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", main)["quotes"]

    found = row["found"]
    assert (found["last_held_in"]["sha"], found["dropped_in"]["sha"]) == (held, reworded)
    assert found["dropped_in"]["pull_request"] == 12
    assert found["dropped_in"]["path"] == main
    assert found["current_wording_since"]["sha"] == reworded


@pytest.mark.parametrize(
    ("text", "path", "partial"),
    [
        (
            "T\r\n\r\n.. include:: _p.rst\r\n   :start-after: start-x\r\n   :literal:\r\n",
            "docs/a.rst",
            "docs/_p.rst",
        ),
        ("import P from './_p.mdx';\r\n\r\n<P />\r\n", "docs/a.mdx", "docs/_p.mdx"),
        ("include::_p.adoc[]\r\n", "docs/a.adoc", "docs/_p.adoc"),
        ('--8<-- "_p.md"\r\n', "docs/a.md", "docs/_p.md"),
    ],
)
def test_a_file_with_windows_line_ends_pulls_in_its_partials(
    text: str, path: str, partial: str
) -> None:
    """A file saved with CRLF line ends (as an editor on Windows keeps it) pulls its
    partials in as one with LF does, a Sphinx include cut by its options."""
    found = includes_of(text, path)
    shown = expanded(text, found, {partial: "Hidden.\r\n.. start-x\r\nShown.\r\n"})
    assert "Shown." in shown
    assert ("Hidden." in shown) is not path.endswith(".rst")  # cut by :start-after: alone
    assert "_p." not in shown and ":literal:" not in shown
