"""What a sandboxed template may build: a memory allowance for one render, the rules
that size a step before it is taken, and the steps a render may take at all.

A checkout's template is code from someone else. Capping each value at what a report may
hold is not enough: a loop that adds a 1 MB string to a list a hundred thousand times
never makes one large value, yet holds 100 GB. So a sandboxed render has an `Allowance`
of MAX_MEMORY bytes, and what the template makes (by an operator, a call, a filter, a
literal, a slice, a block it captures, an item it draws from a string or an iterator)
is counted against it as it is made, kept or not: the allowance bounds what a render
may build, and so what it may hold.

Counting after a step is not enough either where one step can make gigabytes: `'x' * n`,
`s.replace('', s)`, `'%0999999999d' % 1`, a list of a thousand references to one big
string printed or joined. So each step that can make much more than it was given is
sized first, by the rules here (`text_size` for what printing a value makes, a rule for
each filter and each string method that can grow), and refused before it is taken.
The rules are upper bounds, generous to the template: a report's own values are small.
"""

from __future__ import annotations

import dataclasses
import re
import string
import sys
from collections.abc import (
    Callable,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    Mapping,
    ValuesView,
)
from typing import Any, NamedTuple, TypeVar

from claimledger.errors import OverAllowance, OverSteps

MAX_MEMORY = 256 * 1024 * 1024
"""Bytes one sandboxed render may build in all: some sixty times what our own templates
build, rendered in the sandbox, for a report of 500 claims (4 MB), and a small part of
what a machine holds."""

MAX_STEPS = 5_000_000
"""Loop rounds and calls one sandboxed render may take: a second of empty rounds, a few
seconds of calls; our own templates, sandboxed, take some nine a claim (46,000 for a
report of 5,000 claims)."""

CALL_STEPS = 10
"""The steps one call counts for: a macro call costs some ten times a loop round."""

REFERENCE = 8
"""Bytes a container spends on each item it holds (a pointer)."""

_T = TypeVar("_T")
Args = tuple[Any, ...]
Kwargs = Mapping[str, Any]


class Size(NamedTuple):
    """What a step would make: characters of text (held to what a report may hold) and
    bytes besides (held to what is left of the allowance)."""

    chars: int = 0
    bytes: int = 0


class Allowance:
    """The bytes one render has built so far, and how many it may; and the steps (loop
    rounds and calls) it has left."""

    def __init__(self, limit: int | None = None, steps: int = MAX_STEPS) -> None:
        self.limit = MAX_MEMORY if limit is None else limit
        self.spent = 0
        self.steps_left = steps
        self.most_steps = steps

    def step(self, steps: int = 1) -> None:
        """Count a loop round (or a call, `CALL_STEPS`): a loop that prints nothing builds
        nothing, and only its steps bound it (10^10 empty rounds ran until killed)."""
        self.steps_left -= steps
        if self.steps_left < 0:
            raise OverSteps(self.most_steps)

    def stepped(self, values: Iterable[_T]) -> Iterable[_T]:
        """`values` as a loop goes through them, each round counted (its length, where it
        has one, still told: a loop's `length` asks it)."""
        return _Stepped(values, self)

    def afford(self, size: int) -> None:
        """Refuse a step that would take more than is left, before it is taken."""
        if self.spent + size > self.limit:
            raise OverAllowance(self.limit)

    def spend(self, size: int) -> None:
        self.spent += size
        if self.spent > self.limit:
            raise OverAllowance(self.limit)

    def held(self, value: _T, *, items: bool = False) -> _T:
        """`value`, once what it holds is counted (`items`: and what it holds directly,
        for a container a call or a filter filled, whose items may all be new)."""
        self.spend(held_size(value, items=items))
        return value

    def drawn(self, values: Iterable[_T]) -> Iterator[_T]:
        """The items of `values`, each counted as it is drawn: a reference for whatever
        keeps it, and the item itself when it is new (a string's characters, what an
        iterator makes), so that no list, set or join made from them in one step (in C,
        where nothing is counted) can outgrow the allowance."""
        new_items = isinstance(values, str | Iterator)
        for item in values:
            made = new_items and isinstance(item, _MADE)
            self.spend(REFERENCE + (sys.getsizeof(item) if made else 0))
            yield item


class _Stepped(Iterable[_T]):
    """An iterable whose every item drawn is a step of the render's allowance."""

    def __init__(self, values: Iterable[_T], allowance: Allowance) -> None:
        self._values = values
        self._allowance = allowance

    def __iter__(self) -> Iterator[_T]:
        step = self._allowance.step
        for value in self._values:
            step()
            yield value

    def __len__(self) -> int:
        return len(self._values)  # type: ignore[arg-type]  # a TypeError, as the values' own


