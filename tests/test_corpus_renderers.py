"""The real-drift corpus's files load, its sentence edits are labelled in its vocabulary, and
its Antora, Docusaurus and Sphinx renderers read a
page's sources the way the sites do: Antora's resource IDs, cross references and site macros,
the Docusaurus site a page's URL names, and the Sphinx site's folder, includes, substitutions
and platform blocks."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
sys.path.insert(0, str(CORPUS_DIR))

from renderers import GitRepo, RenderJob, antora, docusaurus  # noqa: E402
from renderers import sphinx as sphinx_renderer  # noqa: E402

from corpus import (  # noqa: E402
    HARMLESS_CHANGES,
    MEANING_CHANGES,
    check_case,
    corpus_names,
    is_built,
    load,
)

# --------------------------------------------------------------------------- corpus files


@pytest.mark.parametrize("name", corpus_names())
def test_every_corpus_file_loads(name: str) -> None:
    corpus = load(name)
    assert corpus.cases, f"{name} has no cases"
    assert all(case.page in corpus.pages for case in corpus.cases)


@pytest.mark.parametrize("name", ["redpanda", "questdb", "rabbitmq", "minio"])
def test_new_corpora_labels_agree_with_their_text(name: str) -> None:
    corpus = load(name)
    if not is_built(corpus):
        pytest.skip(f"{name}'s pages are not built (tests/corpus/build.py)")
    problems = {case.id: check_case(case) for case in corpus.cases}
    assert {case: found for case, found in problems.items() if found} == {}


@pytest.mark.parametrize(
    "path", sorted((CORPUS_DIR / "pairs").glob("*.yaml")), ids=lambda path: path.stem
)
def test_every_sentence_edit_is_labelled_in_the_corpus_vocabulary(path: Path) -> None:
    corpus = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert corpus["repo"] and corpus["license"] and corpus["pairs"]
    ids = [pair["id"] for pair in corpus["pairs"]]
    assert len(ids) == len(set(ids))
    for pair in corpus["pairs"]:
        kinds = {"changed": MEANING_CHANGES, "same": HARMLESS_CHANGES}[pair["label"]]
        assert pair["change"] in kinds, pair["id"]
        assert pair["old"].strip() and pair["new"].strip() and pair["old"] != pair["new"]
        assert all(c in "0123456789abcdef" for c in pair["commit"]), pair["id"]


# --------------------------------------------------------------------------- antora


def test_antora_resource_ids_name_files_of_this_component(tmp_path: Path) -> None:
    modules = tmp_path / "modules"
    assert antora._resource_path("partial$a/b.adoc", "develop", tmp_path) == (
        modules / "develop" / "partials" / "a" / "b.adoc"
    )
    assert antora._resource_path("manage:partial$x.adoc", "develop", tmp_path) == (
        modules / "manage" / "partials" / "x.adoc"
    )
    assert antora._resource_path("2.0@manage:example$y.yaml", "develop", tmp_path) == (
        modules / "manage" / "examples" / "y.yaml"
    )
    assert antora._resource_path("shared-docs:ROOT:partial$z.adoc", "develop", tmp_path) is None


def test_antora_cross_references_become_site_links(tmp_path: Path) -> None:
    page = tmp_path / "modules" / "manage" / "pages" / "tiered.adoc"
    page.parent.mkdir(parents=True)
    page.write_text("= Use Tiered Storage\n\nText.\n", "utf-8")
    assert antora._xref("manage:tiered.adoc", "", "develop", "", tmp_path) == (
        "link:/current/manage/tiered/[Use Tiered Storage]"
    )
    assert antora._xref("index.adoc#top", "Home", "ROOT", "", tmp_path) == (
        "link:/current/#top[Home]"
    )
    assert antora._xref("./b.adoc", "B", "develop", "produce-data", tmp_path) == (
        "link:/current/develop/produce-data/b/[B]"
    )
    assert antora._xref("#anchor", "here", "develop", "", tmp_path) == "xref:#anchor[here]"


def test_antora_site_macros_become_plain_asciidoc(tmp_path: Path) -> None:
    source = tmp_path / "modules" / "develop" / "pages" / "p.adoc"
    text = (
        "include::partial$note.adoc[]\n"
        "include::other-docs:ROOT:partial$gone.adoc[]\n"
        "A glossterm:RBAC[] check with config_ref:enable_rack_awareness,true,"
        "properties/cluster-properties[] set. badge::[label=beta]\n"
    )
    plain = antora._plain_asciidoc(text, source, tmp_path)
    assert f"include::{tmp_path}/modules/develop/partials/note.adoc[]" in plain
    assert "// include of another component" in plain
    assert "A RBAC check with" in plain
    assert (
        "link:/current/reference/properties/cluster-properties/#enable_rack_awareness"
        "[`enable_rack_awareness`]" in plain
    )
    assert "badge::" not in plain


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("asciidoctor") is None, reason="asciidoctor is not installed")
def test_antora_renders_a_page_with_its_includes_and_chrome(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    files = {
        "antora.yml": "name: ROOT\nversion: '23.2'\nasciidoc:\n  attributes:\n"
        "    full-version: 23.2.3\n    ui: Redpanda Console@\n",
        "modules/ROOT/nav.adoc": "* xref:develop:a.adoc[Produce]\n** xref:develop:b.adoc[]\n",
        "modules/develop/pages/a.adoc": "= Produce Data\n\nVersion {full-version} in {ui}.\n\n"
        "include::develop:partial$acks.adoc[]\n\nSee xref:develop:b.adoc[].\n",
        "modules/develop/partials/acks.adoc": "With `acks=all`, every write is fsynced.\n",
        "modules/develop/pages/b.adoc": "= Consume Data\n",
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, "utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "docs")
    out = tmp_path / "a.html"
    job = RenderJob(
        "a",
        "modules/develop/pages/a.adoc",
        "https://docs.redpanda.com/current/develop/a/",
        "HEAD",
        "new",
        out,
        {"cookie_banner": True},
    )
    antora.render(GitRepo(repo / ".git"), [job])
    html = out.read_text("utf-8")
    assert '<h1 class="page">Produce Data</h1>' in html
    assert "Version 23.2.3 in Redpanda Console." in html
    assert "every write is fsynced" in html
    assert '<a href="/current/develop/b/">Consume Data</a>' in html
    assert 'class="nav-item is-current-page"' in html
    assert 'id="cookie-consent"' in html


# --------------------------------------------------------------------------- docusaurus


def _job(url: str, path: str, chrome: dict[str, object] | None = None) -> RenderJob:
    return RenderJob("p", path, url, "HEAD", "new", Path("out.html"), chrome or {})


def test_docusaurus_branding_follows_the_page_url() -> None:
    questdb = _job("https://questdb.com/docs/concepts/ttl/", "documentation/concepts/ttl.md")
    dbos = _job("https://docs.dbos.dev/python/tutorials/step-tutorial", "docs/python/steps.md")
    other = _job("https://example.org/docs/x/", "docs/x.md")
    assert docusaurus.branding(questdb) is docusaurus.QUESTDB
    assert docusaurus.branding(dbos) is docusaurus.DBOS
    assert docusaurus.branding(other) is docusaurus.DBOS
    assert docusaurus.doc_path(questdb) == "concepts/ttl.md"
    assert docusaurus.doc_path(dbos) == "python/steps.md"
    rabbitmq = _job(
        "https://www.rabbitmq.com/docs/next/quorum-queues", "docs/quorum-queues/index.md"
    )
    assert docusaurus.branding(rabbitmq) is docusaurus.RABBITMQ
    assert docusaurus.doc_path(rabbitmq) == "quorum-queues/index.md"
    assert docusaurus.route(rabbitmq) == "/docs/next/quorum-queues"


def test_docusaurus_sites_build_apart() -> None:
    questdb = _job("https://questdb.com/docs/concepts/ttl/", "documentation/concepts/ttl.md")
    dbos = _job("https://docs.dbos.dev/python/steps", "docs/python/steps.md")
    assert len(docusaurus.groups([questdb, dbos])) == 2
    config = docusaurus.site_config({"announcement": True}, docusaurus.QUESTDB)
    assert '"title": "QuestDB"' in config
    assert "QuestDB Enterprise adds replication" in config
    assert "DBOS" not in config


# --------------------------------------------------------------------------- sphinx


def test_sphinx_site_follows_the_page_url() -> None:
    minio = sphinx_renderer.site_for("https://min.io/docs/minio/linux/operations/concepts.html")
    celery = sphinx_renderer.site_for("https://docs.celeryq.dev/en/stable/userguide/tasks.html")
    other = sphinx_renderer.site_for("https://example.org/docs/x.html")
    assert minio is sphinx_renderer.MINIO
    assert celery is sphinx_renderer.CELERY
    assert other is sphinx_renderer.CELERY
    assert sphinx_renderer._docname("source/operations/concepts.rst", minio) == (
        "operations/concepts"
    )


def test_sphinx_absolute_includes_are_under_the_source_folder() -> None:
    text = ".. include:: /includes/common.rst\n.. include:: ../shared/part.rst\n"
    assert list(sphinx_renderer._included("source/a/b.rst", text, "source")) == [
        "source/includes/common.rst",
        "source/shared/part.rst",
    ]


def test_sphinx_renders_a_minio_page_for_its_platform(tmp_path: Path) -> None:
    pytest.importorskip("pydata_sphinx_theme")
    repo = tmp_path / "repo"
    files = {
        "source/operations/page.rst": "=========\nThe Page\n=========\n\n"
        "Runs on |SNMD| hosts.\n\n"
        ".. cond:: linux\n\n   Linux drives are formatted as XFS.\n\n"
        ".. cond:: windows\n\n   Windows drives use NTFS.\n\n"
        ".. include:: /includes/common.rst\n",
        "source/includes/common.rst": "See :octicon:`circle` and :mc:`healing`.\n",
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, "utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "docs")
    out = tmp_path / "page.html"
    job = RenderJob(
        "page",
        "source/operations/page.rst",
        "https://min.io/docs/minio/linux/operations/page.html",
        "HEAD",
        "new",
        out,
        {},
    )
    sphinx_renderer.render(GitRepo(repo / ".git"), [job])
    html = out.read_text("utf-8")
    assert "Linux drives are formatted as XFS." in html
    assert "NTFS" not in html
    assert "Single-Node Multi-Drive" in html
    assert ":octicon:" not in html
    assert "healing" in html
    assert "MinIO Object Storage for Linux" in html
