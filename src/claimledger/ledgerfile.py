"""Writing claims.yaml back: surgical, locked, compared, atomic.

The ledger is the author's file, so an edit changes only the lines it must: a grade
is replaced where it stands, a history entry is one new line under the claim, a new
claim is a block appended after the last one. Everything else, comments, key order,
quoting and blank lines, stays byte for byte. (A round-trip dump cannot promise that:
appending to a mapping moves the blank lines and comments that trail its last value.)

Every write is the fix for the lost-update race the model teardown describes: take
the lock, re-read the file, apply the edit to what is on disk *now*, validate the
result, check the file did not change behind the lock (an editor does not take it),
write a temporary file in the same directory, fsync, and atomically replace.
"""

from __future__ import annotations

import codecs
import contextlib
import datetime as dt
import re
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from filelock import FileLock, Timeout

from claimledger.accept import Adoption
from claimledger.atomicfile import refuse_links, replace_atomically
from claimledger.errors import ConflictError, EnvironmentProblem, InputError, LedgerError
from claimledger.ledger import Grade, Ledger, parse
from claimledger.safeyaml import Composer
from claimledger.urls import shown

NodePath = Sequence[str | int]
Change = Callable[[str, Ledger], str]
"""Given the file's current text and its ledger, return the new text."""

LOCK_TIMEOUT = 60.0
COMPARE_RETRIES = 5

MAX_LEDGER_BYTES = 64 * 1024 * 1024
"""Room for some 300,000 claims; anything larger is a mistake, not a ledger."""


# --------------------------------------------------------------------------- reading


def load(path: Path) -> Ledger:
    """Read, check and build the ledger at `path`, or raise with every problem in it."""
    return parse(read_ledger_text(path), str(path))


def read_ledger_text(path: Path) -> str:
    """The file's text, with a one-line error for every way reading it can fail."""
    name = str(path)
    if not path.exists():
        raise InputError(f"{name}: no such file (create one with `claimledger init`)")
    if path.is_dir():
        raise InputError(f"{name}: is a directory, not a ledger file")
    try:
        with path.open("rb") as file:  # read at most the cap: /dev/zero has no size
            data = file.read(MAX_LEDGER_BYTES + 1)
        if len(data) > MAX_LEDGER_BYTES:
            raise InputError(f"{name}: larger than {MAX_LEDGER_BYTES // 2**20} MiB; not a ledger")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"{name}: not UTF-8 text (byte {err.start})") from None
    except OSError as err:
        raise InputError(f"{name}: cannot be read: {err.strerror}") from None


# --------------------------------------------------------------------------- the write


def update(path: Path, change: Change, *, lock_timeout: float = LOCK_TIMEOUT) -> Ledger:
    """Apply `change` to the ledger at `path` under its lock; return the ledger written.

    A disk that is full, read-only or forbids the lock or the write is an
    EnvironmentProblem, and the ledger is left as it was.
    """
    path = path.resolve()  # through a symlink: edit, and lock, the file it points to
    try:
        return _update(path, change, lock_timeout)
    except OSError as error:
        raise EnvironmentProblem.of(error, path) from None


def _update(path: Path, change: Change, lock_timeout: float) -> Ledger:
    with _locked(path, lock_timeout):
        _remove_stale_temporaries(path)
        for _ in range(COMPARE_RETRIES):
            text = read_ledger_text(path)
            new_text = change(text, parse(text, str(path)))
            ledger = _parse_own_edit(new_text, path)
            if new_text == text:
                return ledger
            if read_ledger_text(path) == text:  # nobody wrote behind the lock meanwhile
                _replace_atomically(path, new_text)
                return ledger
    raise ConflictError(
        f"{path}: keeps changing while being written; close other editors and retry"
    )


def _parse_own_edit(text: str, path: Path) -> Ledger:
    """The edited ledger; an edit of ours that breaks it is our bug, never the author's."""
    try:
        return parse(text, str(path))
    except LedgerError as error:
        raise RuntimeError(
            f"an edit of {path} would make it invalid: {error.problems[0]}"
        ) from None


