"""The fast ledger reader: on every text it reads, the same data as safeyaml; where it is
unsure it gives up, and a ledger with a problem is still told exactly where it is.

`plainyaml.read_plain` reads the plain block YAML that ledgers are written in straight
into data; `ledger.parse` uses it when libyaml also accepts the text, and reads any
ledger with a problem again with safeyaml, for the positions. The property that makes
that safe is checked here on generated texts full of YAML's corners: whenever the fast
reader returns data for a text libyaml parses, safeyaml reads the same data (types
included) and has nothing to report.
"""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claimledger.errors import LedgerError
from claimledger.ledger import plainyaml
from claimledger.ledger.model import _parse_located, parse
from claimledger.ledger.plainyaml import is_yaml, read_plain
from claimledger.ledger.safeyaml import load_located
from claimledger.ledger.schema import LEDGER_SCHEMA
from claimledger.ledger.strictschema import compile_strict

ROOT = Path(__file__).resolve().parents[1]
CASES = yaml.safe_load((ROOT / "tests" / "data" / "bad_ledgers.yaml").read_text("utf-8"))
LEDGERS = {
    "bundled": ROOT / "claims.yaml",
    "render fixture": ROOT / "tests" / "data" / "render_fixture.yaml",
    "starter": ROOT / "src" / "claimledger" / "data" / "init" / "claims.yaml",
}


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (True is not 1, nor 1.0 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def agrees(text: str) -> bool:
    """The property: whatever the fast reader reads of a YAML text, safeyaml reads too,
    with no problem. Returns whether the fast reader read it."""
    fast = read_plain(text)
    if fast is None or not is_yaml(text):
        return False
    located, problems = load_located(text)
    assert located is not None, text
    assert problems == [], (text, problems)
    assert same(fast, located.data), (text, fast, located.data)
    return True


# --------------------------------------------------------------------------- real ledgers


@pytest.mark.parametrize("name", sorted(LEDGERS))
def test_real_ledgers_are_read_fast_and_alike(name: str) -> None:
    assert agrees(LEDGERS[name].read_text("utf-8")), f"the fast reader gave up on {name}"


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_every_bad_ledger_of_the_table_is_read_alike_or_handed_on(case: dict[str, Any]) -> None:
    agrees(case["ledger"])


def test_a_generated_big_ledger_is_read_fast_and_alike() -> None:
    text = big_ledger(300)
    assert agrees(text)


def big_ledger(claims: int, *, bad_grade_at: int | None = None) -> str:
    lines = [
        "# a generated ledger",
        "ledger: 1",
        'title: "Big: a reading"',
        "date_read: 2026-08-23",
        "about: |",
        "  What this is.",
        "",
        "  And what it is not.",
        "sections:",
        "  - id: main",
        "    title: Main",
        "    intro: >-",
        "      Folded",
        "      text.",
        "sources:",
        "  docs: {url: 'https://example.com/docs', title: Docs, kind: docs, publisher: ex}",
        "  blog:",
        "    url: https://example.com/blog",
        "    title: Blog",
        "    kind: blog",
        "    publisher: ex",
        "claims:",
    ]
    for n in range(claims):
        grade = "MAYBE" if n == bad_grade_at else "CLAIMED"
        lines += [
            f"  - id: c{n}",
            "    section: main",
            f"    title: Claim {n}",
            "    kind: guarantee",
            "    statement: >-",
            f"      Claim {n} says",
            "      a thing.",
            "    quotes:",
            f'      - text: "Quote {n}: it holds."',
            "        sources: [docs, blog]",
            *([f"    depends_on: [c{n - 1}]"] if n else []),
            "    grades:",
            "      - on: the documentation says this",
            f"        grade: {grade}",
            "        basis: quotes",
            "        why: 'read on the page' # a comment",
            "      - {on: it holds, grade: SPECULATIVE, basis: judgement}",
            "",
        ]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the corners

_SAFE_PLAIN = [
    "word", "two words", "a:b", "rule:quotes", "https://x.example/a?b=c#d", "a #comment",
    "a#b", "C#", "-x", "--", "...", "~", "null", "Null", "NULL", "true", "True", "TRUE",
    "false", "yes", "no", "on", "off", "0", "017", "0o17", "0x1F", "0x", "+1", "-1",
    "1_000", "1.5", ".5", "1e3", "1E-3", ".inf", "-.Inf", ".NaN", ".nan", "2026-08-23",
    "2026-13-45", "12:30", "<", "=", "a 'q'", 'a "q"', "a\\b", "a,b", "a]b", "a}b", "a, b",
    "trailing ", "é ünïcode", "❤", "x" * 90, "true love", "nullable", "falsehood", "None",
]  # fmt: skip
_TRICKY_PLAIN = [
    "a: b", "- x", "-", "---", "?", "? x", ":x", "<<", "&a", "*a", "!tag", "!!str x", "%x",
    "@x", "`x", "|", ">", "|-", ">+", "[a]", "{a: b}", "[a, b", "'q'", '"q"', "a\tb", "a:",
]  # fmt: skip
_SAFE_DOUBLE = [
    "", "plain", "a: b", "# not a comment", "\\\"", "\\\\", "\\n", "\\t", "\\x41",
    "\\u00e9", "\\U0001F600", "\\N", "\\_", "\\L", "\\P", "\\0", "\\e", "\\ ", "'",
    "''", "  spaced  ", "é",
]  # fmt: skip
_TRICKY_DOUBLE = ["\\/", "\\'", "\\q", "\\x4", "\\ud800", "tab\\there", "a\\", '"', "\\\t"]
_SAFE_SINGLE = ["", "plain", "it''s", "''", "a: b", '"', "\\n", "  sp  ", "#x"]
_SAFE_KEYS = ["id", "title", "a", "b", "a-b", "a.b", "a_b", "1", "true", "null", "A", "0x1"]
_TRICKY_KEYS = ["~", "<<", "a b", "'q'", '"q"', "? x", "a:b", "-a", "é", "a ", "[a]"]
_SAFE_COMMENTS = ["", "", "", " # c", "  #c", " #"]
_TRICKY_COMMENTS = ["#c", "\t# t", " #\r"]


def _pick(draw: st.DrawFn, safe: list[str], tricky: list[str]) -> str:
    """Mostly what the fast reader reads, now and then a corner it must give up on or
    read exactly: so that whole documents are read, and each corner is met."""
    return draw(st.sampled_from(tricky if draw(st.integers(0, 11)) == 0 else safe))


@st.composite
def _scalar(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["plain", "plain", "double", "single"]))
    if kind == "plain":
        return _pick(draw, _SAFE_PLAIN, _TRICKY_PLAIN)
    if kind == "double":
        count = draw(st.integers(0, 3))
        body = "".join(_pick(draw, _SAFE_DOUBLE, _TRICKY_DOUBLE) for _ in range(count))
        return '"' + body + '"'
    body = "".join(draw(st.sampled_from(_SAFE_SINGLE)) for _ in range(draw(st.integers(0, 3))))
    return "'" + body + "'"