_MADE = (str, int, float, list, tuple, dict, set, frozenset)
"""What a filter or a call can make anew (a view of the report it can only hand on)."""


def held_size(value: Any, *, items: bool = False) -> int:
    """The bytes `value` takes itself (and with `items`, those of what it holds directly)."""
    size = sys.getsizeof(value)
    if items and isinstance(value, list | tuple | dict | set | frozenset):
        size += sum(map(sys.getsizeof, _walked(value)))
    return size


def text_size(
    value: Any,
    limit: int,
    *,
    quoted: bool = False,
    indent: int = 0,
    opened: Callable[[Any], Any] = lambda value: value,
) -> int:
    """At least the length of `str(value)`, of `repr(value)`, of its JSON (with `indent`
    spaces a level), counting what it holds as often as it is referred to: a list of a
    thousand references to one 1 MB string prints a gigabyte. Stops counting once past
    `limit` (the answer is then over it, and the walk cost no more than that). A string
    is counted as printed, or with `quoted` (and inside a container) as its repr or its
    JSON may spell it, ten and twelve characters a character at worst; `opened` gives
    what an object of the sandbox's own prints (a namespace, its attributes)."""
    size = 0
    pending: list[tuple[Any, int]] = [(value, 0)]
    described: dict[int, int] = {}
    while pending and size <= limit:
        item, depth = pending.pop()
        item = opened(item)
        size += 4 + indent * depth if depth else 0  # a separator, a new line and its indent
        if isinstance(item, str):
            size += 12 * len(item) + 2 if quoted or depth else len(item)
        elif isinstance(item, bool | float | None):
            size += 32
        elif isinstance(item, int):
            size += item.bit_length() // 3 + 2  # decimal digits: 0.302 a bit
        elif isinstance(item, _WALKED):
            size += 2
            pending += ((member, depth + 1) for member in _walked(item))
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            size += len(type(item).__name__) + 2
            for field in dataclasses.fields(item):
                size += len(field.name) + 1
                pending.append((getattr(item, field.name), depth + 1))
        else:  # the sandbox's own objects: a macro, a loop, a cycler; each said once
            size += described.setdefault(id(item), _repr_size(item))
    return size


_WALKED = (Mapping, list, tuple, set, frozenset, KeysView, ValuesView, ItemsView)
"""What prints the items it holds, each as often as it is held."""


def _walked(item: Any) -> Iterable[Any]:
    if isinstance(item, Mapping):
        return (*item.keys(), *item.values())
    return item  # type: ignore[no-any-return]


def _repr_size(item: Any) -> int:
    try:
        return len(repr(item))
    except Exception:  # an Undefined, say: printing it is the template's error anyway
        return 64


@dataclasses.dataclass(frozen=True)
class Measure:
    """How one sandbox measures text: up to `limit` characters (past it, a step is refused
    whatever its exact size), its own objects seen through `opened` (see `text_size`)."""

    limit: int
    opened: Callable[[Any], Any] = lambda value: value

    def text(self, value: Any, *, quoted: bool = False, indent: int = 0) -> int:
        return text_size(value, self.limit, quoted=quoted, indent=indent, opened=self.opened)


def _large(digits: str) -> int:
    """A width or precision written in a format, as a number (a long one counts as huge:
    Python reads no more than 4,300 digits)."""
    return int(digits) if len(digits) <= 18 else sys.maxsize


_CONVERSION = re.compile(r"%(?:\([^)]*\))?[#0 +\-]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)", re.DOTALL)
_NUMBER = re.compile(r"\d+")


def printf_size(template: str, arguments: Any, measure: Measure) -> int:
    """At least the length of `template % arguments`: each conversion may print the
    widest argument, padded to its width and precision (a `*` takes the largest int)."""
    values = _argument_values(arguments)
    widest = max((measure.text(v, quoted=True) for v in values), default=0)
    largest = max((v for v in values if type(v) is int), default=0)
    size = len(template)
    for match in _CONVERSION.finditer(template):
        numbers = (largest if g == "*" else _large(g) for g in match.group(1, 2) if g)
        size += widest + sum(numbers)
    return size


def _argument_values(arguments: Any) -> list[Any]:
    if isinstance(arguments, Mapping):
        return list(arguments.values())
    return list(arguments) if isinstance(arguments, tuple) else [arguments]