def lock_path(path: Path) -> Path:
    """The lock beside the ledger; replacing the ledger cannot replace its lock."""
    return path.with_name(f".{path.name}.lock")


@contextlib.contextmanager
def _locked(path: Path, timeout: float) -> Iterator[None]:
    refuse_links(lock_path(path))  # opening a planted link would truncate what it names
    try:
        with FileLock(lock_path(path), timeout=timeout):
            yield
    except Timeout:
        raise InputError(
            f"{path}: another claimledger command has held its lock for {timeout:.0f} s"
        ) from None


def _temporary_prefix(path: Path) -> str:
    return f".{path.name}."


def _remove_stale_temporaries(path: Path) -> None:
    """Temporaries left by a writer killed mid-write; safe to remove under the lock."""
    for stale in path.parent.glob(f"{_temporary_prefix(path)}*.tmp"):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()


def _replace_atomically(path: Path, text: str) -> None:
    data = text.encode("utf-8")
    with path.open("rb") as current:  # the text was read without its byte order mark
        if current.read(len(codecs.BOM_UTF8)) == codecs.BOM_UTF8:
            data = codecs.BOM_UTF8 + data
    replace_atomically(path, data, prefix=_temporary_prefix(path))


# --------------------------------------------------------------------------- a new ledger


def starter_ledger() -> str:
    """The text of the ledger `init` writes: one claim on a page that never changes."""
    return resources.files("claimledger").joinpath("data/init/claims.yaml").read_text("utf-8")


def scaffold(directory: Path, files: Mapping[str, str]) -> list[Path]:
    """Create each file (a name under `directory`, and its text); return their paths.

    Refuses before writing anything when any of them already exists (a scaffold never
    overwrites an author's file), and leaves none of them behind when one cannot be made.
    """
    paths = {directory / name: text for name, text in files.items()}
    for path in paths:
        if not path.is_symlink():  # a link at a file itself: "already exists", below
            refuse_links(path.parent, below=directory)
    existing = [path for path in paths if path.exists() or path.is_symlink()]
    if existing:
        names = ", ".join(str(path) for path in existing)
        raise InputError(f"{names}: already exists; init never overwrites")
    created: list[Path] = []
    try:
        for path, text in paths.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("x", encoding="utf-8") as file:
                created.append(path)
                file.write(text)
    except OSError as error:  # a file where a directory should be, no permission, ...
        for path in created:  # all or nothing
            path.unlink(missing_ok=True)
        where = error.filename or directory
        raise InputError(f"cannot create {where}: {error.strerror or error}") from None
    return list(paths)


# --------------------------------------------------------------------------- text surgery


def _tree(text: str, ledger: Ledger) -> yaml.Node:
    """The node tree of `text`: the one `ledger` was parsed to when it was parsed from this
    very text (as `update` hands it over), else read afresh."""
    parsed = ledger.parsed_from
    if parsed is not None and parsed.text == text and isinstance(parsed.tree, yaml.Node):
        return parsed.tree
    return _compose(text)


def _compose(text: str) -> yaml.Node:
    """The text's node tree, whose marks index the text's characters: by libyaml, as the
    loader reads it, except for a text holding a byte order mark anywhere, which libyaml
    does not count (the pure-Python composer does)."""
    loader = yaml.SafeLoader if "\ufeff" in text else Composer
    node = yaml.compose(text, Loader=loader)
    assert node is not None  # the text was validated before any edit
    return node


def _node_at(root: yaml.Node, path: NodePath) -> yaml.Node:
    node = root
    for part in path:
        if isinstance(part, int):
            assert isinstance(node, yaml.SequenceNode)
            node = node.value[part]
        else:
            assert isinstance(node, yaml.MappingNode)
            node = next(value for key, value in node.value if key.value == part)
    return node


def _has_key(root: yaml.Node, path: NodePath, key: str) -> bool:
    node = _node_at(root, path)
    return isinstance(node, yaml.MappingNode) and any(k.value == key for k, _ in node.value)