@st.composite
def _flow(draw: st.DrawFn, depth: int = 0) -> str:
    if depth > 2 or draw(st.booleans()):
        return draw(_scalar())
    items = draw(st.lists(_flow(depth + 1), max_size=3))
    spaces = draw(st.sampled_from(["", "", " ", "  "]))
    trailing = draw(st.sampled_from(["", "", "", ",", ", "]))
    if draw(st.booleans()):
        return "[" + spaces + ", ".join(items) + trailing + "]"
    keys = [_pick(draw, _SAFE_KEYS, _TRICKY_KEYS) for _ in items]
    colon = [": " if draw(st.integers(0, 9)) else ":" for _ in items]
    pairs = [f"{k}{c}{v}" for k, c, v in zip(keys, colon, items, strict=True)]
    return "{" + spaces + ", ".join(pairs) + trailing + "}"


@st.composite
def _block_scalar(draw: st.DrawFn, indent: int) -> list[str]:
    header = _pick(draw, ["|", "|-", ">", ">-", "| # c", ">-  # c"], ["|+", ">+", "|2", ">1-"])
    extra = draw(st.sampled_from([2, 2, 2, 2, 1, 3, 0]))
    lines = [header]
    for _ in range(draw(st.integers(1, 4))):
        shapes = ["text", "text", "text", "blank", "hash", "colon"]
        shape = _pick(draw, shapes, ["more", "spaces", "tabbed"])
        pad = " " * (indent + extra)
        if shape == "text":
            lines.append(pad + draw(st.sampled_from(["some text", "x  ", "é", "- x", "a: b"])))
        elif shape == "blank":
            lines.append(draw(st.sampled_from(["", " " * (indent + extra)])))
        elif shape == "hash":
            lines.append(pad + "# kept")
        elif shape == "colon":
            lines.append(pad + "key: not a key")
        elif shape == "more":
            lines.append(pad + "  indented")
        elif shape == "spaces":
            lines.append(" " * draw(st.integers(0, indent + extra + 3)))
        else:
            lines.append(pad + "\tx")
    return lines


