"""A fast reader for the plain block YAML that ledgers are written in.

`safeyaml` composes every node through libyaml and keeps its position: exact, and several
times slower than a big ledger should take to load. Almost every ledger is written in a
small part of YAML: block mappings and sequences; plain, single- and double-quoted
scalars on one line; literal (`|`) and folded (`>`) blocks; one-line flow lists and
mappings; comments and blank lines. This module reads that part straight into plain
data, one pass over the lines, by the same rules as `safeyaml` (the YAML 1.2 core
schema), and gives up on anything else: an anchor, a tag, a key that is not a plain
word, a duplicate key, a scalar over several lines, a tab, a flow collection over
several lines, a block scalar that keeps its trailing lines or starts with a blank one.

It never reports a problem, and never decides what a text means when it is unsure: it
gives up, and the caller reads the text with `safeyaml`, which reports every problem
at its line and column. The caller also has libyaml confirm, without building a node
(`is_yaml`), that the whole text is YAML; tests hold the two readers to the same data
on every text this one reads.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from claimledger.ledger.safeyaml import MAX_DEPTH, scalar_value

_UNSURE_CHARACTERS = ("\t", "\r", "\x85", "\u2028", "\u2029", "\ufeff")
"""Tabs, a byte order mark, and the line breaks Python's split and libyaml count
differently: given up on."""

_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
"""A plain key as ledgers write them: ids and field names."""

_DOUBLE = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"')
_SINGLE = re.compile(r"'([^']*(?:''[^']*)*)'(?!')")
_BLOCK_HEADER = re.compile(r"([|>])(-?)(?: +#.*)? *")
_FLOW_PLAIN = re.compile(
    r"(?:[^-?:,\[\]{}#&*!|>'\"%@` ]|-(?=[^ ,\[\]{}]))(?:[^,\[\]{}:#?]|:(?=[^ ,\[\]{}]))*"
)
_FLOW_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*): +")
_FLOW_SPECIAL = re.compile(r"[\[\]{}#&*!|>'\"%@`?:]")
"""In a one-line flow list, whatever is more than plain words and commas."""
_TAIL = re.compile(r" *(?: #.*)?")
"""What may follow a value on its line: spaces, then a comment after a space."""

_NOT_PLAIN_START = frozenset("-?:,[]{}#&*!|>'\"%@`")
"""Characters a one-line plain scalar here may not start with (an indicator, or a form
read elsewhere): given up on unless another branch reads it."""

_MAYBE_TYPED = frozenset("~nNtTfF-+.0123456789<")
"""The first characters of a plain scalar that may be other than text (see safeyaml)."""

_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")


_Unsure = ValueError
"""Raised where the text holds something this reader does not read exactly as libyaml
does: not an error, the text is handed on to safeyaml."""


def read_plain(text: str) -> dict[str, Any] | None:
    """The ledger mapping `text` holds, when it is written entirely in the plain block
    style this reader knows; else None (then read it with `safeyaml.load_located`).

    The text must also be YAML by libyaml's parser (`is_yaml`) for the data to stand.
    """
    if any(character in text for character in _UNSURE_CHARACTERS):
        return None
    try:
        return _Reader(text).document()
    except (_Unsure, OverflowError):  # and a number's digits, a character's code
        return None


def is_yaml(text: str) -> bool:
    """Whether libyaml parses the whole text as one YAML stream, with no syntax error
    (it builds no node, so this costs a small part of composing the text)."""
    if not getattr(yaml, "__with_libyaml__", False):
        return False  # the pure-Python parser alone is as slow as composing: read by safeyaml
    from yaml._yaml import CParser

    try:
        CParser(text).raw_parse()
    except Exception:  # whatever it is, safeyaml reads the text and says so
        return False
    return True


class _Reader:
    """One pass over the lines: each collection reads the lines indented as its own.

    The loops are written out rather than factored, since they run once a line."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.count = len(self.lines)
        """The last line holds what follows the last line break: '' when the text ends
        with one."""
        self.at = 0
        self.keys: dict[str, str] = {}
        """Keys already seen to be plain words, each held once: a ledger says `id:` and
        `text:` thousands of times."""
        self.words: dict[str, str] = {}
        """Each short plain value met, held once: a section, a kind, a grade, a date."""
        self.typed: dict[str, Any] = {}
        """Plain scalars that may be other than text, by their value (dates repeat)."""

    def document(self) -> dict[str, Any]:
        at, indent = self._next()
        if at >= self.count or indent != 0:
            raise _Unsure
        data = self._mapping(0, 1)
        if self._next()[0] < self.count:
            raise _Unsure  # something after the top mapping: a document marker, ...
        return data

    def _next(self) -> tuple[int, int]:
        """Skip blank and comment lines: the index of the next line of content (or the
        count), and its indentation."""
        lines, at, count = self.lines, self.at, self.count
        while at < count:
            line = lines[at]
            rest = line.lstrip(" ")
            if rest and rest[0] != "#":
                self.at = at
                return at, len(line) - len(rest)
            at += 1
        self.at = at
        return at, -1

    def _starts_with_key(self, rest: str) -> bool:
        """Whether a line's content (from its first non-space) starts with a plain key:
        `key: ...`, or `key:` alone."""
        colon = rest.find(": ")
        name = rest[:colon] if colon > 0 else rest[:-1] if rest[-1:] == ":" else ""
        if not name:
            return False
        if name not in self.keys:
            if _KEY.fullmatch(name) is None:
                return False
            self.keys[name] = name
        return True

    # ----------------------------------------------------------------- collections

    def _mapping(self, indent: int, depth: int, *, compact: bool = False) -> dict[str, Any]:
        """A block mapping whose keys stand at `indent`, from line `self.at` on; `compact`:
        its first key is on the line of a sequence's dash (`- id: x`)."""
        if depth > MAX_DEPTH - 2:
            raise _Unsure
        mapping: dict[str, Any] = {}
        lines, count, at = self.lines, self.count, self.at
        keys, typed, words = self.keys, self.typed, self.words
        while at < count:  # once a line: written out, not factored
            line = lines[at]
            if compact:
                rest = line[indent:]
                compact = False
            else:
                rest = line.lstrip(" ")
                if not rest or rest[0] == "#":
                    at += 1
                    continue
                found = len(line) - len(rest)
                if found != indent:
                    if found < indent:
                        break
                    raise _Unsure  # a scalar going on over lines, or an error
            colon = rest.find(": ")
            if colon > 0:
                name = rest[:colon]
                value = rest[colon + 2 :]
                if value[:1] == " ":
                    value = value.lstrip(" ")
            elif rest[-1] == ":":
                name = rest[:-1]
                value = ""
            else:
                raise _Unsure  # a dash, a document marker, a scalar, ...
            known = keys.get(name)
            if known is None:
                if _KEY.fullmatch(name) is None:
                    raise _Unsure  # a quoted or complex key
                keys[name] = name
            else:
                name = known
            if name in mapping:
                raise _Unsure  # safeyaml says where both are
            at += 1
            if value:
                first = value[0]
                if (
                    first not in _NOT_PLAIN_START
                    and " #" not in value
                    and ": " not in value
                    and value[-1] not in ": "
                ):  # a word or a sentence: most of a ledger
                    if first in _MAYBE_TYPED:
                        if value not in typed:
                            typed[value] = scalar_value(value)
                        mapping[name] = typed[value]
                    elif len(value) <= _SHORT:
                        mapping[name] = words.setdefault(value, value)
                    else:
                        mapping[name] = value
                    continue
                if first == '"' and value.find('"', 1) == len(value) - 1 and "\\" not in value:
                    mapping[name] = value[1:-1]  # quoted, nothing escaped, nothing after
                    continue
            self.at = at
            mapping[name] = self._value(value, indent, depth, in_mapping=True)
            at = self.at
        self.at = at
        return mapping

    def _sequence(self, indent: int, depth: int) -> list[Any]:
        """A block sequence whose dashes stand at `indent`."""
        if depth > MAX_DEPTH - 2:
            raise _Unsure
        items: list[Any] = []
        lines, count, at = self.lines, self.count, self.at
        while at < count:
            line = lines[at]
            rest = line.lstrip(" ")
            if not rest or rest[0] == "#":
                at += 1
                continue
            found = len(line) - len(rest)
            if found != indent:
                if found < indent:
                    break
                raise _Unsure
            if rest[0] != "-" or rest[1:2] not in (" ", ""):
                break  # a key of the mapping this indentless sequence is the value of
            item = rest[1:].lstrip(" ")
            if item and item[0] != "#" and self._starts_with_key(item):
                self.at = at
                items.append(self._mapping(len(line) - len(item), depth + 1, compact=True))
            else:
                self.at = at + 1
                if not item or item[0] == "#":
                    items.append(self._nested(indent, depth, in_mapping=False))
                else:
                    items.append(self._value(item, indent, depth, in_mapping=False))
            at = self.at
        self.at = at
        return items

    def _nested(self, owner: int, depth: int, *, in_mapping: bool) -> Any:
        """The value of a key or dash with nothing after it on its line: a collection on
        the lines below, indented further (or, under a key, a sequence at its column);
        else empty (null)."""
        at, found = self._next()
        if at >= self.count:
            return None
        line = self.lines[at]
        is_dash = line[found] == "-" and line[found + 1 : found + 2] in (" ", "")
        if found > owner:
            if is_dash:
                return self._sequence(found, depth + 1)
            if self._starts_with_key(line[found:]):
                return self._mapping(found, depth + 1)
            raise _Unsure  # a scalar on the next line
        if found == owner and in_mapping and is_dash:
            return self._sequence(found, depth + 1)
        return None

    # ----------------------------------------------------------------- values

    def _value(self, rest: str, owner: int, depth: int, *, in_mapping: bool) -> Any:
        """What follows `key: ` or `- ` on a line (`rest`, from its first non-space),
        the line itself read (`self.at` is the next)."""
        if not rest or rest[0] == "#":
            return self._nested(owner, depth, in_mapping=in_mapping)
        first = rest[0]
        if first not in _NOT_PLAIN_START or (first == "-" and rest[1:2] not in (" ", "")):
            cut = rest.find(" #")
            if cut >= 0:
                rest = rest[:cut]
            rest = rest.rstrip(" ")
            if ": " in rest or rest.endswith(":"):
                raise _Unsure
            return scalar_value(rest) if first in _MAYBE_TYPED else rest
        if first == '"':
            quoted = _DOUBLE.match(rest)
            if quoted is None:
                raise _Unsure  # goes on over lines
            _tail(rest, quoted.end())
            return _unescape(quoted.group(1))
        if first == "'":
            quoted = _SINGLE.match(rest)
            if quoted is None:
                raise _Unsure
            _tail(rest, quoted.end())
            return quoted.group(1).replace("''", "'")
        if first in "[{":
            if (
                first == "["
                and rest[-1] == "]"
                and not _FLOW_SPECIAL.search(rest, 1, len(rest) - 1)
            ):
                listed = _plain_list(rest[1:-1])  # `[a, b]`: a list of plain words
                if listed is not None:
                    return listed
            value, end = _flow(rest, 0, depth + 1)
            _tail(rest, end)
            return value
        if first in "|>":
            return self._block_scalar(rest, owner)
        raise _Unsure

    def _block_scalar(self, header: str, owner: int) -> str:
        """A literal or folded block scalar, clipped or stripped, its lines indented past
        `owner` (the column of the collection holding it)."""
        form = _BLOCK_HEADER.fullmatch(header)
        if form is None:
            raise _Unsure  # an indentation indicator, `+`, or something else after it
        lines, start = self.lines, self.at
        if start >= self.count:
            raise _Unsure
        first = lines[start]
        content = first.lstrip(" ")
        column = len(first) - len(content)
        if not content or column <= owner:
            raise _Unsure  # starts with a blank line, or is empty
        end = start + 1  # past the last line of content
        at = end
        while at < self.count:
            line = lines[at]
            if not line.strip(" "):
                if len(line) > column:
                    raise _Unsure  # spaces past the indentation: content of its own
                at += 1
                continue
            if len(line) - len(line.lstrip(" ")) < column:
                break
            at += 1
            end = at
        if end >= self.count:
            raise _Unsure  # the last line has no line break
        self.at = end
        body = [line[column:] for line in lines[start:end]]
        text = "\n".join(body) if form.group(1) == "|" else _folded(body)
        return text if form.group(2) == "-" else text + "\n"


