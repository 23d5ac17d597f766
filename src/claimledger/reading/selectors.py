"""A source's CSS selector, judged before any page is read with it.

lxml applies a selector as the XPath cssselect writes for it, and libxml2 walks every
sibling for each sibling step: `p ~ p` on a page of 100,000 paragraphs is ten billion
steps, `p:nth-last-child(2n+1) ~ p ~ p ~ p` far more, and none of it can be stopped
from inside the process (the extractor bounds what it cannot refuse by running a
selector in a process of its own, `budget.bounded`). A ledger is someone's file, so a
selector that chains such steps is refused when the ledger is checked, with where it is:

* at most `MAX_SIBLING_STEPS` sibling steps in one selector: the combinators `+` and
  `~`, and the pseudo-classes that count siblings (`:nth-child()`, `:first-child`,
  `:only-of-type` and the like);
* at most `MAX_COMBINATORS` combinators in one, `MAX_SELECTORS` selectors in a list,
  and `MAX_LENGTH` characters in all.

A real content region is named by one or two steps (`article`, `main .content`,
`div#docs > .body`), far inside these.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

MAX_SIBLING_STEPS = 2
MAX_COMBINATORS = 8
MAX_SELECTORS = 16
MAX_LENGTH = 500

_SIBLING_PSEUDOS = frozenset(
    {"first-child", "last-child", "only-child", "first-of-type", "last-of-type", "only-of-type"}
)


def selector_problem(select: str, name: str = "select") -> str | None:
    """What is wrong with `select` as a source's selector (not CSS, or too costly to
    apply to a large page), or None; `name` says which (`select`, `wait_for`)."""
    from cssselect import SelectorError, parse

    if len(select) > MAX_LENGTH:
        return f"{name} is {len(select)} characters long; at most {MAX_LENGTH} are allowed"
    if name == "wait_for":
        return _browser_selector_problem(select)
    try:
        selectors = parse(select)
    except SelectorError as error:
        return f"{name} {select!r} is not a valid CSS selector: {error}"
    if len(selectors) > MAX_SELECTORS:
        return f"{name} {select!r} lists {len(selectors)} selectors; at most {MAX_SELECTORS}"
    for selector in selectors:
        nodes = list(_nodes(selector.parsed_tree))
        siblings = sum(_sibling_steps(node) for node in nodes)
        combinators = sum(_is_combinator(node) for node in nodes)
        if siblings > MAX_SIBLING_STEPS:
            return (
                f"{name} {select!r} is too costly to apply: {siblings} sibling steps (+, ~, "
                f":nth-child() and the like) where at most {MAX_SIBLING_STEPS} are allowed"
            )
        if combinators > MAX_COMBINATORS:
            return (
                f"{name} {select!r} is too costly to apply: {combinators} combinators where "
                f"at most {MAX_COMBINATORS} are allowed"
            )
    try:
        xpath_of(select)
    except ValueError as error:  # worded for a `select`, the one it is applied as
        return f"{name}{str(error).removeprefix('select')}"
    return None


@functools.lru_cache(maxsize=256)
def xpath_of(select: str) -> str:
    """The XPath lxml applies for a CSS selector (cssselect's, by HTML rules: tag and
    attribute names ignore case), tried on an empty page: some that parse cannot be
    applied (a namespace prefix, `svg|rect`, names none; a control character,
    `p[a='\\1']`, is no XML). Raises ValueError saying why, in one line."""
    from cssselect import SelectorError
    from lxml import etree
    from lxml.cssselect import LxmlHTMLTranslator

    try:
        path: str = LxmlHTMLTranslator().css_to_xpath(select)
        etree.XPath(path)(etree.HTML("<p></p>"))
    except SelectorError as error:
        raise ValueError(f"select {select!r} is not a valid CSS selector: {error}") from None
    except (etree.XPathError, ValueError) as error:
        why = " ".join(str(error).split())
        raise ValueError(f"select {select!r} cannot be applied: {why}") from None
    return path


def _nodes(node: object) -> Iterator[object]:
    """`node` and every part of the parsed selector inside it (a :not()'s, a :has()'s)."""
    yield node
    for name in ("selector", "subselector", "parsed_tree"):
        part = getattr(node, name, None)
        if part is not None and not isinstance(part, str):
            yield from _nodes(part)
    for name in ("arguments", "selector_list"):
        for part in getattr(node, name, None) or ():
            for inner in part if isinstance(part, tuple) else (part,):  # :has(> a): a pair
                if hasattr(inner, "parsed_tree") or hasattr(inner, "selector"):
                    yield from _nodes(inner)


def _is_combinator(node: object) -> bool:
    kind = type(node).__name__
    return kind in ("CombinedSelector", "Relation")


def _sibling_steps(node: object) -> int:
    """The sibling steps `node` itself takes. A :has() whose relative selector begins
    with `+` or `~` (`p:has(~ a ~ b)`) takes one before those inside it: its combinator
    is held beside the selector, not in a CombinedSelector."""
    kind = type(node).__name__
    if kind == "CombinedSelector":
        return int(getattr(node, "combinator", "") in ("+", "~"))
    if kind == "Function":
        return int(str(getattr(node, "name", "")).startswith("nth-"))
    if kind == "Pseudo":
        return int(getattr(node, "ident", "") in _SIBLING_PSEUDOS)
    if kind == "Relation":
        pairs = getattr(node, "arguments", None) or ()
        return sum(getattr(pair[0], "value", "") in ("+", "~") for pair in pairs)
    return 0


def _browser_selector_problem(select: str) -> str | None:
    """What is wrong with a `wait_for`, applied by Chromium's `querySelector`, which reads
    the selectors of CSS Level 4 (`:not(.a, .b)`, `:is()`, `:has()`, `:nth-child(2 of
    .x)`) that cssselect does not: checked as soupsieve (Beautiful Soup's) reads them, less
    the extensions of the selector libraries (`:contains()`, `[a!=b]`) and the namespace
    prefixes (`svg|rect`) Chromium refuses; such a selector made the page `unreadable` at
    every refresh."""
    import warnings

    import soupsieve

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # soupsieve's word on its deprecated :contains
            soupsieve.compile(select)
    except soupsieve.SelectorSyntaxError as error:
        said = str(error).splitlines()[0]
        return f"wait_for {select!r} is not a valid CSS selector: {said}"
    except NotImplementedError:  # soupsieve's word on a pseudo-element
        return f"wait_for {select!r} names a pseudo-element, which no querySelector finds"
    bare = _ESCAPED.sub("_", _QUOTED.sub('""', select))
    unknown = _NOT_IN_CHROMIUM.search(bare)
    if unknown is not None:
        return f"wait_for {select!r} is not a selector Chromium reads: {unknown.group()!r}"
    if "|" in _ATTRIBUTES.sub("[]", bare):
        return f"wait_for {select!r} names a namespace (|), which a page's querySelector refuses"
    return None


_QUOTED = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'")
_ATTRIBUTES = re.compile(r"\[[^\]]*\]")
_ESCAPED = re.compile(r"\\.")
_NOT_IN_CHROMIUM = re.compile(
    r":(?:-soup-)?contains(?:-own)?\(|!=|:current\(|:(?:local-link|target-within|paused"
    r"|playing|muted|seeking|stalled|buffering|volume-locked)(?![\w-])",
    re.IGNORECASE,
)
"""What soupsieve reads and Chromium's `querySelector` refuses (Chromium 120-): the
selector libraries' own extensions, and pseudo-classes of CSS drafts it does not know."""
