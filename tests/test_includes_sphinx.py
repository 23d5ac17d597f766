"""A Sphinx page's `.. include:: /includes/x.rst` is read from the source folder, not the
repository's root (minio/docs keeps its pages under `source/` and its partials in
`source/includes/`): the partial is followed there. A real git repository, made here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from claimledger.reading.includes import expanded, includes_of
from cli_runner import Cli
from evidence_site import page
from test_blame import LEDGER, NEW, OLD, commit, git
from webserver import PageServer

PAGE = "source/reference/iam/ldap.rst"


def test_an_include_from_the_source_folder_names_the_partial_under_it() -> None:
    (found,) = includes_of(".. include:: /includes/common.rst\n", PAGE)
    assert "source/includes/common.rst" in found.paths
    assert found.paths[0] == "includes/common.rst"  # the root still first


def test_blame_follows_a_sentence_into_a_partial_of_the_source_folder(
    tmp_path: Path, page_server: PageServer
) -> None:
    repo = tmp_path / "docs-repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "source/conf.py", "project = 'x'\n", "Add Sphinx", "2026-01-04T10:00")
    commit(
        repo, PAGE, "LDAP\n====\n\n.. include:: /includes/common.rst\n", "Add the page",
        "2026-01-05T10:00",
    )  # fmt: skip
    held = commit(repo, "source/includes/common.rst", f"{OLD}\n", "Add it", "2026-01-06T10:00")
    reworded = commit(
        repo, "source/includes/common.rst", f"{NEW}\n", "Soften it (#12)", "2026-05-15T10:00"
    )
    page_server.set_page("/ldap", page(NEW))
    ledger = tmp_path / "ledger" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/ldap"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    (row,) = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", PAGE)["quotes"]

    found = row["found"]
    assert (found["last_held_in"]["sha"], found["dropped_in"]["sha"]) == (held, reworded)
    assert found["dropped_in"]["pull_request"] == 12


COMMON = """\
.. start-quorum-desc

{shown}

.. end-quorum-desc

.. start-erasure-desc

{hidden}