def _folded(body: list[str]) -> str:
    """Folded lines: a single line break between two lines is a space, and each blank
    line between them a line break of its own."""
    pieces: list[str] = []
    blank = 0
    for line in body:
        if not line:
            blank += 1
            continue
        if line[0] == " ":
            raise _Unsure  # a more-indented line keeps its breaks: read by safeyaml
        if pieces:
            pieces.append("\n" * blank if blank else " ")
        pieces.append(line)
        blank = 0
    return "".join(pieces)


def _tail(line: str, end: int) -> None:
    """Only spaces, or a comment, may follow a value on its line."""
    if end < len(line) and _TAIL.fullmatch(line, end) is None:
        raise _Unsure


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body
    return _ESCAPE.sub(_escaped, body)


def _escaped(match: re.Match[str]) -> str:
    code = match.group(1)
    if len(code) > 1:
        point = int(code[1:], 16)
        if 0xD800 <= point <= 0xDFFF:
            raise _Unsure  # a surrogate: libyaml refuses it
        return chr(point)  # past U+10FFFF: a ValueError, and given up on too
    if code not in _ESCAPES:
        raise _Unsure
    return _ESCAPES[code]


def _flow(line: str, at: int, depth: int) -> tuple[Any, int]:
    """A flow collection or scalar starting at `at` of one line: its value, and where it
    ends."""
    if depth > MAX_DEPTH - 2:
        raise _Unsure
    first = line[at : at + 1]
    if first == "[":
        items: list[Any] = []
        at = _spaces(line, at + 1)
        while line[at : at + 1] != "]":
            item, at = _flow(line, at, depth + 1)
            items.append(item)
            at = _spaces(line, at)
            if line[at : at + 1] == ",":
                at = _spaces(line, at + 1)
            elif line[at : at + 1] != "]":
                raise _Unsure  # a pair in a list, a comment, or the list goes on
        return items, at + 1
    if first == "{":
        mapping: dict[str, Any] = {}
        at = _spaces(line, at + 1)
        while line[at : at + 1] != "}":
            key = _FLOW_KEY.match(line, at)
            if key is None or key.group(1) in mapping:
                raise _Unsure
            mapping[key.group(1)], at = _flow(line, key.end(), depth + 1)
            at = _spaces(line, at)
            if line[at : at + 1] == ",":
                at = _spaces(line, at + 1)
            elif line[at : at + 1] != "}":
                raise _Unsure
        return mapping, at + 1
    if first == '"':
        quoted = _DOUBLE.match(line, at)
        if quoted is None:
            raise _Unsure
        return _unescape(quoted.group(1)), quoted.end()
    if first == "'":
        quoted = _SINGLE.match(line, at)
        if quoted is None:
            raise _Unsure
        return quoted.group(1).replace("''", "'"), quoted.end()
    plain = _FLOW_PLAIN.match(line, at)
    if plain is None:
        raise _Unsure
    end = plain.end()
    if line[end : end + 1] in (":", "#", "?"):
        raise _Unsure
    value = plain.group().rstrip(" ")
    return (scalar_value(value) if value[0] in _MAYBE_TYPED else value), end


_SHORT = 40
"""The longest plain value held once (`_Reader.words`): longer ones seldom repeat."""


def _plain_list(inner: str) -> list[Any] | None:
    """The items of a one-line flow list holding no indicator but commas (`a, b c, d`);
    None for one `_flow` reads (an item starting with `-`, an empty one)."""
    items = [item.strip(" ") for item in inner.split(",")]
    if len(items) > 1 and not items[-1]:
        items.pop()  # a trailing comma
    elif items == [""]:
        return []
    values: list[Any] = []
    for item in items:
        if not item or item[0] in _NOT_PLAIN_START:
            return None
        values.append(scalar_value(item) if item[0] in _MAYBE_TYPED else item)
    return values


def _spaces(line: str, at: int) -> int:
    while line[at : at + 1] == " ":
        at += 1
    return at
