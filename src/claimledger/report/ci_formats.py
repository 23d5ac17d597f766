"""A refresh's results for CI, as text: GitHub Actions workflow commands and JUnit XML.

Pure, as pip-audit's formats are (`format(result) -> str`): a `RefreshResult` of plain
records in, the whole output out; the CLI picks a format by name and prints it. Both
formats say the same of each quote check, decided once (`verdict`):

    standing of the check              GitHub annotation      JUnit test case
    verified                           none                   passes
    reworded (drifted, same meaning)   ::warning              <failure>
    ambiguous (reworded, several)      ::warning              <failure>
    changed (drifted, meaning changed) ::error                <failure>
    missing, gone (the page 404/410)   ::error                <failure>
    unread (the source failed)         on the source          <error>
    unread, an answer it accepts       none                   <skipped>

and of each source: one that moved, or failed with an answer its `accept_status` does
not list, gets a `::warning` at its id in the ledger (its unread checks are said there
once, not once a quote). So there is an annotation exactly when `refresh` exits 1.

Text from web pages is hostile: it is put on one line, its control characters shown as
their pictures (ESC as ␛) and its bidirectional controls as markers (`⟨U+202E⟩`), and
escaped as each format's rules require.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeAlias

from claimledger.meanings import mark, said_once
from claimledger.records import CheckRecord, FetchRecord, FetchResult, classify
from claimledger.report.bidi import BIDI_CLASS, BIDI_MARKERS
from claimledger.report.cimarks import marks_replaced, text_marks_broken, xml_marks_escaped
from claimledger.urls import has_secrets, safe_url, shown, was_redacted

Fetched: TypeAlias = FetchRecord | FetchResult
Place = tuple[int, int]
"""Line and column in the ledger file, 1-based."""

Outcome = Literal["passed", "failure", "error", "skipped"]
Level = Literal["error", "warning"]

MAX_WORDING = 300
"""Characters of a page's wording an annotation quotes at most (the UI cuts long ones)."""


@dataclass(frozen=True)
class RefreshResult:
    """What one refresh found, with where each quote and source is written in the ledger.

    `ledger` is the file as the annotations name it (relative to the working directory,
    where a CI job's checkout is); `accepted` the URLs that answered a status their
    source lists in `accept_status` (no evidence either way, and no failure).
    """

    ledger: str
    checks: Sequence[CheckRecord]
    fetches: Sequence[Fetched]
    accepted: frozenset[str] = frozenset()
    quote_places: Mapping[tuple[str, int], Place] = field(default_factory=dict)
    source_places: Mapping[str, Place] = field(default_factory=dict)

    def quote_place(self, check: CheckRecord) -> Place:
        return self.quote_places.get((check.claim_id, check.quote_index), (1, 1))

    def source_place(self, source_id: str) -> Place:
        return self.source_places.get(source_id, (1, 1))


class RefreshFormat(Protocol):
    """One way to print a refresh's results."""

    @property
    def name(self) -> str:
        """How --format names it."""
        ...

    def format(self, result: RefreshResult) -> str:
        """The whole output, ending in a newline (empty when there is nothing to say)."""
        ...


# --------------------------------------------------------------------------- verdicts


@dataclass(frozen=True)
class Verdict:
    """What one check says, for CI: its outcome, the annotation it needs (if any), and
    what to tell a reader in a short `label` and a one-line `message`."""

    check: CheckRecord
    outcome: Outcome
    level: Level | None
    label: str
    message: str


def verdict(check: CheckRecord, fetch: Fetched | None, accepted: bool) -> Verdict:
    """The one rule both formats follow (see the table in the module's docstring)."""
    where = f"{check.claim_id} quote {check.quote_index + 1} on {check.source_id}"
    standing = classify(check)
    if standing == "verified":
        return Verdict(check, "passed", None, "verified", f"{where}: verified")
    if accepted:  # as `refresh` counts it: an answer the source accepts is no evidence
        answer = _answer(fetch, check.source_status)
        message = f"{where}: not checked: {answer}, which its source accepts"
        return Verdict(check, "skipped", None, "not checked", message)
    if standing == "unread":
        answer = _answer(fetch, check.source_status)
        label = f"unread ({check.source_status})"
        message = f"{where}: unread: the source is {check.source_status}: {answer}"
        return Verdict(check, "error", None, label, message)
    if standing == "gone":
        label = "gone"
        said = f"the page answers {_answer(fetch, 'gone')}"
    elif standing == "missing":
        label = "missing"
        said = _closest(check)
    else:
        label = {"reworded": "drifted", "changed": "meaning changed"}.get(standing, standing)
        if standing == "changed" and check.change_kinds:
            label += f" ({', '.join(check.change_kinds)})"
        if standing == "ambiguous" and check.occurrences > 1:
            label += f" (reworded in {check.occurrences} places)"
        said = f"the page now says: “{_wording(check.current or '')}”"
    level: Level = "error" if standing in ("changed", "missing", "gone") else "warning"
    return Verdict(check, "failure", level, label, f"{where}: {label}; {said}")


