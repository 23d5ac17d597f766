"""The house rules, checked on the source itself: which layer may import what, how large a
module may grow, and where exceptions are defined.

The folders are the layers (see docs/architecture.md):

    cli/        parses, calls one service, prints
    terminal/   what a command shows: consoles, tables, lines, diffs, JSON
    services/   what a command does, as one call: read the store, run, write
    ledger/     the model, claims.yaml read and edited, the config file
    web/        the only door to the network
    reading/    pure: a page's bytes to text, a quote matched in it
    evidence/   the refresh and its after-steps, the archive, store/
    grading/    grades from evidence: rules, accepting, artifacts
    report/     every output format
    workspace/  what a checkout may do (trust), the demo

and records, errors, urls, sites, addresses and versions are the values every layer shares.
Each library with side effects has one home, so that a reader knows where to look for
each kind of I/O.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from evidence_site import ALARM_REWORDED, page, serve_v1, write_ledger
from webserver import PageServer

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "claimledger"
MAX_LINES = 700

HOMES: dict[str, tuple[str, ...]] = {
    "sqlite3": ("evidence/store/",),
    "jinja2": ("report/templates.py", "report/sandbox.py"),
    "rich": ("cli/", "terminal/"),
    "typer": ("cli/",),
    "subprocess": (  # artifacts; the user's $EDITOR; git, for the docs' history
        "grading/artifact.py",
        "cli/revising.py",
        "evidence/gitrepo.py",
    ),
    "httpx": ("web/",),
    "playwright": ("web/browser.py",),
}
"""A library with side effects, and the only modules that may import it."""

SHARED = (
    "records.py", "meanings.py", "errors.py", "urls.py", "addresses.py", "versions.py",
    "recipes.py", "sites.py",
)  # fmt: skip
"""The values every layer shares: they import no layer."""

LAYERS: dict[str, tuple[str, ...]] = {
    "reading/": (
        "web", "ledger", "evidence", "grading", "report", "workspace", "services", "terminal",
        "cli",
    ),
    "web/": ("ledger", "evidence", "grading", "report", "workspace", "services", "terminal", "cli"),
    "ledger/": ("web", "evidence", "grading", "report", "workspace", "services", "terminal", "cli"),
    "evidence/": ("grading", "report", "workspace", "services", "terminal", "cli"),
    "grading/": ("web", "evidence", "report", "workspace", "services", "terminal", "cli"),
    "report/": ("web", "evidence", "workspace", "services", "terminal", "cli"),
    "workspace/": ("web", "evidence", "report", "services", "terminal", "cli"),
    "services/": ("terminal", "cli"),
    "terminal/": ("web", "workspace", "services", "cli"),
}  # fmt: skip
"""A layer, and the layers it must not import (by their dotted names under claimledger)."""

PURE = (
    "reading/",
    "grading/rules.py",
    "grading/verdicts.py",
    "grading/quotes.py",
    "grading/review.py",
    "grading/accept.py",
    "ledger/model.py",
    "ledger/edits.py",
    "ledger/located.py",
    "ledger/plainyaml.py",
    "ledger/safeyaml.py",
    "ledger/schema.py",
    "ledger/shape.py",
    "ledger/soundness.py",
    "ledger/strictschema.py",
    "ledger/vocabulary.py",
    "ledger/yamledit.py",
    "report/ci_formats.py",
    "report/jsontext.py",
    "report/bidi.py",
    "report/cimarks.py",
    "web/pacing.py",
    "web/standins.py",
    *SHARED,
)
"""Modules that do no I/O of their own: they import none of the edges."""

EDGES = (
    "claimledger.evidence.store",
    "claimledger.web",
    "claimledger.ledger.file",
    "claimledger.cli",
)
IO_MODULES = ("os", "shutil", "socket", "sqlite3", "subprocess", "tempfile", "httpx")


def modules() -> Iterator[tuple[str, ast.Module, int]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(text), len(text.splitlines())


def imported(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def lives_in(name: str, homes: tuple[str, ...]) -> bool:
    return any(name == home or (home.endswith("/") and name.startswith(home)) for home in homes)


ALL = list(modules())


def test_the_package_is_read() -> None:
    names = [name for name, _, _ in ALL]
    assert {"cli/app.py", "evidence/store/__init__.py", "report/build.py", "records.py"} <= set(
        names
    )


@pytest.mark.parametrize(("name", "tree", "lines"), ALL, ids=[name for name, _, _ in ALL])
def test_each_library_with_side_effects_has_one_home(
    name: str, tree: ast.Module, lines: int
) -> None:
    for module in imported(tree):
        top = module.split(".")[0]
        if top in HOMES:
            assert lives_in(name, HOMES[top]), f"{name} imports {module}: it lives in {HOMES[top]}"


@pytest.mark.parametrize(("name", "tree", "lines"), ALL, ids=[name for name, _, _ in ALL])
def test_no_module_is_over_the_size_limit(name: str, tree: ast.Module, lines: int) -> None:
    assert lines <= MAX_LINES, f"{name} has {lines} lines; split it along its sections"


PURE_MODULES = [(n, t, c) for n, t, c in ALL if lives_in(n, PURE)]


@pytest.mark.parametrize(
    ("name", "tree", "lines"), PURE_MODULES, ids=[name for name, _, _ in PURE_MODULES]
)
def test_the_core_imports_no_edge(name: str, tree: ast.Module, lines: int) -> None:
    for module in imported(tree):
        assert not module.startswith(EDGES), f"{name} (pure) imports the edge {module}"
        assert module.split(".")[0] not in IO_MODULES, f"{name} (pure) imports {module}"
        assert module != "claimledger.report.templates" or name.startswith("report/")


def test_the_top_level_holds_only_the_shared_values() -> None:
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert top == sorted(("__init__.py", "__main__.py", *SHARED))


@pytest.mark.parametrize(("name", "tree", "lines"), ALL, ids=[name for name, _, _ in ALL])
def test_each_layer_imports_only_the_layers_below_it(
    name: str, tree: ast.Module, lines: int
) -> None:
    forbidden = [
        f"claimledger.{layer}"
        for folder, layers in LAYERS.items()
        if name.startswith(folder)
        for layer in layers
    ]
    if name in SHARED:
        forbidden = [f"claimledger.{folder.rstrip('/')}" for folder in LAYERS] + ["claimledger.cli"]
    for module in imported(tree):
        hit = [f for f in forbidden if module == f or module.startswith(f + ".")]
        assert not hit, f"{name} imports {module}: its layer may not import {hit[0]}"


MAX_COMMAND_LINES = 60
"""A command's body: parse, call the service, print. More is logic that belongs below."""