Edit = tuple[int, int, str]
"""Replace `text[start:end]` with the string: every change of the file is a list of these,
computed on one parse of the text and applied in one pass (`apply_edits`)."""


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """The text with every edit made, each at the place it names in the original.

    Edits at one place land in the order given; edits never overlap.
    """
    pieces: list[str] = []
    cursor = len(text)
    ordered = sorted(enumerate(edits), key=lambda item: (item[1][0], item[0]), reverse=True)
    for _, (start, end, replacement) in ordered:
        assert end <= cursor, "edits overlap"
        pieces.append(text[end:cursor])
        pieces.append(replacement)
        cursor = start
    pieces.append(text[:cursor])
    return "".join(reversed(pieces))


def set_scalar(text: str, path: NodePath, value: str) -> str:
    """Replace one scalar value, keeping its quoting style where the value allows it."""
    return apply_edits(text, [_scalar_edit(text, _node_at(_compose(text), path), value)])


def _scalar_edit(text: str, node: yaml.Node, value: str) -> Edit:
    assert isinstance(node, yaml.ScalarNode)
    style = node.style if node.style in ('"', "'") else None
    return node.start_mark.index, _scalar_end(text, node), _render_scalar(value, style)


def _scalar_end(text: str, node: yaml.ScalarNode) -> int:
    """A block scalar's span swallows the blank lines after it; keep those in place."""
    end = node.end_mark.index
    if node.style in ("|", ">"):
        end = len(text[:end].rstrip())
    return end


def _render_scalar(value: str, style: str | None) -> str:
    if style is None and "\n" in value:
        style = '"'
    dumped = yaml.safe_dump(value, default_style=style, width=2**31 - 1, allow_unicode=True)
    dumped = dumped.removesuffix("\n...\n").removesuffix("\n")
    if style is None and yaml.safe_load(dumped) != value:
        return _render_scalar(value, '"')
    return dumped


def append_item(text: str, seq_path: NodePath, item: Any) -> str:
    """Append `item` to the block sequence at `seq_path`, as one flow-style line."""
    return apply_edits(text, [_append_items_edit(text, _node_at(_compose(text), seq_path), [item])])


def _append_items_edit(text: str, seq: yaml.Node, items: Sequence[Any]) -> Edit:
    """Items appended to a sequence: one flow-style line each in a block sequence, or
    `, item` after the last item of a flow one (touching nothing else)."""
    assert isinstance(seq, yaml.SequenceNode)
    if seq.flow_style:
        flow = ", ".join(_render_flow(item) for item in items)
        if not seq.value:
            close = text.rindex("]", seq.start_mark.index, seq.end_mark.index)
            return close, close, flow
        after_last = seq.value[-1].end_mark.index
        return after_last, after_last, ", " + flow
    dash_column = _dash_column(text, seq.value[0])
    lines = "".join(" " * dash_column + "- " + _render_flow(item) + "\n" for item in items)
    return _insert_lines_edit(text, _after_content(text, seq), lines)


def add_key(text: str, map_path: NodePath, key: str, value: Any) -> str:
    """Add `key: value` as the last entry of the mapping at `map_path`.

    A block mapping gains a block entry; a flow mapping (`{a: 1}`) gains `, key: value`
    before its brace; an empty one (`{}`, as an author starts a ledger) becomes a block.
    """
    return apply_edits(text, [_add_key_edit(text, _node_at(_compose(text), map_path), key, value)])


def _add_key_edit(text: str, mapping: yaml.Node, key: str, value: Any) -> Edit:
    assert isinstance(mapping, yaml.MappingNode)
    if mapping.flow_style and mapping.value:
        close = text.rindex("}", mapping.start_mark.index, mapping.end_mark.index)
        return close, close, f", {_render_scalar(key, None)}: {_render_flow(value)}"
    if not mapping.value:
        column = _key_column(text, mapping) + 2
        block = "\n" + _render_block({key: value}, column).rstrip("\n")
        start = len(text[: mapping.start_mark.index].rstrip(" "))
        return start, mapping.end_mark.index, block
    column = mapping.value[0][0].start_mark.column
    return _insert_lines_edit(
        text, _after_content(text, mapping), _render_block({key: value}, column)
    )