def _answer(fetch: Fetched | None, status: str) -> str:
    """How a page answered, in a few words: its error, else its status."""
    if fetch is not None and fetch.error:
        return one_line(fetch.error)
    if fetch is not None and fetch.http_status is not None:
        return f"HTTP {fetch.http_status}"
    return status


def _closest(check: CheckRecord) -> str:
    if not check.closest:
        return "no similar passage is left on the page"
    said = f"the closest passage left: “{_wording(check.closest)}”"
    if check.closest_kinds:
        said += f", which contradicts it ({', '.join(check.closest_kinds)})"
    if check.near_miss:
        said += "; a close call: it is nearly alike enough to be the quote reworded"
    return said


def _wording(text: str) -> str:
    flat = one_line(text)
    return flat if len(flat) <= MAX_WORDING else flat[: MAX_WORDING - 1].rstrip() + "…"


def verdicts(result: RefreshResult) -> list[Verdict]:
    """Every check's verdict, in the order the ledger lists the quotes."""
    fetches = {fetch.url: fetch for fetch in result.fetches}
    ordered = sorted(
        result.checks,
        key=lambda c: (result.quote_place(c), c.claim_id, c.quote_index, c.source_id),
    )
    return [verdict(c, fetches.get(c.url), c.url in result.accepted) for c in ordered]


@dataclass(frozen=True)
class SourceNote:
    """A source that needs a look of its own: it moved, or failed (not as it is known to)."""

    source_id: str
    fetch: Fetched
    message: str


def source_notes(result: RefreshResult) -> list[SourceNote]:
    """One note per source that moved or failed, in ledger order. A source that is gone
    says so in each of its checks (an error each), so it has no note of its own."""
    ids: dict[str, set[str]] = {}
    unread: dict[str, int] = {}
    for check in result.checks:
        ids.setdefault(check.url, set()).add(check.source_id)
        if check.status is None:
            unread[check.source_id] = unread.get(check.source_id, 0) + 1
    notes = []
    for fetch in {fetch.url: fetch for fetch in result.fetches}.values():
        status = fetch.source_status
        for source_id in sorted(ids.get(fetch.url, ())):
            if status == "moved":
                new = fetch.moved_to or fetch.final_url
                there = sorted(ids.get(new, set()) - {source_id})  # (`move` would refuse)
                adopt = (
                    f"source {source_id} --merge-into {there[0]}" if there else f"move {source_id}"
                )
                if has_secrets(new) or was_redacted(new):  # `move` refuses it as kept
                    adopt = f"move {source_id} NEW_URL"
                message = (
                    f"source {source_id} moved: {shown(fetch.url)} now leads to "
                    f"{shown(new)}; adopt it with `claimledger {adopt}`"
                )
            elif status in ("ok", "gone") or fetch.url in result.accepted:
                continue
            else:
                count = unread.get(source_id, 0)
                checks = "quote check is" if count == 1 else "quote checks are"
                message = (
                    f"source {source_id} is {status}: {_answer(fetch, status)} "
                    f"({shown(fetch.url)}); its {count} {checks} unread (no evidence either way)"
                )
            notes.append(SourceNote(source_id, fetch, message))
    return sorted(notes, key=lambda note: (result.source_place(note.source_id), note.source_id))


# --------------------------------------------------------------------------- GitHub


@dataclass(frozen=True)
class GithubFormat:
    """GitHub Actions workflow commands, one line each: `::error` or `::warning` with the
    ledger's file, line and column, so each shows on the quote's line in the ledger."""

    name: str = "github"

    def format(self, result: RefreshResult) -> str:
        lines = []
        for found in verdicts(result):
            if found.level is None:
                continue
            check = found.check
            title = f"claimledger: {check.claim_id} quote {check.quote_index + 1} {found.label}"
            line, col = result.quote_place(check)
            lines.append(
                workflow_command(found.level, found.message, result.ledger, line, col, title)
            )
        for note in source_notes(result):
            line, col = result.source_place(note.source_id)
            title = f"claimledger: source {note.source_id} {note.fetch.source_status}"
            lines.append(workflow_command("warning", note.message, result.ledger, line, col, title))
        return "".join(f"{line}\n" for line in lines)