@st.composite
def _node(draw: st.DrawFn, indent: int, depth: int = 0) -> list[str]:
    """A value for a key or dash: its first line's text, then lines under it."""
    kind = _pick(
        draw,
        ["scalar", "scalar", "flow", "block", "map", "map", "seq", "seq", "empty"],
        ["odd", "next line"],
    )
    if depth > 3 and kind in ("map", "seq"):
        kind = "scalar"
    if kind == "scalar":
        return [draw(_scalar()) + _pick(draw, _SAFE_COMMENTS, _TRICKY_COMMENTS)]
    if kind == "flow":
        return [draw(_flow()) + _pick(draw, _SAFE_COMMENTS, _TRICKY_COMMENTS)]
    if kind == "block":
        return draw(_block_scalar(indent))
    if kind == "empty":
        return [_pick(draw, _SAFE_COMMENTS, _TRICKY_COMMENTS)]
    if kind == "odd":
        return [draw(st.sampled_from(["&a x", "*a", "!!str x", "&a", "x\n  continued", "a\r"]))]
    if kind == "next line":
        return ["", " " * (indent + 2) + draw(_scalar())]
    step = draw(st.sampled_from([2, 2, 2, 4, 1, 3])) if draw(st.integers(0, 15)) else 0
    child = indent + step
    body = draw(_mapping(child, depth + 1)) if kind == "map" else draw(_sequence(child, depth + 1))
    return ["", *body]


@st.composite
def _mapping(draw: st.DrawFn, indent: int, depth: int = 0) -> list[str]:
    lines: list[str] = []
    keys = draw(st.lists(st.sampled_from(_SAFE_KEYS), min_size=1, max_size=4, unique=True))
    if draw(st.integers(0, 11)) == 0:
        keys.append(draw(st.sampled_from([*_TRICKY_KEYS, keys[0]])))  # odd, or a duplicate
    for key in keys:
        first, *rest = draw(_node(indent, depth))
        gap = _pick(draw, [" "], ["  ", ""])
        lines.append(" " * indent + f"{key}:" + (gap + first if first else ""))
        lines += rest
        if draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from(["", "# between", " " * indent + "  # deeper"])))
    return lines