def append_block_item(text: str, seq_path: NodePath, item: Mapping[str, Any]) -> str:
    """Append a mapping to a block sequence in block style, after a blank line.

    A flow sequence with items (`[{id: a}]`) gains the mapping as one more flow item; an
    empty one (`[]`, as an author starts a ledger) becomes a block sequence.
    """
    root = _compose(text)
    seq = _node_at(root, seq_path)
    assert isinstance(seq, yaml.SequenceNode)
    if seq.flow_style and seq.value:
        return append_item(text, seq_path, dict(item))
    if not seq.value:
        key_column = _key_column(text, seq)
        body = _render_block(dict(item), key_column + 4)
        block = "\n" + " " * (key_column + 2) + "- " + body[key_column + 4 :].rstrip("\n")
        return text[: seq.start_mark.index].rstrip(" ") + block + text[seq.end_mark.index :]
    dash_column = _dash_column(text, seq.value[0])
    body = _render_block(dict(item), dash_column + 2)
    block = "\n" + " " * dash_column + "- " + body[dash_column + 2 :]
    at = _after_content(text, seq)
    return _insert_lines(text, at, block)


def _insert_lines(text: str, at: int, lines: str) -> str:
    return apply_edits(text, [_insert_lines_edit(text, at, lines)])


def _insert_lines_edit(text: str, at: int, lines: str) -> Edit:
    """Insert whole lines at a line start `at`.

    At the end of a file whose last line has no newline, the new lines go after a
    newline of their own, and the file still ends without one, as its author keeps it.
    """
    if at == len(text) and text and not text.endswith("\n"):
        return at, at, "\n" + lines.removesuffix("\n")
    return at, at, lines


def _key_column(text: str, node: yaml.Node) -> int:
    """The indentation of the line where `node` starts (the line of its key)."""
    line_start = text.rfind("\n", 0, node.start_mark.index) + 1
    line = text[line_start : node.start_mark.index]
    return len(line) - len(line.lstrip(" "))


def _dash_column(text: str, item: yaml.Node) -> int:
    """The column of the '- ' that introduces a block sequence item."""
    line_start = text.rfind("\n", 0, item.start_mark.index) + 1
    dash = text.rfind("-", line_start, item.start_mark.index)
    return dash - line_start if dash >= 0 else item.start_mark.column


def _after_content(text: str, node: yaml.Node) -> int:
    """The start of the line after the node's last character of content.

    Trailing blank lines and comments stay after whatever is inserted there, so the
    gap between this node and the next one keeps its place.
    """
    last = node
    while isinstance(last, yaml.MappingNode | yaml.SequenceNode) and not last.flow_style:
        last = last.value[-1][1] if isinstance(last, yaml.MappingNode) else last.value[-1]
    if _keeps_trailing_lines(text, last):
        return last.end_mark.index  # its blank lines are part of its value, not the gap
    content_end = len(text[: last.end_mark.index].rstrip())
    newline = text.find("\n", content_end)
    return len(text) if newline < 0 else newline + 1


def _keeps_trailing_lines(text: str, node: yaml.Node) -> bool:
    """A `|+` or `>+` block scalar, whose trailing blank lines belong to its value."""
    if not isinstance(node, yaml.ScalarNode) or node.style not in ("|", ">"):
        return False
    header = text[node.start_mark.index :].split("\n", 1)[0].split("#", 1)[0]
    return "+" in header


def _render_flow(value: Any) -> str:
    dumped = yaml.dump(
        value,
        Dumper=_IndentedDumper,
        default_flow_style=True,
        sort_keys=False,
        width=2**31 - 1,
        allow_unicode=True,
    )
    return dumped.removesuffix("\n...\n").strip()