def workflow_command(level: Level, message: str, file: str, line: int, col: int, title: str) -> str:
    """`::LEVEL file=…,line=…,col=…,title=…::MESSAGE`, each part escaped by the runner's
    rules (its toolkit's `escapeProperty` and `escapeData`); the title and message on one
    line, the file's name as it is (escaped, a line break in it still names the file).
    The runner reads this line, and obeys a `##[command]` anywhere in it: a `##[` in a
    page's words in the title or message, or in the file's name a checkout chose, is
    broken by a zero-width space (it reads the same), as every view does it under a
    runner (`report.cimarks`)."""
    title = text_marks_broken(one_line(title))
    file = marks_replaced(file, "#\u200b", ":")  # its colons are escaped as a property's
    properties = {"file": file, "line": str(line), "col": str(col), "title": title}
    listed = ",".join(f"{key}={escape_property(v)}" for key, v in properties.items())
    return f"::{level} {listed}::{escape_data(text_marks_broken(one_line(message)))}"


def escape_data(text: str) -> str:
    """A command's message: `%`, CR and LF as %25, %0D and %0A."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A command's property value: as data, and `:` and `,` as %3A and %2C."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


# --------------------------------------------------------------------------- JUnit


@dataclass(frozen=True)
class JunitFormat:
    """JUnit XML: a `<testsuite>` per source, a `<testcase>` per quote check on it
    (classname the claim, name `quote N on SOURCE`), in the dialect of the Jenkins xUnit
    plugin's junit-10.xsd, which GitLab, Jenkins and the test-report actions read."""

    name: str = "junit"

    def format(self, result: RefreshResult) -> str:
        found = verdicts(result)
        fetches = {fetch.url: fetch for fetch in result.fetches}
        notes = {note.source_id: note for note in source_notes(result)}
        suites: dict[str, list[Verdict]] = {}
        for item in found:
            suites.setdefault(item.check.source_id, []).append(item)
        order = sorted(suites, key=lambda s: (result.source_place(s), s))
        root = ET.Element("testsuites", name="claimledger refresh")
        for source_id in order:
            cases = suites[source_id]
            fetch = fetches.get(cases[0].check.url)
            root.append(_suite(result, source_id, cases, fetch, notes.get(source_id)))
        _count(root, found, sum(fetch.elapsed for fetch in fetches.values()))
        ET.indent(root)
        body = xml_marks_escaped(ET.tostring(root, encoding="unicode"))
        return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'


def _suite(
    result: RefreshResult,
    source_id: str,
    cases: Sequence[Verdict],
    fetch: Fetched | None,
    note: SourceNote | None,
) -> ET.Element:
    first = cases[0].check
    suite = ET.Element("testsuite", name=source_id)
    _count(suite, cases, fetch.elapsed if fetch else 0.0)
    suite.set("skipped", str(sum(item.outcome == "skipped" for item in cases)))
    suite.set("timestamp", first.checked_at.isoformat(timespec="seconds"))
    suite.set("file", xml_text(result.ledger))
    properties = ET.SubElement(suite, "properties")
    facts = {
        "url": shown(first.url),
        "source_status": fetch.source_status if fetch else first.source_status,
        "http_status": str(fetch.http_status) if fetch and fetch.http_status else "",
        "moved_to": shown(fetch.moved_to) if fetch and fetch.moved_to else "",
    }
    for name, value in facts.items():
        if value:
            ET.SubElement(properties, "property", name=name, value=xml_text(value))
    for item in cases:
        suite.append(_case(result, item))
    if note is not None:
        ET.SubElement(suite, "system-out").text = xml_text(note.message)
    return suite


def _case(result: RefreshResult, item: Verdict) -> ET.Element:
    check = item.check
    case = ET.Element(
        "testcase",
        classname=xml_text(check.claim_id),
        name=xml_text(f"quote {check.quote_index + 1} on {check.source_id}"),
        time="0",
    )
    if item.outcome == "passed":
        return case
    element = {"failure": "failure", "error": "error", "skipped": "skipped"}[item.outcome]
    kind = check.status or check.source_status
    detail = ET.SubElement(case, element, type=kind, message=xml_text(one_line(item.message)))
    detail.text = xml_text(_details(result, item))
    return case