@st.composite
def _sequence(draw: st.DrawFn, indent: int, depth: int = 0) -> list[str]:
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):  # a compact mapping: `- key: value`, then its other keys
            gap = draw(st.sampled_from([1, 1, 1, 2, 3]))
            entries = draw(_mapping(indent + 1 + gap, depth + 1))
            first = entries[0][indent + 1 + gap :]
            lines.append(" " * indent + "-" + " " * gap + first)
            lines += entries[1:]
        else:
            first, *rest = draw(_node(indent, depth))
            lines.append(" " * indent + "-" + (" " + first if first else ""))
            lines += rest
    return lines


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines = draw(_mapping(0))
    if draw(st.integers(0, 11)) == 0:
        lines.insert(0, draw(st.sampled_from(["---", "%YAML 1.2\n---", "# top", "\ufeffa: 1"])))
    text = "\n".join(lines)
    return text + _pick(draw, ["\n", "\n", "\n\n"], ["", "\n...\n", "\n---\n"])


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_whatever_the_fast_reader_reads_safeyaml_reads_alike(text: str) -> None:
    agrees(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_bundled_ledger_with_any_line_spoilt_is_read_alike_or_handed_on(data: Any) -> None:
    lines = LEDGERS["bundled"].read_text("utf-8").split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(lines) - 1))
        line = lines[at]
        how = data.draw(st.sampled_from(["indent", "dedent", "cut", "insert", "drop"]))
        if how == "indent":
            lines[at] = " " + line
        elif how == "dedent":
            lines[at] = line.removeprefix(" ")
        elif how == "cut" and line:
            cut = data.draw(st.integers(0, len(line) - 1))
            lines[at] = line[:cut] + line[cut + 1 :]
        elif how == "insert":
            cut = data.draw(st.integers(0, len(line)))
            piece = data.draw(st.sampled_from([":", "#", " #", '"', "'", "-", "[", "{", "&", "\\"]))
            lines[at] = line[:cut] + piece + line[cut:]
        else:
            del lines[at]
    agrees("\n".join(lines))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: 1\nb: 0o17\nc: 0x1F\nd: 1.5\ne: .inf\nf: ~\ng: true\nh: 2026-08-23\n", None),
        ("a: |\n  one\n\n  two\nb: >-\n  three\n  four\n\n  five\n", None),
        ("a:\n- x\n- y: 1\n  z: 2\nb: [x, 'y', \"z\\n\", {k: v}, ]\n", None),
        ('k: "a \\x41\\u00e9\\U0001F600 \\N\\_"\n', None),
    ],
)
def test_corners_the_fast_reader_does_read(text: str, expected: None) -> None:
    assert agrees(text), text


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchors and aliases: the alias budget is safeyaml's
        "a: !!str 1\n",  # a tag
        "a: 1\na: 2\n",  # a duplicate key: safeyaml says where both are
        "<<: {a: 1}\n",  # a merge key
        "a: one\n  two\n",  # a plain scalar over two lines
        'a: "one\n  two"\n',  # a quoted one
        "a: [x,\n  y]\n",  # a flow collection over two lines
        "a: |+\n  kept\n\n",  # a block scalar keeping its trailing lines
        "a: |2\n   x\n",  # an indentation indicator
        "a: >\n  x\n    more\n  y\n",  # a more-indented folded line
        "a:\tb\n",  # a tab
        "a: 1\r\nb: 2\r\n",  # CR LF
        "---\na: 1\n",  # a document marker
        "a: 1\n...\n",
        "'a': 1\n",  # a quoted key
        "? a\n: 1\n",  # a complex key
        "a: |\n  no line break at the end",
        'a: "\\ud800"\n',  # a surrogate, which libyaml refuses
        'a: "\\U00110000"\n',  # past the last code point
    ],
)
def test_the_fast_reader_gives_up_on_what_it_does_not_read_exactly(text: str) -> None:
    assert read_plain(text) is None


def test_a_text_libyaml_refuses_is_not_yaml() -> None:
    assert is_yaml("a: 1\n")
    assert not is_yaml("a: [1\n")
    assert not is_yaml("a: b: c\n")


# --------------------------------------------------------------------------- the loader


def test_a_problem_deep_in_a_big_ledger_is_told_at_its_exact_place() -> None:
    """The fast path reads no position; a ledger with a problem is read again for them,
    so the problem on claim 4,321 of 5,000 is told at its own line and column."""
    text = big_ledger(5_000, bad_grade_at=4_321)
    lines = text.split("\n")
    line = next(i for i, line in enumerate(lines) if line.endswith("grade: MAYBE")) + 1
    col = lines[line - 1].index("MAYBE") + 1
    with pytest.raises(LedgerError) as raised:
        parse(text, "big.yaml")
    problems = [str(problem) for problem in raised.value.problems]
    assert len(problems) == 1
    assert problems[0].startswith(f"big.yaml:{line}:{col}: grade 'MAYBE' is not one of")


def test_the_fast_and_the_located_reading_build_the_same_ledger() -> None:
    for path in LEDGERS.values():
        text = path.read_text("utf-8")
        assert parse(text) == _parse_located(text, str(path))