.. end-erasure-desc
"""


def test_an_include_in_a_list_tables_cell_is_followed_with_its_options() -> None:
    """minio's command pages pull each subcommand's description into a list-table cell."""
    table = (
        ".. list-table::\n\n   * - :mc:`mc alias list`\n"
        "     - .. include:: /includes/common.rst\n"
        "          :start-after: start-quorum-desc\n"
        "          :end-before: end-quorum-desc\n"
    )
    partial = COMMON.format(shown="Shown.", hidden="Hidden.")
    page_text = expanded(table, includes_of(table, PAGE), {"includes/common.rst": partial})
    assert "Shown." in page_text and "Hidden." not in page_text


def _shown(directive: str, partial: str) -> str:
    """The page as it reads with the partial pulled in by `directive`."""
    text = f"Title\n=====\n\n{directive}\n\nAfter.\n"
    return expanded(text, includes_of(text, PAGE), {"includes/common.rst": partial})


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        (":start-after: start-quorum-desc\n   :end-before: end-quorum-desc", ["Shown."]),
        (":start-after: start-erasure-desc", ["Hidden."]),
        (":end-before: end-quorum-desc", ["Shown."]),
        (":start-line: 2\n   :end-line: 3", ["Shown."]),
        (":start-line: -4", ["Hidden."]),
        (":start-after: start-gone-desc", []),  # a marker not found: the build shows none
        (":start-line: two", []),
    ],
)
def test_an_include_shows_only_the_part_its_options_name(options: str, shown: list[str]) -> None:
    page_text = _shown(
        f".. include:: /includes/common.rst\n   {options}",
        COMMON.format(shown="Shown.", hidden="Hidden."),
    )
    assert [words for words in ("Shown.", "Hidden.") if words in page_text] == shown
    assert ":start" not in page_text and ":end" not in page_text  # the options went with it


@pytest.mark.parametrize(
    ("options", "lines"),
    [
        (":lines: 2,4-5", ["b", "d", "e"]),
        (":lines: -2", ["a", "b"]),
        (":lines: 5-", ["e", "f"]),
        (":lines: 1-9999999999", ["a", "b", "c", "d", "e", "f"]),
        (":start-after: b\n   :end-before: e", ["c", "d"]),
        (":start-at: b\n   :end-at: d", ["b", "c", "d"]),
        (":start-at: c\n   :end-before: c", []),  # not its first line: none after it
        (":start-after: b\n   :lines: 2-3", ["d", "e"]),  # the lines of the part
        (":lines: 3-1", []),
        (":end-at: z", []),
    ],
)
def test_a_literalinclude_shows_only_the_lines_its_options_name(
    options: str, lines: list[str]
) -> None:
    directive = f".. literalinclude:: /includes/common.rst\n   {options}"
    page_text = _shown(directive, "a\nb\nc\nd\ne\nf\n")
    body = page_text.removeprefix("Title\n=====\n\n").removesuffix("\n\nAfter.\n")
    assert body.splitlines() == lines


def test_blame_reads_only_the_part_of_the_partial_the_page_shows(
    tmp_path: Path, page_server: PageServer
) -> None:
    """minio's pages pull one snippet each out of a shared file, between two marker
    comments. The page's snippet was reworded; another snippet of the same file, on
    another page, still says the old words: the page's history names the rewording, not
    "still held" (the whole file was read as the page, the other snippet with it)."""
    repo = tmp_path / "docs-repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "source/conf.py", "project = 'x'\n", "Add Sphinx", "2026-01-04T10:00")
    include = (
        ".. include:: /includes/common.rst\n"
        "   :start-after: start-quorum-desc\n"
        "   :end-before: end-quorum-desc\n"
    )
    commit(repo, PAGE, f"LDAP\n====\n\n{include}", "Add the page", "2026-01-05T10:00")
    partial = "source/includes/common.rst"
    held = commit(repo, partial, COMMON.format(shown=OLD, hidden=OLD), "Add it", "2026-01-06T10:00")
    reworded = commit(
        repo, partial, COMMON.format(shown=NEW, hidden=OLD), "Soften it (#12)", "2026-05-15T10:00"
    )
    page_server.set_page("/ldap", page(NEW))
    ledger = tmp_path / "ledger" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/ldap"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    (row,) = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", PAGE)["quotes"]

    found = row["found"]
    assert found["last_held_in"]["sha"] == held
    assert found["dropped_in"]["sha"] == reworded


SNIPPETS = """\
.. start-a

Snippet A.

.. end-a

.. start-ab

Snippet AB.