def _details(result: RefreshResult, item: Verdict) -> str:
    """The body of a failure: the quote, what the page says now, each changed word."""
    check = item.check
    line, col = result.quote_place(check)
    lines = [
        item.message,
        f"quote: {check.quote_text}",
        f"source: {check.source_id} ({shown(check.url)})",
    ]
    if check.current and check.status != "verified":
        lines.append(f"page now says: {check.current}")
        if check.closest:
            lines.append(f"a close call, the page also says: {check.closest}")
    elif check.closest:
        close = " (a close call: it may be the quote reworded)" if check.near_miss else ""
        lines.append(f"closest passage left{close}: {check.closest}")
    for change, kinds in said_once(check.changed_words):
        sign = mark(change) or "-"
        kind = f" ({kinds})" if kinds else ""
        if change.op == "replace":
            lines.append(f"{sign} “{change.quote}” -> “{change.page}”{kind}")
        elif change.op == "delete":
            lines.append(f"{sign} removed: “{change.quote}”{kind}")
        else:
            lines.append(f"{sign} added: “{change.page}”{kind}")
    lines.append(f"ledger: {result.ledger}:{line}:{col}")
    return "\n".join(one_line(text) for text in lines) + "\n"


def _count(element: ET.Element, items: Iterable[Verdict], seconds: float) -> None:
    outcomes = [item.outcome for item in items]
    element.set("tests", str(len(outcomes)))
    element.set("failures", str(outcomes.count("failure")))
    element.set("errors", str(outcomes.count("error")))
    element.set("time", f"{max(seconds, 0.0):.3f}")


# --------------------------------------------------------------------------- the drift list


def drift_list(
    ledger: str,
    checks: Iterable[Mapping[str, Any]],
    sources: Iterable[Mapping[str, Any]],
    run_url: str,
) -> tuple[str, int, str]:
    """What drifted, as GitHub-flavoured Markdown (the action's job summary and the drift
    issue's body), how many entries it lists, and the pages that could not be read (for
    the summary only: a page unread is no drift, so it files no issue). Drift is each
    quote that is not as read (from `diff --json`'s checks), with the page's wording
    now, and each source gone or moved (from `status --json`'s sources).

    GitHub renders Markdown with raw HTML, autolinks and @mentions, and nearly all of this
    comes from pages, redirects and a cloned ledger: an address is shown percent-encoded
    in a code span (`gfm_url`), a page's wording in a fenced block longer than any run of
    backticks in it (`gfm_block`), any other text in a code span or escaped, so nothing
    untrusted becomes a link, an image, HTML or a mention."""
    failed = [source for source in sources if source.get("source_status") != "ok"]
    entries = [_check_entry(check) for check in checks if _drifted(check)]
    entries += [_source_entry(s) for s in failed if s.get("source_status") in _DRIFTED_PAGES]
    unread = [_source_entry(s) for s in failed if s.get("source_status") not in _DRIFTED_PAGES]
    lines = [line for entry in entries for line in entry]
    body = "\n".join(lines) if lines else "Every quote is verified on every source."
    run = safe_url(run_url)
    by = f" ([the run]({run}))" if run else ""
    text = f"What drifted in {gfm_code(ledger)}, by claimledger{by}:\n\n{body}\n"
    could_not = "\n".join(line for entry in unread for line in entry)
    said = f"\nCould not be read (no evidence either way):\n\n{could_not}\n" if unread else ""
    return text, len(entries), said


_DRIFTED_PAGES = frozenset({"gone", "moved"})
"""Source states that are drift; any other failure is a page that could not be read."""


def _drifted(check: Mapping[str, Any]) -> bool:
    """A check the list names: read, and not verified (an unread one's source is listed)."""
    return check.get("status") not in ("verified", None)


def _check_entry(check: Mapping[str, Any]) -> list[str]:
    what = _word(check.get("status"))
    if check.get("meaning_changed") is True:
        what += ", and its meaning changed"
    claim = gfm_code(_text(check.get("claim_id")))
    head = f"- claim {claim}: {what}, on {gfm_url(check.get('url'))}"
    wording = [f"was: {_text(check.get('quote_text'))}"]
    if check.get("current"):
        wording.append(f"now: {_text(check.get('current'))}")
    return [head, *gfm_block(wording, indent="  ")]


