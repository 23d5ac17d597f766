"""A partial pulled in by AsciiDoc (`tag=`, `tags=`, `lines=`), MyST (`{include}` with
Sphinx's options) or an MkDocs snippet (`x.md:section`, `x.md:3:6`) is read as the page
shows it: only the part its include names. Real git repositories, made here."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimledger.reading.clips import Clip, clipped
from claimledger.reading.includes import MAX_INCLUDES, expanded, includes_of
from cli_runner import Cli
from evidence_site import page
from test_blame import LEDGER, NEW, OLD, commit, git
from webserver import PageServer

TAGGED = """\
Outside.
// tag::quorum[]
Quorum.
// tag::inner[]
Inner.
// end::inner[]
// end::quorum[]
// tag::erasure[]
Erasure.
// end::erasure[]
"""
WORDS = ("Outside.", "Quorum.", "Inner.", "Erasure.")


def _adoc(attributes: str, partial: str = TAGGED) -> list[str]:
    text = f"= Page\n\ninclude::partial$common.adoc[{attributes}]\n"
    found = includes_of(text, "docs/modules/ROOT/pages/p.adoc")
    shown = expanded(text, found, {"docs/modules/ROOT/partials/common.adoc": partial})
    assert "include::" not in shown
    return [words for words in WORDS if words in shown]


@pytest.mark.parametrize(
    ("attributes", "shown"),
    [
        ("", list(WORDS)),
        ("leveloffset=+1", list(WORDS)),
        ("tag=erasure", ["Erasure."]),
        ("tag=quorum,leveloffset=+1", ["Quorum.", "Inner."]),
        ("tags=quorum;!inner", ["Quorum."]),
        ('tags="inner,erasure"', ["Inner.", "Erasure."]),
        ("tag=!erasure", ["Outside.", "Quorum.", "Inner."]),
        ("tags=*", ["Quorum.", "Inner.", "Erasure."]),
        ("tags=**", list(WORDS)),
        ("tags=**;!*", ["Outside."]),
        ("tags=!*", ["Outside."]),
        ("tags=*;!quorum", ["Erasure."]),  # a region inside an unshown one is unshown
        ("tag=gone", []),  # Asciidoctor warns, and shows none of the partial
        ("tags=!gone", list(WORDS)),
        ("tag=!", list(WORDS)),
        ("lines=3", ["Quorum."]),
        ("lines=1;9", ["Outside.", "Erasure."]),
        ('lines="3..5,9"', ["Quorum.", "Inner.", "Erasure."]),
        ("lines=5..-1", ["Inner.", "Erasure."]),
        ("lines=9..", ["Erasure."]),
        ("lines=1..999999999999", list(WORDS)),
        ("lines=0..3", []),  # line 0 is never reached: Asciidoctor shows nothing
        ("lines=5..3", list(WORDS)),  # no line named: the whole partial
        ("lines=3,tag=erasure", ["Quorum."]),  # lines win
    ],
)
def test_an_asciidoc_include_shows_only_the_part_its_attributes_name(
    attributes: str, shown: list[str]
) -> None:
    assert _adoc(attributes) == shown


def test_tag_lines_are_never_shown_and_an_xml_comment_tags_too() -> None:
    partial = "<!-- tag::a[] -->\nA.\n<!-- end::a[] -->\nB.\n"
    text = "include::x.xml[tag=a]\n"
    assert expanded(text, includes_of(text, "p.adoc"), {"x.xml": partial}) == "A.\n\n"


def test_an_end_tag_out_of_order_closes_its_region_where_it_is() -> None:
    """`end::a[]` inside `b`: Asciidoctor warns, drops `a`, and `b` goes on as it was."""
    partial = "// tag::a[]\nA.\n// tag::b[]\nB.\n// end::a[]\nB2.\n// end::b[]\nC.\n"
    clip = Clip("asciidoc", (("tags", "a;b"),))
    assert clipped(partial, clip) == "A.\nB.\nB2.\n"


MYST_PARTIAL = "Intro.\n<!-- start-quorum -->\nQuorum.\n<!-- end-quorum -->\nErasure.\n"


@pytest.mark.parametrize(
    ("fence", "options", "shown"),
    [
        ("```", ":start-after: <!-- start-quorum -->\n:end-before: <!-- end-quorum -->", ["Q"]),
        (":::", ":start-after: <!-- start-quorum -->", ["Q", "E"]),
        ("````", ":start-line: 4", ["E"]),
        ("```", ":end-line: 1", ["I"]),
        ("```", ":start-after: <!-- gone -->", []),  # an error in the build: none shown
        ("```", ":heading-offset: 1", ["I", "Q", "E"]),
    ],
)
def test_a_myst_include_shows_only_the_part_its_options_name(
    fence: str, options: str, shown: list[str]
) -> None:
    text = f"# Page\n\n{fence}{{include}} ../snippets/common.md\n{options}\n{fence}\n\nAfter.\n"
    found = includes_of(text, "docs/page.md")
    page_text = expanded(text, found, {"snippets/common.md": MYST_PARTIAL})
    assert [w[0] for w in ("Intro.", "Quorum.", "Erasure.") if w in page_text] == shown
    assert "{include}" not in page_text and ":start" not in page_text
    assert page_text.endswith("\n\nAfter.\n")


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ("---\nstart-after: <!-- start-quorum -->\nend-before: <!-- end-quorum -->\n---", ["Q"]),
        ("---\n# the quorum\nstart-after: <!-- start-quorum -->  # its marker\n---", ["Q", "E"]),
        ("---\nstart-after: \"<!-- start-quorum -->\"\nend-before: '<!-- end-quorum -->'\n---",
         ["Q"]),
        ("---\nstart-after:\n  <!-- start-quorum -->\n---", ["Q", "E"]),  # on the next line
        ("---\nstart-line: 4", ["E"]),  # never closed: the options run to the fence
        (":start-after: '<!-- start-quorum -->'", ["Q", "E"]),  # read as YAML too
        (":end-before: <!-- end-quorum --> # a comment", ["I", "Q"]),
        (":Start-After: <!-- start-quorum -->", ["I", "Q", "E"]),  # no such option: left out
        (":start-after:", []),  # no text: an empty line (docutils 0.23), none in the partial
        (":start-after: <!-- gone -->\n:start-after: <!-- end-quorum -->", ["E"]),  # the last
        ("---\nstart-after <!-- start-quorum -->\n---", ["I", "Q", "E"]),  # MyST reads none
    ],
)  # fmt: skip
def test_a_myst_include_reads_its_options_as_myst_parser_does(
    options: str, shown: list[str]
) -> None:
    """myst-parser reads a directive's options as YAML, from a `---` block or from the
    `:name: value` lines (quotes and comments are YAML's); a name it does not know is
    left out; one with no text is none (to docutils 0.23's include, an empty line); one
    given twice, the last is read."""
    text = f"# Page\n\n```{{include}} ../snippets/common.md\n{options}\n```\n\nAfter.\n"
    found = includes_of(text, "docs/page.md")
    page_text = expanded(text, found, {"snippets/common.md": MYST_PARTIAL})
    assert [w[0] for w in ("Intro.", "Quorum.", "Erasure.") if w in page_text] == shown
    assert "{include}" not in page_text and "start-after" not in page_text.lower()
    assert "---" not in page_text and page_text.endswith("\n\nAfter.\n")


MYST_BLANK = "Zero.\n\nOne.\n<!-- a -->\nTwo.\n"


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ("---\nstart-after: <!-- a -->\n---\n\n", ["Two."]),  # a blank line before the fence
        (":start-after: <!-- a -->\n\n", ["Two."]),
        ("---\nstart-after: <!-- a -->\n---\nWords.\n", ["Two."]),  # content: warned, run
        ("---\nstart-after:\n---\n", ["One.", "Two."]),  # no text: an empty line
        (":end-before:\n", ["Zero."]),
        ("---\nstart-line: x\nstart-after: <!-- a -->\n---\n", ["Two."]),  # x left out
        ("---\nstart-line: x\n---\n", ["Zero.", "One.", "Two."]),
        ("---\nliteral: yes\nstart-after: <!-- a -->\n---\n", ["Two."]),  # a flag takes any
        ("  ---\n  start-after: <!-- a -->\n  ---\n", ["Zero.", "One.", "Two."]),  # content
    ],
)  # fmt: skip
def test_a_myst_include_takes_its_options_as_myst_parser_gives_them(
    body: str, shown: list[str]
) -> None:
    """What follows the options is content, which myst-parser warns of and runs the
    directive anyway (a blank line before the fence was read as no include at all); an
    option with no text is none, to the include an empty line, as in reStructuredText;
    one whose value the directive cannot take is left out, the others read (the whole
    directive was read as refused); a `---` block begins at the body's first column."""
    text = f"# Page\n\n```{{include}} ../snippets/common.md\n{body}```\n\nAfter.\n"
    page_text = expanded(
        text, includes_of(text, "docs/page.md"), {"snippets/common.md": MYST_BLANK}
    )
    assert [words for words in ("Zero.", "One.", "Two.") if words in page_text] == shown
    assert page_text.endswith("\n\nAfter.\n") and "{include}" not in page_text


def test_a_myst_include_never_closed_runs_to_the_pages_end() -> None:
    """CommonMark closes a fence never closed at the end of the page: the include is
    there, the rest of the page its content (it was not followed)."""
    text = "# Page\n\n````{include} ../snippets/common.md\n:start-after: <!-- a -->\n```\nEnd.\n"
    page_text = expanded(
        text, includes_of(text, "docs/page.md"), {"snippets/common.md": MYST_BLANK}
    )
    assert page_text == "# Page\n\n\nTwo.\n"


def test_a_myst_literalinclude_with_both_starts_shows_nothing() -> None:
    """Sphinx refuses `start-at` with `start-after`, written in a MyST block as well."""
    text = "```{literalinclude} x.py\n---\nstart-at: b\nstart-after: b\n---\n```\n"
    assert expanded(text, includes_of(text, "docs/page.md"), {"docs/x.py": "a\nb\nc\n"}) == "\n"


SNIPPET = """\
Intro.
<!-- --8<-- [start:quorum] -->
Quorum.
<!-- --8<-- [end:quorum] -->
<!-- --8<-- [start:erasure] -->
Erasure.
<!-- ;--8<-- [start:kept] -->
<!-- --8<-- [end:erasure] -->
"""


@pytest.mark.parametrize(
    ("spec", "shown"),
    [
        ("common.md", ["Intro.", "Quorum.", "Erasure.", "<!-- --8<-- [start:kept] -->"]),
        ("common.md:quorum", ["Quorum."]),
        ("common.md:erasure", ["Erasure.", "<!-- --8<-- [start:kept] -->"]),
        ("common.md:gone", []),  # pymdownx shows nothing
        ("common.md:3:3", ["Quorum."]),
        ("common.md:1:3", ["Intro.", "Quorum."]),  # the marker between is left out
        ("common.md:6", ["Erasure.", "<!-- --8<-- [start:kept] -->"]),
        ("common.md::1,6:6", ["Intro.", "Erasure."]),
        ("common.md:-4:-4", ["Erasure."]),  # counted from the end (the last line is empty)
        ("common.md:99:100", []),
    ],
)
def test_an_mkdocs_snippet_shows_only_its_section_or_lines(spec: str, shown: list[str]) -> None:
    text = f'# Page\n\n--8<-- "{spec}"\n'
    found = includes_of(text, "docs/page.md")
    assert found[0].paths[-1] == "common.md"
    page_text = expanded(text, found, {"common.md": SNIPPET})
    lines = page_text.removeprefix("# Page\n\n").splitlines()
    assert [line for line in lines if line and "[end:" not in line] == shown
    assert all("[start:quorum]" not in line for line in lines)


def hostile_cuts() -> list[tuple[str, str, Clip]]:
    """What a hostile repository can write: thousands of tags closed out of order,
    `tag::` 50,000 times on a line, ranges of billions, a snippet's ranges repeated, a
    run of 200,000 dashes. `tests/benchmarks/bench_hostile.py` times each."""
    tags = ";".join(f"t{n}" for n in range(20_000))
    opened = "".join(f"// tag::t{n}[]\nx\n" for n in range(20_000))
    closed = "".join(f"// end::t{n}[]\n" for n in range(20_000))
    many = ";".join(["1..999999999999"] * 5000)
    on_a_line = ("tag::" * 50_000 + "[]\n") * 4
    repeated = ",".join(["1:999999999"] * 300)
    return [
        ("20,000 tags closed out of order", opened + closed, Clip("asciidoc", (("tags", tags),))),
        ("tag:: 50,000 times on a line", on_a_line, Clip("asciidoc", (("tag", "x"),))),
        ("5,000 line ranges of a trillion", "x\n" * 100_000, Clip("asciidoc", (("lines", many),))),
        ("a snippet's range 300 times", "x\n" * 100_000, Clip("snippet", (("lines", repeated),))),
        ("200,000 dashes before 8<", "-" * 200_000 + "8<\n", Clip("snippet", (("section", "a"),))),
    ]  # fmt: skip


def test_a_hostile_cut_shows_at_most_a_few_times_its_partial() -> None:
    """Each range of billions names no line past the partial's last; repeated, they
    stop at four times its text (memory bounded); tags thousands deep are all closed."""
    shown = [clipped(text, clip) for _, text, clip in hostile_cuts()]
    assert shown[0] == "x\n" * 20_000
    assert shown[1] == shown[4] == ""  # no tag named x; no section a
    assert shown[2] == "x\n" * 100_000
    assert len(shown[3]) <= 4 * len("x\n" * 100_000) + 2


@pytest.mark.parametrize(
    ("block", "shown"),
    [
        ("--8<--\ncommon.md:quorum\nother.md\n--8<--", ["Quorum.", "Other."]),
        ("-8<-\n  other.md\n\n  common.md:3:3\n---8<---", ["Other.", "Quorum."]),
        ("--8<--\n;common.md\nother.md\n--8<--", ["Other."]),  # a path left out by `;`
        ('--8<--\nother.md\n--8<-- "common.md"\n--8<--', ["Other."]),  # none inside a block
        ("--8<--\ncommon.md:gone\n--8<--", []),
        (";--8<--\ncommon.md\n;--8<--", []),  # escaped: no block, the lines as written
        ("--8<--\ncommon.md", []),  # never closed: not followed
    ],
)
def test_an_mkdocs_snippet_block_pulls_in_each_file_it_names(block: str, shown: list[str]) -> None:
    """pymdownx's block form: `--8<--` on a line of its own, a file a line (cut as a
    snippet's is), `--8<--` again; the page shows each file's part in turn."""
    text = f"# Page\n\n{block}\n\nAfter.\n"
    found = includes_of(text, "docs/page.md")
    page_text = expanded(text, found, {"docs/common.md": SNIPPET, "docs/other.md": "Other.\n"})
    words = ("Intro.", "Quorum.", "Erasure.", "Other.")
    assert sorted((w for w in words if w in page_text), key=page_text.find) == shown
    assert ("8<" in page_text) == (block.startswith(";") or block.endswith("common.md"))
    assert page_text.endswith("\n\nAfter.\n")


def test_a_snippet_block_counts_each_of_its_files_among_the_partials_followed() -> None:
    """A block naming a thousand files pulls in no more of them than `MAX_INCLUDES`."""
    names = "\n".join(f"p{n}.md" for n in range(1_000))
    (found,) = includes_of(f"--8<--\n{names}\n--8<--\n", "page.md")
    assert len(found.parts) == MAX_INCLUDES
    assert {p for part in found.parts for p in part.paths} == set(found.paths)


def _blame(tmp_path: Path, page_server: PageServer, files: dict[str, tuple[str, str]]) -> None:
    """A docs repository: the site's configuration (`config`, when given), the page's file,
    then a shared partial holding the quote in two parts; the part the page shows is
    reworded, the other keeps the old words. The page's history names the rewording, not
    "still held"."""
    repo = tmp_path / "docs-repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (page_path, page_text), (partial, shape) = files["page"], files["partial"]
    if "config" in files:
        commit(repo, *files["config"], "Add the site", "2026-01-04T10:00")
    commit(repo, page_path, page_text, "Add the page", "2026-01-05T10:00")
    held = commit(repo, partial, shape.format(shown=OLD, hidden=OLD), "Add it", "2026-01-06T10:00")
    reworded = commit(
        repo, partial, shape.format(shown=NEW, hidden=OLD), "Soften it (#12)", "2026-05-15T10:00"
    )
    page_server.set_page("/durable", page(NEW))
    ledger = tmp_path / "ledger" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/durable"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)
    (row,) = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", page_path)["quotes"]
    found = row["found"]
    assert (found["last_held_in"]["sha"], found["dropped_in"]["sha"]) == (held, reworded)


def test_blame_reads_only_the_tagged_region_an_antora_page_shows(
    tmp_path: Path, page_server: PageServer
) -> None:
    shape = (
        "// tag::shown[]\n{shown}\n// end::shown[]\n\n// tag::other[]\n{hidden}\n// end::other[]\n"
    )
    _blame(tmp_path, page_server, {
        "page": ("docs/modules/ROOT/pages/durable.adoc",
                 "= Durability\n\ninclude::partial$common.adoc[tag=shown]\n"),
        "partial": ("docs/modules/ROOT/partials/common.adoc", shape),
    })  # fmt: skip


def test_blame_reads_only_the_part_a_myst_include_shows(
    tmp_path: Path, page_server: PageServer
) -> None:
    include = (
        "```{include} ../snippets/common.md\n"
        ":start-after: <!-- a -->\n:end-before: <!-- b -->\n```\n"
    )
    _blame(tmp_path, page_server, {
        "page": ("docs/durable.md", f"# Durability\n\n{include}"),
        "partial": ("snippets/common.md", "<!-- a -->\n{shown}\n<!-- b -->\n\n{hidden}\n"),
    })  # fmt: skip


def test_blame_reads_only_the_part_a_myst_include_shows_its_options_in_a_yaml_block(
    tmp_path: Path, page_server: PageServer
) -> None:
    include = (
        "```{include} ../snippets/common.md\n---\n"
        "start-after: <!-- a -->\nend-before: <!-- b -->\n---\n```\n"
    )
    _blame(tmp_path, page_server, {
        "config": ("docs/conf.py", "extensions = ['myst_parser']\n"),
        "page": ("docs/durable.md", f"# Durability\n\n{include}"),
        "partial": ("snippets/common.md", "<!-- a -->\n{shown}\n<!-- b -->\n\n{hidden}\n"),
    })  # fmt: skip


def test_blame_reads_only_the_section_an_mkdocs_snippet_block_shows(
    tmp_path: Path, page_server: PageServer
) -> None:
    shape = (
        "<!-- --8<-- [start:shown] -->\n{shown}\n<!-- --8<-- [end:shown] -->\n\n"
        "<!-- --8<-- [start:other] -->\n{hidden}\n<!-- --8<-- [end:other] -->\n"
    )
    block = "--8<--\nsnippets/intro.md\nsnippets/common.md:shown\n--8<--\n"
    _blame(tmp_path, page_server, {
        "config": ("mkdocs.yml", "site_name: Docs\nmarkdown_extensions:\n  - pymdownx.snippets\n"),
        "page": ("docs/durable.md", f"# Durability\n\n{block}"),
        "partial": ("snippets/common.md", shape),
    })  # fmt: skip


def test_blame_reads_only_the_section_an_mkdocs_snippet_shows(
    tmp_path: Path, page_server: PageServer
) -> None:
    shape = (
        "<!-- --8<-- [start:shown] -->\n{shown}\n<!-- --8<-- [end:shown] -->\n\n"
        "<!-- --8<-- [start:other] -->\n{hidden}\n<!-- --8<-- [end:other] -->\n"
    )
    _blame(tmp_path, page_server, {
        "page": ("docs/durable.md", '# Durability\n\n--8<-- "snippets/common.md:shown"\n'),
        "partial": ("snippets/common.md", shape),
    })  # fmt: skip


@pytest.mark.parametrize(
    ("attributes", "shown"),
    [
        ("lines=1..0" + "0" * 5000 + "3", ["Outside.", "Quorum."]),  # Ruby reads it as 3
        ("lines=9.." + "9" * 5000, ["Erasure."]),  # to past the last line
        ("lines=1_0", []),  # line 10, the tag line `end::erasure[]`
    ],
)
def test_an_asciidoc_line_number_of_thousands_of_digits_is_read_as_ruby_reads_it(
    attributes: str, shown: list[str]
) -> None:
    assert _adoc(attributes) == shown


def test_a_snippets_bad_line_number_shows_nothing_and_stops_nothing() -> None:
    """`x.md:-` fails pymdownx's build: the page shows none of the partial."""
    text = '# Page\n\n--8<-- "common.md:-"\n--8<-- "common.md:-:3"\n'
    found = includes_of(text, "docs/page.md")
    assert expanded(text, found, {"common.md": SNIPPET}) == "# Page\n\n\n\n"


@pytest.mark.parametrize(
    ("tags", "shown"),
    [
        ("!*;quorum", ["Outside.", "Quorum."]),  # `*` first: the lines outside too
        ("quorum;!*", ["Quorum."]),  # `*` after: the named regions only
        ("!erasure;!*", []),  # `*` after a tag unshown: nothing outside
        ("!**;quorum", ["Quorum.", "Inner."]),  # `inner` as the region around it
        ("!**;!quorum", ["Erasure."]),  # the first named unshown: the others shown
        ("**;!quorum", ["Outside.", "Erasure."]),
    ],
)
def test_an_asciidoc_wildcard_selects_as_asciidoctor_orders_it(tags: str, shown: list[str]) -> None:
    """Asciidoctor's reader: with `*` first the lines outside are shown, else not; with
    `!**` a region not named is as the one around it, or shown after a tag unshown."""
    assert _adoc(f"tags={tags}") == shown


@pytest.mark.parametrize(
    ("attributes", "shown"),
    [
        ("lines=1;3;", ["Outside.", "Quorum."]),
        ('lines="1,9,,"', ["Outside.", "Erasure."]),
        ("lines=;3", []),  # an empty item before is line 0, never reached
    ],
)
def test_an_asciidoc_lines_list_ending_in_its_separator_names_the_lines_before(
    attributes: str, shown: list[str]
) -> None:
    """Ruby's `split` drops the empty items at a list's end, and only there."""
    assert _adoc(attributes) == shown


def test_an_escaped_marker_before_a_snippets_section_neither_starts_nor_ends_it() -> None:
    """pymdownx unescapes a `;--8<--` line before it looks for its section's markers."""
    partial = (
        "Write `;--8<-- [end:usage]` to close it:\n"
        ";--8<-- [end:usage]\n;--8<-- [start:usage]\nBefore.\n"
        "--8<-- [start:usage]\nUsage.\n--8<-- [end:usage]\n"
    )
    text = '--8<-- "common.md:usage"\n'
    assert expanded(text, includes_of(text, "page.md"), {"common.md": partial}) == "Usage.\n"


@pytest.mark.parametrize("named", ["partial$/etc/passwd", "ROOT:partial$/etc/passwd"])
def test_an_antora_partial_written_from_the_filesystems_root_is_not_followed(
    named: str,
) -> None:
    """git refuses a path outside the repository, and the history would stop there."""
    assert includes_of(f"include::{named}[]\n", "docs/modules/ROOT/pages/p.adoc") == []


def test_a_form_feed_in_a_partial_shifts_no_line_an_include_names() -> None:
    """Asciidoctor (Ruby's `each_line`) and pymdownx (a file read as text) end a line at a
    line feed (or a carriage return, for pymdownx) alone: Python's `splitlines` ends one at
    a form feed too, which showed the line before the one named."""
    partial = "Outside.\nQuorum \x0c part.\nErasure.\n"
    assert _adoc("lines=3", partial) == ["Erasure."]
    text = '# Page\n\n--8<-- "common.md:3:3"\n'
    shown = expanded(text, includes_of(text, "docs/page.md"), {"common.md": partial})
    assert shown == "# Page\n\nErasure.\n"


def test_blame_reads_a_myst_include_whose_fence_closes_after_a_blank_line(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A blank line between the options and the closing fence: myst-parser includes the
    part, and the history read the page as pulling nothing in (the quote "in none of the
    versions read")."""
    include = (
        "```{include} ../snippets/common.md\n"
        "---\nstart-after: <!-- a -->\nend-before: <!-- b -->\n---\n\n```\n"
    )
    _blame(tmp_path, page_server, {
        "page": ("docs/durable.md", f"# Durability\n\n{include}"),
        "partial": ("snippets/common.md", "<!-- a -->\n{shown}\n<!-- b -->\n\n{hidden}\n"),
    })  # fmt: skip


def test_a_myst_block_of_hostile_yaml_is_read_as_text_never_run(tmp_path: Path) -> None:
    """The options are read by a reader of plain text (no YAML library): a tag naming
    Python code is words, an alias is words (no bomb of them grows), and a block of
    many thousands of keys is read once."""
    planted = tmp_path / "ran"
    bomb = "".join(f"k{n}: &k{n} [*k{n - 1}, *k{n - 1}]\n" for n in range(1, 30))
    body = (
        f"---\nstart-after: !!python/object/apply:os.system ['touch {planted}']\n"
        f"end-before: *k29\n{bomb}" + "x: y\n" * 50_000 + "---\n"
    )
    text = f"```{{include}} ../snippets/common.md\n{body}```\n"
    partial = "One.\n!!python/object/apply:os.system ['touch " + str(planted) + "']\nTwo.\n*k29\n"
    page_text = expanded(text, includes_of(text, "docs/page.md"), {"snippets/common.md": partial})
    assert page_text == "\nTwo.\n\n" and not planted.exists()