.. end-ab
"""


@pytest.mark.parametrize(
    ("first", "second", "shown"),
    [
        ("", "\n   :start-after: start-ab\n   :end-before: end-ab", ["A", "AB", "AB"]),
        (
            "\n   :start-after: start-a\n   :end-before: end-a",
            "\n   :start-after: start-ab\n   :end-before: end-ab",
            ["A", "AB"],
        ),
        (
            "\n   :start-after: start-a\n   :end-before: end-a",
            "\n   :start-after: start-a\n   :end-before: end-ab",
            ["A", "A", "AB"],
        ),
    ],
)
def test_an_include_is_cut_by_its_own_options_beside_another_of_the_same_partial(
    first: str, second: str, shown: list[str]
) -> None:
    """A page pulling one partial in twice: the first directive's text begins the second
    (the same include, with options, or an `:end-before:` one marker's beginning), and
    the second still shows only its own part, its options not left on the page."""
    text = (
        f".. include:: /includes/common.rst{first}\n\nBetween.\n\n"
        f".. include:: /includes/common.rst{second}\n"
    )
    page_text = expanded(text, includes_of(text, PAGE), {"includes/common.rst": SNIPPETS})
    assert re.findall(r"Snippet (\w+)\.", page_text) == shown
    assert ":end-before:" not in page_text and ":start-after:" not in page_text


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        (":start-after:", ["Two."]),  # no text: docutils reads an empty line
        (":end-before:", ["One."]),
        (":start-after:\n   :end-before:", ["Two."]),
        (":Start-After: start-b", ["Two."]),  # docutils reads names in lower case
        (":START-LINE: 2", ["Two."]),
        (":start-after: start-b\n   :start-after: start-b", []),  # refused: none shown
        (":end-before: end-b\n   :END-BEFORE: end-b", []),
    ],
)
def test_an_include_reads_its_options_as_docutils_does(options: str, shown: list[str]) -> None:
    """An option with no text stands for an empty line (docutils 0.23), a name in any
    case is the option, and one given twice makes the build refuse the directive: the
    page shows none of the partial, not the part one of them would name."""
    page_text = _shown(
        f".. include:: /includes/common.rst\n   {options}", "One.\nstart-b\n\nTwo.\nend-b\n"
    )
    assert [words for words in ("One.", "Two.") if words in page_text] == shown
    assert ":start" not in page_text.lower() and ":end" not in page_text.lower()


@pytest.mark.parametrize(
    ("options", "lines"),
    [
        (":START-AT: b\n   :End-At: c", ["b", "c"]),
        (":start-after:", []),  # Sphinx requires its text: the directive is refused
        (":lines:", []),
        (":start-at: b\n   :start-after: b", []),  # Sphinx: both cannot be used
        (":end-at: d\n   :end-before: d", []),
        (":lines: 1\n   :lines: 2", []),  # given twice: refused
    ],
)
def test_a_literalinclude_reads_its_options_as_sphinx_does(options: str, lines: list[str]) -> None:
    directive = f".. literalinclude:: /includes/common.rst\n   {options}"
    page_text = _shown(directive, "a\nb\nc\nd\n")
    body = page_text.removeprefix("Title\n=====\n\n").removesuffix("\n\nAfter.\n")
    assert body.splitlines() == lines


def _blame_of(
    tmp_path: Path, page_server: PageServer, files: list[tuple[str, str]]
) -> tuple[dict[str, dict[str, str]], list[str]]:
    """Blame's findings on a Sphinx page (`source/conf.py` beside it) whose files went
    through `files` (a path and its text each, one commit each, oldest first); with the
    commits' shas in that order. The page now reads NEW."""
    repo = tmp_path / "docs-repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "source/conf.py", "project = 'x'\n", "Add Sphinx", "2026-01-01T10:00")
    shas = [
        commit(repo, path, text, f"Edit {n} (#{n + 1})", f"2026-0{n + 2}-01T10:00")
        for n, (path, text) in enumerate(files)
    ]
    page_server.set_page("/ldap", page(NEW))
    ledger = tmp_path / "ledger" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/ldap"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)
    (row,) = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", PAGE)["quotes"]
    return row["found"], shas


PARTIAL = "source/includes/common.rst"


@pytest.mark.parametrize(
    ("options", "partial"),
    [
        (":start-after:", "{other}\n\n{shown}\n"),
        (":Start-After: start-b\n   :End-Before: end-b",
         "{other}\nstart-b\n{shown}\nend-b\n{other}\n"),
    ],
)  # fmt: skip
def test_blame_reads_a_partial_cut_as_docutils_cuts_it(
    tmp_path: Path, page_server: PageServer, options: str, partial: str
) -> None:
    """The page's part of the partial was reworded; the rest of the partial, on no page
    of it, still says the old words: the history names the rewording, not "still held"."""
    include = f"LDAP\n====\n\n.. include:: /includes/common.rst\n   {options}\n"
    found, shas = _blame_of(
        tmp_path, page_server,
        [(PAGE, include), (PARTIAL, partial.format(other=OLD, shown=OLD)),
         (PARTIAL, partial.format(other=OLD, shown=NEW))],
    )  # fmt: skip
    assert (found["last_held_in"]["sha"], found["dropped_in"]["sha"]) == (shas[1], shas[2])


def test_blame_names_the_commit_that_gave_an_option_twice_as_the_one_that_dropped_it(
    tmp_path: Path, page_server: PageServer
) -> None:
    """An option written twice makes the build refuse the include: from that commit on,
    the page shows none of the partial, and the history says the words went there."""
    include = "LDAP\n====\n\n.. include:: /includes/common.rst\n   :start-after: start-b\n"
    found, shas = _blame_of(
        tmp_path, page_server,
        [(PARTIAL, f"Other.\nstart-b\n{OLD}\n"), (PAGE, include),
         (PAGE, f"{include}   :start-after: start-b\n")],
    )  # fmt: skip
    assert (found["last_held_in"]["sha"], found["dropped_in"]["sha"]) == (shas[1], shas[2])


ZERO_TO_TWO = "Zero.\n\nOne.\nstart-b\nTwo.\n"


@pytest.mark.parametrize(
    ("directive", "partial", "shown"),
    [
        (".. include:: /includes/common.rst\n\n   :start-after: start-b", ZERO_TO_TWO, []),
        (".. include:: /includes/common.rst\n   :start-after: start-b\n\n   Words.",
         ZERO_TO_TWO, []),  # after the blank line, content: no include takes it
        (".. include:: /includes/common.rst\n   :start-after:\n      start-b", ZERO_TO_TWO,
         ["Two."]),  # the value on the line under its name
        (".. include:: /includes/common.rst\n   :start-after: mark\n      end",
         "Zero.\nmark\nOne.\nmark\nend\nTwo.\n", ["Two."]),  # a value of two lines
        (".. include:: /includes/common.rst\n   :start_after: start-b", ZERO_TO_TWO, []),
        (".. include:: /includes/common.rst\n   :st\u00e4rt-after: start-b", ZERO_TO_TWO, []),
        (".. include:: /includes/common.rst\n   :literal: yes", ZERO_TO_TWO, []),  # a flag
        (".. include:: /includes/common.rst\n   :start-line: 1\n   :tab-width: x",
         ZERO_TO_TWO, []),
        (".. include:: /includes/common.rst\n   :start-after: start-b\n   :class: 42",
         ZERO_TO_TWO, []),  # no class name can be made of it
        (".. include:: /includes/common.rst\n   :start-after:start-b", ZERO_TO_TWO,
         []),  # no field: the path goes on, and names no file
        (".. include:: /includes/common.rst\n   :start-after: a\tb", "Zero.\na\tb\nOne.\n",
         []),  # the tab is spaces, as docutils reads the page: not found
        (".. include::\n   /includes/common.rst\n   :start-after: start-b", ZERO_TO_TWO,
         ["Two."]),  # the path on the line under the directive
        (".. INCLUDE:: /includes/common.rst\n   :start-after: start-b", ZERO_TO_TWO, ["Two."]),
        ("- .. include:: /includes/common.rst\n  :start-after: start-b", ZERO_TO_TWO,
         ["Zero.", "One.", "Two."]),  # no further in than the item: no option of it
        (".. literalinclude:: /includes/common.rst\n   :emphasise-lines: 1", ZERO_TO_TWO, []),
        (".. literalinclude:: /includes/common.rst\n   :dedent: -1", ZERO_TO_TWO, []),
    ],
)  # fmt: skip
def test_an_include_is_read_from_its_lines_as_docutils_reads_them(
    directive: str, partial: str, shown: list[str]
) -> None:
    """Each as docutils 0.23 builds it (Sphinx's `literalinclude` as Sphinx does): its
    options end at a blank line, and anything after it is content, which no include
    takes; a value goes on over the lines under its name; the build refuses an option
    it does not know or a value it cannot take, and shows none of the partial. Each was
    read as showing the whole partial, or another part of it."""
    page_text = _shown(directive, partial)
    assert [words for words in ("Zero.", "One.", "Two.") if words in page_text] == shown


def test_blame_names_the_commit_that_left_a_blank_line_before_the_options(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A blank line between the directive and its options makes them its content, which
    an include takes none of: the build refuses it, and from that commit on the page
    shows none of the partial. The history says the words went there, not "still held"
    (the whole partial was read as shown)."""
    include = "LDAP\n====\n\n.. include:: /includes/common.rst\n{gap}   :start-after: start-b\n"
    found, shas = _blame_of(
        tmp_path, page_server,
        [(PARTIAL, f"Other.\nstart-b\n{OLD}\n"), (PAGE, include.format(gap="")),
         (PAGE, include.format(gap="\n"))],
    )  # fmt: skip
    assert (found["last_held_in"]["sha"], found["dropped_in"]["sha"]) == (shas[1], shas[2])