class _IndentedDumper(yaml.SafeDumper):
    """Indent block sequences under their key (`key:\\n  - item`), as ledgers are written,
    and never write anchors: a value repeated (one date in several history entries) is
    written out each time, since a ledger is read by people."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _render_block(value: dict[str, Any], column: int) -> str:
    dumped = yaml.dump(
        value,
        Dumper=_IndentedDumper,
        default_flow_style=False,
        sort_keys=False,
        width=2**31 - 1,
        allow_unicode=True,
        indent=2,
    )
    pad = " " * column
    return "".join(pad + line if line.strip() else line for line in dumped.splitlines(True))


# --------------------------------------------------------------------------- ledger edits


def claim_index(ledger: Ledger, claim_id: str) -> int:
    return ledger.position(claim_id)  # raises with a did-you-mean when it is not there


def append_history(text: str, ledger: Ledger, claim_id: str, entry: Mapping[str, Any]) -> str:
    """Append one entry to a claim's history, creating the list when it has none."""
    root = _tree(text, ledger)
    return apply_edits(text, [_history_edit(text, root, claim_index(ledger, claim_id), [entry])])


def _history_edit(
    text: str, root: yaml.Node, index: int, entries: Sequence[Mapping[str, Any]]
) -> Edit:
    """New entries at the end of claim `index`'s history, creating the list if it has none."""
    claim = _node_at(root, ("claims", index))
    if _has_key(root, ("claims", index), "history"):
        return _append_items_edit(text, _node_at(claim, ("history",)), [dict(e) for e in entries])
    return _add_key_edit(text, claim, "history", [_FlowMap(entry) for entry in entries])


class _FlowMap(dict[str, Any]):
    """A mapping that renders on one line, as history entries are written."""


def _represent_flow_map(dumper: yaml.SafeDumper, data: _FlowMap) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)


_IndentedDumper.add_representer(_FlowMap, _represent_flow_map)


def history_entry(
    *,
    date: dt.date,
    by: str,
    why: str,
    on: str | None = None,
    from_grade: Grade | None = None,
    to_grade: Grade | None = None,
    quote_was: str | None = None,
    quote_now: str | None = None,
) -> dict[str, Any]:
    """A history entry in the ledger's key order, without empty fields."""
    entry: dict[str, Any] = {
        "date": date,
        "on": on,
        "from": str(from_grade) if from_grade else None,
        "to": str(to_grade) if to_grade else None,
        "quote_was": quote_was,
        "quote_now": quote_now,
        "by": by,
        "why": why,
    }
    return {key: value for key, value in entry.items() if value is not None}


@dataclass(frozen=True)
class GradeChange:
    """A facet's new grade, who changed it and why (a rule's proposal, or a person)."""

    claim_id: str
    on: str | None
    to_grade: Grade
    by: str
    why: str


def set_grades(text: str, ledger: Ledger, changes: Sequence[GradeChange], *, date: dt.date) -> str:
    """Change facets' grades and record each change in its claim's history, in one pass
    over the text, however many there are."""
    root = _tree(text, ledger)
    edits: list[Edit] = []
    entries: dict[int, list[dict[str, Any]]] = {}
    for change in changes:
        claim = ledger.claim(change.claim_id)  # a did-you-mean when it is not there
        facet = claim.facet(change.on)
        index = ledger.position(claim.id)
        path = ("claims", index, "grades", claim.grades.index(facet), "grade")
        edits.append(_scalar_edit(text, _node_at(root, path), str(change.to_grade)))
        entry = history_entry(
            date=date,
            on=facet.on,
            from_grade=facet.grade,
            to_grade=change.to_grade,
            by=change.by,
            why=change.why,
        )
        entries.setdefault(index, []).append(entry)
    edits += [_history_edit(text, root, index, new) for index, new in entries.items()]
    return apply_edits(text, edits)


def set_grade(
    text: str,
    ledger: Ledger,
    claim_id: str,
    on: str | None,
    grade: Grade,
    *,
    by: str,
    why: str,
    date: dt.date,
) -> str:
    """Change one facet's grade and record the change in the claim's history."""
    return set_grades(text, ledger, [GradeChange(claim_id, on, grade, by, why)], date=date)


