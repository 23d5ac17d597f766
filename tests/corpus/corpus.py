"""The real-drift corpus: load its cases and rendered pages, and re-derive what the text shows.

A case is a quote recorded from a page at an older commit, checked against the page at a
newer commit. This module reads `<name>/cases.yaml`, finds each rendered page under
`.pages/` (built by `build.py`), extracts the text a reader sees with the tool's own
extractor, and checks every label against that text: a label the text contradicts is a
labelling mistake, found before it can flatter or wrong the matcher.

    python tests/corpus/corpus.py list
    python tests/corpus/corpus.py show CORPUS PAGE old|new
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml

from claimledger.reading.extract import extract_text, text_kind
from claimledger.reading.match import TextKind, normalize

HERE = Path(__file__).resolve().parent
PAGES_DIR = HERE / ".pages"

Label = Literal["verified", "drifted", "missing"]
Which = Literal["old", "new"]

LABELS: tuple[Label, ...] = ("verified", "drifted", "missing")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


MEANING_CHANGES = _words(
    """negation-removed negation-added number-changed modal-changed quantifier-changed
    words-swapped qualifier-added qualifier-removed degree-changed effect-changed
    default-changed identifier-changed scope-changed other-meaning"""
)
HARMLESS_CHANGES = _words(
    """reworded reordered shortened extended split merged negation-moved grammar markup
    identifier-renamed"""
)
TAGS = _words(
    """table list code-comment admonition tabs heading short long near-duplicate repeated
    moved-section stable-boilerplate"""
)
DERIVED_TAGS = frozenset({"short", "long", "repeated", "table"})
SHORT_WORDS = 5
LONG_WORDS = 35

_WORD = re.compile(r"\w+(?:['.,\-]\w+)*")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATIONS = _words("not no never cannot without none nor neither nothing n't")


class CorpusError(ValueError):
    """A corpus file is malformed; the message names the file and the entry."""


@dataclass(frozen=True)
class Version:
    """One rendering of a page: the commit it was built from, and any chrome variant."""

    commit: str
    date: str
    chrome: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Page:
    id: str
    path: str
    url: str
    content_type: str
    select: str | None
    old: Version
    new: Version
    boilerplate_changed: bool

    def version(self, which: Which) -> Version:
        return self.old if which == "old" else self.new

    @property
    def kind(self) -> TextKind:
        return text_kind(self.content_type, self.url)


@dataclass(frozen=True)
class Case:
    id: str
    corpus: str
    page: str
    quote: str
    label: Label
    current: str | None
    meaning: str | None
    change: str | None
    tags: frozenset[str]
    note: str


@dataclass(frozen=True)
class Corpus:
    name: str
    repo: str
    generator: str
    site: str
    license: str
    pages: Mapping[str, Page]
    cases: tuple[Case, ...]

    @property
    def file(self) -> Path:
        return HERE / self.name / "cases.yaml"


# --------------------------------------------------------------------------- loading


def corpus_names() -> list[str]:
    return sorted(p.parent.name for p in HERE.glob("*/cases.yaml"))


def load_all(names: Iterable[str] | None = None) -> list[Corpus]:
    return [load(name) for name in (names or corpus_names())]


@cache
def load(name: str) -> Corpus:
    path = HERE / name / "cases.yaml"
    data = yaml.safe_load(path.read_text("utf-8"))
    where = str(path.relative_to(HERE.parent.parent))
    if not isinstance(data, dict):
        raise CorpusError(f"{where}: expected a mapping")
    for key in ("repo", "generator", "pages", "cases"):
        if key not in data:
            raise CorpusError(f"{where}: missing '{key}'")
    pages = {str(p["id"]): _page(p, where) for p in data["pages"]}
    cases = tuple(_case(name, c, pages, where) for c in data["cases"] or [])
    ids = [case.id for case in cases]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise CorpusError(f"{where}: duplicate case ids {repeated}")
    return Corpus(
        name=name,
        repo=str(data["repo"]),
        generator=str(data["generator"]),
        site=str(data.get("site", "")),
        license=str(data.get("license", "")),
        pages=pages,
        cases=cases,
    )


def _version(data: Any, where: str) -> Version:
    if not isinstance(data, dict) or "commit" not in data:
        raise CorpusError(f"{where}: a version needs a commit")
    return Version(str(data["commit"]), str(data.get("date", "")), dict(data.get("chrome") or {}))


def _page(data: dict[str, Any], where: str) -> Page:
    here = f"{where}: page {data.get('id')!r}"
    for key in ("id", "path", "url", "old", "new"):
        if key not in data:
            raise CorpusError(f"{here}: missing '{key}'")
    return Page(
        id=str(data["id"]),
        path=str(data["path"]),
        url=str(data["url"]),
        content_type=str(data.get("content_type", "text/html")),
        select=data.get("select"),
        old=_version(data["old"], here),
        new=_version(data["new"], here),
        boilerplate_changed=bool(data.get("boilerplate_changed", False)),
    )


def _case(corpus: str, data: dict[str, Any], pages: Mapping[str, Page], where: str) -> Case:
    here = f"{where}: case {data.get('id')!r}"
    for key in ("id", "page", "quote", "label"):
        if key not in data:
            raise CorpusError(f"{here}: missing '{key}'")
    if data["page"] not in pages:
        raise CorpusError(f"{here}: unknown page {data['page']!r}")
    label = data["label"]
    if label not in LABELS:
        raise CorpusError(f"{here}: label {label!r} is not one of {', '.join(LABELS)}")
    tags = frozenset(data.get("tags") or ())
    if not tags <= TAGS:
        raise CorpusError(f"{here}: unknown tags {sorted(tags - TAGS)}")
    meaning, change, current = data.get("meaning"), data.get("change"), data.get("current")
    if label == "drifted":
        if not current or meaning not in ("same", "changed"):
            raise CorpusError(f"{here}: a drifted case needs current and meaning same|changed")
        kinds = MEANING_CHANGES if meaning == "changed" else HARMLESS_CHANGES
        if change not in kinds:
            raise CorpusError(f"{here}: change {change!r} is not one of {sorted(kinds)}")
    elif current or meaning or change:
        raise CorpusError(f"{here}: only a drifted case has current, meaning and change")
    return Case(
        id=str(data["id"]),
        corpus=corpus,
        page=str(data["page"]),
        quote=str(data["quote"]),
        label=label,
        current=None if current is None else str(current),
        meaning=meaning,
        change=change,
        tags=tags,
        note=str(data.get("note", "")),
    )


# --------------------------------------------------------------------------- pages


def page_file(corpus: str, page: Page, which: Which) -> Path:
    """Where build.py puts one rendering of a page."""
    version = page.version(which)
    suffix = "html" if "html" in page.content_type else "txt"
    return PAGES_DIR / corpus / f"{page.id}@{version.commit[:12]}.{which}.{suffix}"


def page_body(corpus: str, page: Page, which: Which) -> str:
    path = page_file(corpus, page, which)
    if not path.exists():
        raise FileNotFoundError(f"{path} is not built: run python tests/corpus/build.py")
    return path.read_text("utf-8")


@cache
def page_text(corpus: str, page_id: str, which: Which) -> str:
    """The text a reader sees on one rendering, as the tool extracts it."""
    page = load(corpus).pages[page_id]
    return extract_text(page_body(corpus, page, which), page.content_type, select=page.select)


def is_built(corpus: Corpus) -> bool:
    return all(
        page_file(corpus.name, page, which).exists()
        for page in corpus.pages.values()
        for which in ("old", "new")
    )


# --------------------------------------------------------------------------- labels from text


def occurrences(quote: str, text: str, kind: TextKind = "text") -> int:
    """How often the quote occurs in the text on word boundaries, after normalisation."""
    needle, haystack = normalize(quote, kind=kind), normalize(text, kind=kind)
    if not needle:
        return 0
    pattern = re.compile(
        (r"(?<!\w)" if needle[0].isalnum() else "")
        + re.escape(needle)
        + (r"(?!\w)" if needle[-1].isalnum() else "")
    )
    return len(pattern.findall(haystack))


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def derived_tags(quote: str, old_text: str, kind: TextKind) -> frozenset[str]:
    """The tags the text itself shows."""
    count = len(words(quote))
    tags = set()
    if count < SHORT_WORDS:
        tags.add("short")
    if count >= LONG_WORDS:
        tags.add("long")
    if occurrences(quote, old_text, kind) > 1:
        tags.add("repeated")
    flat = normalize(quote, kind=kind)
    if any(
        flat and flat in normalize(line, kind=kind) and " | " in line
        for line in old_text.split("\n")
    ):
        tags.add("table")
    return frozenset(tags)


def check_case(case: Case) -> list[str]:
    """What the text contradicts in a case's labels (an empty list: consistent)."""
    corpus = load(case.corpus)
    page = corpus.pages[case.page]
    old, new = page_text(case.corpus, case.page, "old"), page_text(case.corpus, case.page, "new")
    kind = page.kind
    problems = []
    if occurrences(case.quote, old, kind) == 0:
        problems.append("the quote is not on the old page")
    on_new = occurrences(case.quote, new, kind)
    if case.label == "verified" and on_new == 0:
        problems.append("labelled verified, but the quote is not on the new page")
    if case.label != "verified" and on_new > 0:
        problems.append(f"labelled {case.label}, but the quote is on the new page")
    if case.label == "drifted" and case.current is not None:
        if occurrences(case.current, new, kind) == 0:
            problems.append("the expected current wording is not on the new page")
        problems += _change_problems(case)
    derived = derived_tags(case.quote, old, kind)
    for tag in sorted(derived - case.tags):
        problems.append(f"the text shows tag '{tag}', which the case does not declare")
    for tag in sorted((case.tags & DERIVED_TAGS) - derived):
        problems.append(f"the case declares tag '{tag}', which the text does not show")
    if "stable-boilerplate" in case.tags and not page.boilerplate_changed:
        problems.append("tag stable-boilerplate on a page whose chrome did not change")
    return problems