def format_size(template: str, args: Args, kwargs: Kwargs, measure: Measure) -> int:
    """At least the length of `template.format(*args, **kwargs)` (or of `format_map`, its
    mapping given as `kwargs`): each field may print the widest argument, padded to the
    largest number its format spec names, or to the largest int argument when a nested
    field gives the width. 0 when the template does not parse (the call says so)."""
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return 0
    values = [*args, *kwargs.values()]
    widest = max((measure.text(v, quoted=True) for v in values), default=0)
    largest = max((v for v in values if type(v) is int), default=0)
    size = len(template)
    for spec in (spec for _, name, spec, _ in parsed if name is not None):
        written = max((_large(n) for n in _NUMBER.findall(spec or "")), default=0)
        size += widest + max(written, largest if "{" in (spec or "") else 0)
    return size


def replaced_size(text: str, *args: Any) -> int:
    """How long `text.replace(*args)` would be (`"ab".replace("", s)` puts `s` between every
    letter), told before it is made; 0 when the arguments are not what `replace` takes."""
    if len(args) < 2 or not isinstance(args[0], str) or not isinstance(args[1], str):
        return 0
    old, new = args[0], args[1]
    times = text.count(old)
    if len(args) > 2 and isinstance(args[2], int) and args[2] >= 0:
        times = min(times, args[2])
    return len(text) + times * (len(new) - len(old))


# --------------------------------------------------------------------------- string methods

Rule = Callable[[Any, Args, Kwargs, Measure], Size]
"""A step's size from its value (or receiver), its arguments and how text is measured."""


def _argument(args: Args, kwargs: Kwargs, at: int, name: str) -> Any:
    return args[at] if len(args) > at else kwargs.get(name)


def _count(value: Any) -> int:
    return value if type(value) is int and value > 0 else 0