def answer_said(source_status: str | None, http_status: int | None) -> str:
    """ " (HTTP 404)": how a page answered, as every report says it; for a page gone
    though it answered (a permanent redirect to a page without its quotes, a landing
    page), that instead of "(HTTP 200)", which reads as a page that is there."""
    if not http_status:
        return ""
    if source_status == "gone" and http_status < 300:
        return " (redirected for good to a page without its quotes)"
    return f" (HTTP {http_status})"


def _source_entry(source: Mapping[str, Any]) -> list[str]:
    status = source.get("http_status")
    http = answer_said(source.get("source_status"), status) if type(status) is int else ""
    moved = f", now at {gfm_url(source['moved_to'])}" if source.get("moved_to") else ""
    status_word = _word(source.get("source_status"))
    return [f"- source {gfm_url(source.get('url'))}: {status_word}{http}{moved}"]


_WORD = re.compile(r"[a-z]+(?: [a-z]+)*")


def _word(value: Any) -> str:
    """One of our own status words, as it is; anything else in a code span."""
    text = str(value)
    return text if _WORD.fullmatch(text) else gfm_code(text)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def gfm_code(text: str) -> str:
    """`text` as a GitHub code span, shown literally (no link, image, HTML or mention can
    come out of one): on one line, its controls shown, between runs of backticks longer
    than any inside it, and padded with a space where it starts or ends with a backtick
    or a space (CommonMark takes one such space off each end)."""
    flat = one_line(text) or " "
    ticks = "`" * (max((len(run) for run in re.findall("`+", flat)), default=0) + 1)
    pad = " " if flat[0] in "` " or flat[-1] in "` " else ""
    return f"{ticks}{pad}{flat}{pad}{ticks}"


def gfm_url(url: Any) -> str:
    """An address as GitHub Markdown shows it: in a code span (no autolink), as `safe_url`
    gives it (percent-encoded, no secret), or a placeholder for one that is no web URL."""
    return gfm_code(safe_url(url if isinstance(url, str) else None) or "(not an http(s) URL)")


def gfm_block(lines: Sequence[str], *, indent: str = "") -> list[str]:
    """Lines of untrusted text as a fenced code block (language `text`), each on one line
    with its controls shown, the fence longer than any run of backticks in them."""
    flat = [one_line(line) for line in lines]
    ticks = max((len(run) for line in flat for run in re.findall("`+", line)), default=0)
    fence = "`" * max(3, ticks + 1)
    return [f"{indent}{fence}text", *(f"{indent}{line}" for line in flat), f"{indent}{fence}"]


# --------------------------------------------------------------------------- text


FORMATS: Mapping[str, RefreshFormat] = {"github": GithubFormat(), "junit": JunitFormat()}
"""The CI formats by name (`refresh --format`; text and json are the CLI's own)."""

_BREAKS = re.compile(r"\s*(?:\r\n|[\r\n\v\f\x1c-\x1e\x85\u2028\u2029])\s*")
_CONTROLS = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CLASS}]")
_XML_CONTROLS = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{BIDI_CLASS}]")
_NOT_XML = re.compile("[\ufffe\uffff\ud800-\udfff]")
"""What XML 1.0 cannot hold besides the C0 controls: the two non-characters, and a lone
surrogate (a page decoded with `surrogateescape`)."""


def one_line(text: str) -> str:
    """`text` on one line, its control characters shown (see `visible`)."""
    return visible(_BREAKS.sub(" ", text).replace("\t", " ")).strip()


def visible(text: str) -> str:
    """Control characters as their Unicode pictures (ESC as ␛, NUL as ␀), DEL as ␡ and
    the C1 controls as �, so no page can drive the terminal or log that shows them; each
    bidirectional control as its marker (`⟨U+202E⟩`), so none can reorder the line."""
    return _CONTROLS.sub(_picture, text)


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code in BIDI_MARKERS:
        return BIDI_MARKERS[code]
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else "\ufffd"


def xml_text(text: str) -> str:
    """Text that XML 1.0 can hold: tabs and line breaks kept, every other control shown as
    its picture (a bidirectional one as its marker), and the characters XML has no place
    for (U+FFFE, U+FFFF, a lone surrogate) as U+FFFD. `ElementTree` escapes `<`, `&` and
    quotes itself."""
    return _NOT_XML.sub("\ufffd", _XML_CONTROLS.sub(_picture, text))