def _change_problems(case: Case) -> list[str]:
    """Kinds of change the words can confirm: numbers and negations."""
    quote_words = [w.lower() for w in words(case.quote)]
    now_words = [w.lower() for w in words(case.current or "")]
    problems = []
    same_digits = set(_NUMBER.findall(case.quote)) <= set(_NUMBER.findall(case.current or ""))
    same_words = not _number_words(quote_words) - _number_words(now_words)
    if case.change == "number-changed" and same_digits and same_words:
        problems.append("change number-changed, but no number of the quote changed")
    if case.change == "negation-removed" and _negations(quote_words) <= _negations(now_words):
        problems.append("change negation-removed, but the current wording keeps every negation")
    if case.change == "negation-added" and _negations(now_words) <= _negations(quote_words):
        problems.append("change negation-added, but the current wording adds no negation")
    return problems


_NUMBER_WORDS = _words(
    "zero one two three four five six seven eight nine ten hundred thousand million"
)


def _number_words(tokens: list[str]) -> set[str]:
    return {t for t in tokens if t in _NUMBER_WORDS}


def _negations(tokens: list[str]) -> set[str]:
    return {t for t in tokens if t in _NEGATIONS or t.endswith("n't")}


# --------------------------------------------------------------------------- command line


def main(argv: list[str]) -> int:
    if argv[:1] == ["list"]:
        for corpus in load_all():
            built = "built" if is_built(corpus) else "not built"
            print(
                f"{corpus.name}: {corpus.repo} ({corpus.generator}), "
                f"{len(corpus.pages)} pages, {len(corpus.cases)} cases, {built}"
            )
        return 0
    if len(argv) == 4 and argv[0] == "show" and argv[3] in ("old", "new"):
        print(page_text(argv[1], argv[2], "old" if argv[3] == "old" else "new"))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