@pytest.mark.parametrize(
    ("name", "tree", "lines"),
    [m for m in ALL if m[0].startswith("cli/")],
    ids=[m[0] for m in ALL if m[0].startswith("cli/")],
)
def test_no_command_body_is_over_sixty_lines(name: str, tree: ast.Module, lines: int) -> None:
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        if not any("command" in ast.unparse(d) for d in node.decorator_list):
            continue
        first = node.body[0]
        docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
        start = first.end_lineno if docstring else first.lineno
        body = (node.end_lineno or 0) - (start or 0)
        assert body <= MAX_COMMAND_LINES, f"{name}: {node.name} has a {body}-line body"


def test_nothing_outside_the_command_line_imports_it() -> None:
    for name, tree, _ in ALL:
        if name.startswith("cli/") or name == "__main__.py":
            continue
        assert not any(m.startswith("claimledger.cli") for m in imported(tree)), name


@pytest.mark.parametrize(("name", "tree", "lines"), ALL, ids=[name for name, _, _ in ALL])
def test_exceptions_are_defined_only_in_errors(name: str, tree: ast.Module, lines: int) -> None:
    if name == "errors.py":
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = {ast.unparse(base) for base in node.bases}
            assert not any(b.endswith(("Error", "Exception")) for b in bases), (
                f"{name}: class {node.name}({', '.join(bases)}) belongs in errors.py"
            )


HEAVY = (
    "asyncio", "bs4", "fastjsonschema", "filelock", "httpx", "jinja2", "jsonschema", "lxml",
    "markdown_it", "mdformat", "orjson", "rapidfuzz", "rich", "simplemma", "sqlite3", "yaml",
)  # fmt: skip
"""Libraries a command loads only when it uses them: `--help` and `--version` load none."""