def _padded(text: str, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    return Size(chars=max(len(text), _count(_argument(args, kwargs, 0, "width"))))


def _tabs_expanded(text: str, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    tabsize = _argument(args, kwargs, 0, "tabsize")
    return Size(chars=len(text) + text.count("\t") * (8 if tabsize is None else _count(tabsize)))


def _replaced(text: str, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    return Size(chars=replaced_size(text, *args, *kwargs.values()))


def _translated(text: str, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    table = _argument(args, kwargs, 0, "table")
    values = table.values() if isinstance(table, Mapping) else [table]
    return Size(chars=len(text) * max((measure.text(v) for v in values), default=1))


def _cased(text: str, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    return Size(chars=3 * len(text))  # 'ﬃ'.upper() is 'FFI'


def _split(text: str, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    """A list of new strings, each costing more than fifty bytes, one every two letters."""
    return Size(bytes=48 * len(text) + 64)


STRING_METHODS: dict[str, Rule] = {
    "center": _padded,
    "ljust": _padded,
    "rjust": _padded,
    "zfill": _padded,
    "expandtabs": _tabs_expanded,
    "replace": _replaced,
    "translate": _translated,
    **dict.fromkeys(("upper", "lower", "title", "capitalize", "swapcase", "casefold"), _cased),
    **dict.fromkeys(("split", "rsplit", "splitlines"), _split),
}
"""The methods of a string that can make more than the string; `join`, `format` and
`format_map` are sized where they are called, and `encode` is refused (bytes have no
place in a report)."""

ESCAPED = 6
"""How many characters HTML escaping may make of one (`"` is `&#34;`)."""


# --------------------------------------------------------------------------- filters


def _centered(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    width = _argument(args, kwargs, 0, "width")
    return Size(chars=max(measure.text(value), 80 if width is None else _count(width)))


def _indented(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    width = _argument(args, kwargs, 0, "width")
    each = 4 if width is None else _count(width) or measure.text(width)
    text = measure.text(value)
    lines = value.count("\n") + 1 if isinstance(value, str) else text + 1
    return Size(chars=text + lines * each)


def _truncated(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    end = _argument(args, kwargs, 2, "end")
    return Size(chars=measure.text(value) + measure.text("..." if end is None else end))


def _wrapped(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    """At worst a line a letter, each ended by the wrap string; textwrap's pieces on the way."""
    wrap = _argument(args, kwargs, 2, "wrapstring")
    text = measure.text(value)
    each = 1 if wrap is None else measure.text(wrap)
    return Size(chars=text + (text + 1) * each, bytes=64 * text)


def _printf(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    arguments = kwargs if kwargs else args
    return Size(chars=printf_size(value if isinstance(value, str) else "", arguments, measure))


def _replaced_text(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    if isinstance(value, str):
        return Size(chars=ESCAPED * replaced_size(value, *args, *kwargs.values()))
    new = _argument(args, kwargs, 1, "new")
    text = measure.text(value)
    return Size(chars=ESCAPED * (text + (text + 1) * measure.text("" if new is None else new)))


def _linked(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    """Every word may become a link, `<a href="…" rel="…" target="…">…</a>`; a word that is
    an address takes at least four letters and a space."""
    text = measure.text(value)
    extra = sum(measure.text(v) for v in (*args, *kwargs.values()) if isinstance(v, str))
    return Size(chars=ESCAPED * 2 * text + (text // 5 + 1) * (extra + 64))


def _json(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    indent = _argument(args, kwargs, 0, "indent")
    each = _count(indent) if type(indent) is int else measure.text(indent or "")
    return Size(chars=measure.text(value, quoted=True, indent=each))


def _script_json(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    return Size(chars=measure.text(value, quoted=True, indent=2))


def _batched(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    """`batch` fills its last batch to `linecount` with references to `fill_with` (a list
    of them first, then the batch)."""
    filled = _argument(args, kwargs, 1, "fill_with") is not None
    count = _count(_argument(args, kwargs, 0, "linecount"))
    return Size(bytes=2 * REFERENCE * count if filled else 0)


def _sliced(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    """`slice` makes a list for each of its `slices`, items or none."""
    return Size(bytes=64 * _count(_argument(args, kwargs, 0, "slices")))


def _authored(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    """The author's Markdown, rendered: a `>` line is a `<blockquote>`, and on the way
    markdown-it makes a token of some hundreds of bytes for each mark, a mark a letter."""
    text = measure.text(value)
    return Size(chars=16 * text, bytes=1024 * text)


def _attributes(value: Any, args: Args, kwargs: Kwargs, measure: Measure) -> Size:
    return Size(chars=ESCAPED * measure.text(value) + 16)


def lipsum_size(args: Args, kwargs: Kwargs) -> Size:
    """`lipsum(n, html, min, max)`: n paragraphs of at most `max` words of a dozen letters,
    each word a string of its own on the way."""
    paragraphs = _argument(args, kwargs, 0, "n")
    longest = (_argument(args, kwargs, at, name) for at, name in ((2, "min"), (3, "max")))
    words = max(map(_count, longest)) or 100
    count = 5 if paragraphs is None else _count(paragraphs)
    return Size(chars=count * (words * 16 + 16), bytes=count * words * 64)


TEXT_FILTERS: dict[str, int] = {
    **dict.fromkeys(("safe", "string", "trim", "striptags", "sentence", "excerpt"), 1),
    **dict.fromkeys(("capitalize", "lower", "upper", "title", "upper_first"), 3),
    **dict.fromkeys(("e", "escape", "forceescape", "md_anchor", "code_block"), ESCAPED),
    **dict.fromkeys(("md", "md_url", "md_link"), 10),  # `@` is 10
    "urlencode": 12,  # a character as UTF-8 bytes, each `%XX`
}
"""The filters that print their value, and how many characters they may make of one."""

FILTERS: dict[str, Rule] = {
    "center": _centered,
    "indent": _indented,
    "truncate": _truncated,
    "wordwrap": _wrapped,
    "format": _printf,
    "replace": _replaced_text,
    "urlize": _linked,
    "xmlattr": _attributes,
    "tojson": _json,
    "json_script": _script_json,
    "json_script_pieces": _script_json,  # the same text, a piece at a time
    "author_md": _authored,
    "author_html": _authored,
    "batch": _batched,
    "slice": _sliced,
}
"""The other filters that can make more than they are given, and how much at most (`join`
is sized where it is called: it must first draw the items it joins)."""

ITERATED = frozenset(
    {
        *("list", "sort", "unique", "reverse", "batch", "slice", "groupby", "sum", "join"),
        *("map", "select", "reject", "selectattr", "rejectattr", "min", "max"),
    }
)
"""The filters that go through their value's items (a string's letters, too): their
value is handed to them drawn (`Allowance.drawn`), so that what they keep is counted."""

NEW_ITEMS = frozenset({"batch", "slice", "groupby", "dictsort"})
"""The filters whose result holds containers of their own making (a list a batch), each
counted with it; what the others' results hold was there before, or drawn."""

SMALL = frozenset(
    {
        *("abs", "attr", "count", "d", "default", "dictsort", "filesizeformat", "first"),
        *("float", "int", "items", "last", "length", "random", "round", "wordcount"),
    }
)
"""The filters that make nothing larger than what they are given (or a number)."""

REFUSED = frozenset({"pprint"})
"""Filters a sandboxed template is not given: `pprint` lays out what it prints on lines
indented as deep as it nests, a size no rule here tells."""