def test_a_ledger_the_fast_reader_gives_up_on_is_still_read() -> None:
    text = big_ledger(3).replace("date_read: 2026-08-23", "date_read: &day 2026-08-23")
    assert read_plain(text) is None
    assert parse(text).date_read == dt.date(2026, 8, 23)


def test_a_fast_read_ledger_keeps_its_text_for_edits() -> None:
    text = big_ledger(2)
    ledger = parse(text)
    assert ledger.parsed_from is not None
    assert ledger.parsed_from.text == text
    assert ledger.parsed_from.tree is None  # composed only when an edit needs it


def test_the_reader_gives_up_rather_than_nest_past_the_limit() -> None:
    deep = "".join(f"{' ' * 2 * n}k{n}:\n" for n in range(70)) + " " * 140 + "x: 1\n"
    assert read_plain(deep) is None
    with pytest.raises(LedgerError, match="nested more than"):
        parse(deep)
    assert plainyaml.read_plain("a:\n  b: 1\n") == {"a": {"b": 1}}


# --------------------------------------------------------------------------- the strict schema


def test_the_strict_check_accepts_the_real_ledgers() -> None:
    validate = compile_strict(LEDGER_SCHEMA)
    for path in LEDGERS.values():
        located, _ = load_located(path.read_text("utf-8"))
        assert located is not None
        assert validate(located.data)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_what_the_strict_check_accepts_jsonschema_accepts(data: Any) -> None:
    import jsonschema

    located, _ = load_located(LEDGERS["bundled"].read_text("utf-8"))
    assert located is not None
    ledger = located.data
    for _ in range(data.draw(st.integers(1, 3))):
        spoil(ledger, data)
    strictly = compile_strict(LEDGER_SCHEMA)(ledger)
    loosely = jsonschema.Draft202012Validator(LEDGER_SCHEMA).is_valid(ledger)
    assert loosely or not strictly


def spoil(value: Any, data: Any) -> None:
    """Change one thing somewhere in the ledger: a value's type, a key, an item."""
    path: list[Any] = []
    while isinstance(value, dict | list) and value and data.draw(st.integers(0, 3)):
        key = data.draw(
            st.sampled_from(list(value) if isinstance(value, dict) else range(len(value)))
        )
        path.append((value, key))
        value = value[key]
    if not path:
        return
    parent, key = path[-1]
    replacement = data.draw(
        st.sampled_from(
            [None, True, 0, 1, 2.0, -1, "", "x", "X Y", "2026-13-45", [], {}, ["x"], {"k": "v"}]
        )
    )
    if isinstance(parent, dict) and data.draw(st.booleans()):
        parent[data.draw(st.sampled_from(["extra", "Id", key]))] = replacement
    else:
        parent[key] = replacement


def test_the_strict_check_refuses_to_compile_what_it_does_not_know() -> None:
    for schema in ({"type": "object", "patternProperties": {}}, {"$ref": "#/$defs/nowhere"}):
        with pytest.raises(NotImplementedError):
            compile_strict(schema)


def test_reading_pauses_the_collector_and_leaves_it_as_it_was() -> None:
    import gc

    from claimledger.ledger.located import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: the outer one restores
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0  # nothing left frozen
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # someone else's choice stands
    finally:
        gc.enable()
    gc.freeze()  # someone else's frozen objects stay frozen
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            parse(big_ledger(2))
        # not thawed (which would leave none); a frozen object freed meanwhile leaves the count
        assert gc.get_freeze_count() > frozen // 2
    finally:
        gc.unfreeze()


def test_a_key_or_a_short_value_said_on_many_lines_is_held_once() -> None:
    """A ledger of 15,000 claims says `section: main` 15,000 times: one string, not 15,000
    (12% of `check`'s peak memory there; tests/benchmarks/README.md)."""
    long = "a quoted sentence long enough that two claims seldom share it word for word"
    text = "".join(f"  - id: c{n}\n    section: main\n    statement: {long}\n" for n in range(2))
    first, second = (read_plain(f"claims:\n{text}") or {})["claims"]
    assert first["section"] is second["section"]
    assert all(a is b for a, b in zip(first, second, strict=True))  # the keys
    assert first["statement"] == second["statement"]
    assert first["statement"] is not second["statement"]  # a long value is not looked up