def replace_quotes(
    text: str, ledger: Ledger, adoptions: Sequence[Adoption], *, date: dt.date
) -> str:
    """Adopt pages' current wordings for quotes, keeping each old wording in its claim's
    history, in one pass over the text."""
    root = _tree(text, ledger)
    edits: list[Edit] = []
    entries: dict[int, list[dict[str, Any]]] = {}
    for adoption in adoptions:
        index = ledger.position(adoption.claim_id)
        quotes = ledger.claims[index].quotes
        if adoption.quote_index >= len(quotes) or quotes[adoption.quote_index].text != adoption.old:
            raise ConflictError(
                f"{adoption.claim_id}: quote #{adoption.quote_index + 1} changed since it was "
                "read; refresh and accept again"
            )
        path = ("claims", index, "quotes", adoption.quote_index, "text")
        edits.append(_scalar_edit(text, _node_at(root, path), adoption.new))
        why = "adopted the page's current wording"
        if adoption.meaning_changed:
            why += " although the change touched a meaning-carrying word"
        entry = history_entry(
            date=date, quote_was=adoption.old, quote_now=adoption.new, by="accept", why=why
        )
        entries.setdefault(index, []).append(entry)
    edits += [_history_edit(text, root, index, new) for index, new in entries.items()]
    return apply_edits(text, edits)


def replace_quote(text: str, ledger: Ledger, adoption: Adoption, *, date: dt.date) -> str:
    """Adopt a page's current wording for a quote, keeping the old wording in history."""
    return replace_quotes(text, ledger, [adoption], date=date)


@dataclass(frozen=True)
class NewClaim:
    """What `claimledger add` records: a claim, its quotes and the pages they are on."""

    id: str
    section: str | None
    title: str
    statement: str
    kind: str
    quotes: tuple[str, ...]
    urls: tuple[str, ...]
    grade: Grade
    on: str
    depends_on: tuple[str, ...] = ()
    publisher: str | None = None
    titles: Mapping[str, str | None] = field(default_factory=dict)


def add_claim(text: str, ledger: Ledger, draft: NewClaim) -> str:
    """Append a new claim, adding a source for each URL the ledger does not know yet."""
    if draft.id in ledger.claim_ids:
        raise ConflictError(f"claim '{draft.id}' already exists")
    known = {source.url: source.id for source in ledger.sources.values()}
    taken = set(ledger.sources)
    source_ids = []
    for url in draft.urls:
        if url not in known:
            known[url] = _source_id_for(url, taken)
            taken.add(known[url])
            host = urllib.parse.urlsplit(url).hostname or "unknown"
            source = {
                "url": url,
                "title": draft.titles.get(url) or shown(url),
                "kind": "docs",
                "publisher": draft.publisher or host,
            }
            text = add_key(text, ("sources",), known[url], source)
        source_ids.append(known[url])
    claim: dict[str, Any] = {
        "id": draft.id,
        "section": draft.section or ledger.sections[0].id,
        "title": draft.title,
        "kind": draft.kind,
        "statement": draft.statement,
        "quotes": [{"text": quote, "sources": _FlowList(source_ids)} for quote in draft.quotes],
        "grades": [{"on": draft.on, "grade": str(draft.grade), "basis": "quotes"}],
    }
    if draft.depends_on:
        claim["depends_on"] = _FlowList(draft.depends_on)
    return append_block_item(text, ("claims",), claim)


def _source_id_for(url: str, taken: set[str]) -> str:
    """A readable, unused id from the URL: its last path segment, else its host."""
    parts = urllib.parse.urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    stem = segments[-1].rsplit(".", 1)[0] if segments else (parts.hostname or "source")
    base = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "source"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    return candidate


class _FlowList(list[Any]):
    """A list that renders on one line, as source lists are written."""


def _represent_flow_list(dumper: yaml.SafeDumper, data: _FlowList) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


_IndentedDumper.add_representer(_FlowList, _represent_flow_list)


def move_source(
    text: str, ledger: Ledger, source_id: str, new_url: str, *, date: dt.date, why: str
) -> str:
    """Point a source at its new address, keeping the old one in the source's history."""
    source = ledger.source(source_id)
    text = set_scalar(text, ("sources", source_id, "url"), new_url)
    entry = {"date": date, "moved_from": source.url, "by": "move", "why": why}
    if _has_key(_compose(text), ("sources", source_id), "history"):
        return append_item(text, ("sources", source_id, "history"), entry)
    return add_key(text, ("sources", source_id), "history", [_FlowMap(entry)])