def test_the_command_line_loads_no_heavy_library_until_a_command_needs_it() -> None:
    probe = (
        "import sys, claimledger.cli\nprint(sorted({name.split('.')[0] for name in sys.modules}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(ast.literal_eval(done.stdout))
    assert sorted(loaded & set(HEAVY)) == []


def test_reading_a_page_loads_no_ledger_reader_css_compiler_or_http_command_line() -> None:
    """`verify` fetches and reads a page without the ledger: YAML stays unloaded, CSS is
    compiled only for a source's own `select`, and httpx's own command line (click,
    pygments) is never loaded."""
    probe = (
        "import sys, claimledger.cli, claimledger.web.fetch, claimledger.evidence.refresh\n"
        "print(sorted({name.split('.')[0] for name in sys.modules}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(ast.literal_eval(done.stdout))
    assert sorted(loaded & {"yaml", "cssselect", "click", "pygments"}) == []
    assert "httpx" in loaded


LOADED_BY = """
import sys
from claimledger.cli import app
try:
    app(prog_name="claimledger", args=sys.argv[2:])
except SystemExit:
    pass
with open(sys.argv[1], "w") as out:
    out.write(repr(sorted(name for name, module in sys.modules.items() if module is not None)))
"""
"""Runs one command in a new process and writes the modules it loaded to a file (a name
set aside with None, so that it is not imported, is not among them)."""


def loaded_by(tmp_path: Path, *arguments: str, path: Path | None = None) -> set[str]:
    """The modules `claimledger ARGUMENTS` loaded, by their names and their packages' (with
    `path` first on the module search path)."""
    listing = tmp_path / "loaded.txt"
    subprocess.run(
        [sys.executable, "-c", LOADED_BY, str(listing), *arguments],
        capture_output=True,
        check=True,
        timeout=120,
        env=None if path is None else {**os.environ, "PYTHONPATH": str(path)},
    )
    names: set[str] = set(ast.literal_eval(listing.read_text()))
    return names | {name.split(".")[0] for name in names}


def test_a_command_that_only_reads_the_evidence_takes_no_lock(tmp_path: Path) -> None:
    """The evidence store is opened without a lock by a command that only reads it (the
    writer lock's library loads when a run begins)."""
    from claimledger.evidence.store import EvidenceStore

    ledger = tmp_path / "claims.yaml"
    ledger.write_text((PACKAGE.parents[1] / "claims.yaml").read_text(encoding="utf-8"))
    EvidenceStore.open(tmp_path / "out" / "evidence.sqlite3").close()
    for command in ("regrade", "status"):
        loaded = loaded_by(tmp_path, "--ledger", str(ledger), command)
        assert {"sqlite3", "typer", "yaml"} <= loaded
        assert "filelock" not in loaded, command


READERS = {"lxml", "rapidfuzz", "claimledger.evidence.pageread", "claimledger.reading.extract"}
"""The page reader and the matcher, which a refresh loads only for a page it reads."""


def test_a_refresh_of_unchanged_pages_loads_no_reader_and_asks_for_no_robots_txt(
    tmp_path: Path, page_server: PageServer
) -> None:
    """Every page answers 304 and every verdict is carried over, so nothing is read: the
    extractor and the matcher, the sitemap reader (no page went) and the worker pool's
    processes stay unloaded, and robots.txt, read by the first run, is not asked again.
    Nor is trio imported, which httpcore looks for wherever it is installed."""
    serve_v1(page_server, etags=True)
    ledger = write_ledger(tmp_path, page_server)
    refresh = ("--ledger", str(ledger), "refresh", "--allow-private", "--no-as-read")
    cold = loaded_by(tmp_path, *refresh)
    assert cold >= READERS
    installed = tmp_path / "site"
    (installed / "trio").mkdir(parents=True)
    imported = tmp_path / "trio-imported"
    (installed / "trio" / "__init__.py").write_text(
        f"open({str(imported)!r}, 'w').close()\nraise ImportError('a stand-in')\n"
    )
    warm = loaded_by(tmp_path, *refresh, path=installed)
    assert sorted(warm & (READERS | {"claimledger.evidence.relocate", "multiprocessing"})) == []
    assert not imported.exists()
    assert page_server.hits("/robots.txt") == 1
    asked = [request.headers.get("if-none-match") for request in page_server.page_requests]
    assert len(asked) == 6 and all(asked[3:])  # the second run asked each page for changes


def test_a_drift_with_no_repository_to_ask_loads_no_git_code(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A quote not found as written is looked up in the docs' repository only where its
    page's file is known (a source's repo and path, or the page's edit link): with none
    known, the history step loads nothing, whether the page was read or answered 304."""
    serve_v1(page_server, etags=True)
    ledger = write_ledger(tmp_path, page_server)
    refresh = ("--ledger", str(ledger), "refresh", "--allow-private", "--no-as-read")
    loaded_by(tmp_path, *refresh)
    page_server.set_page("/other", page(ALARM_REWORDED), headers={"ETag": '"o2"'})
    read = loaded_by(tmp_path, *refresh)
    answered = loaded_by(tmp_path, *refresh)  # 304: the drift carried over
    assert "claimledger.reading.extract" in read  # the changed page was read
    for loaded in (read, answered):
        assert "claimledger.evidence.gitrepo" not in loaded
        assert "claimledger.evidence.history" in loaded  # the step ran, and found nothing to ask
