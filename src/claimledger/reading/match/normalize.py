"""Normalisation: compare what a reader reads, not how it was typed, and map back.

Pure. Both sides of a comparison are normalised for what does not change meaning
(Unicode form, whitespace, quote and dash style, invisible characters, entities, table
pipes; markup in a quote or a raw markdown page; comment markers in source files). The
page's normalised text keeps a map of offsets back to the page's own characters, so
every passage the matcher reports is the page's wording, verbatim.
"""

from __future__ import annotations

import html
import re
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

TextKind = Literal["text", "markdown", "code"]
"""How to read a page: prose, raw markdown (markup ignored), or source (comment markers ignored)."""


@dataclass(frozen=True)
class _OffsetMap:
    """Where one rewrite changed the length of its input; everything between is copied."""

    out_starts: array[int]
    out_ends: array[int]
    in_starts: array[int]
    in_ends: array[int]

    def _shift_after(self, k: int) -> int:
        return self.in_ends[k] - self.out_ends[k] if k >= 0 else 0

    def to_input_start(self, i: int) -> int:
        k = bisect_right(self.out_starts, i) - 1
        if k >= 0 and i < self.out_ends[k]:
            return self.in_starts[k]
        return i + self._shift_after(k)

    def to_input_end(self, j: int) -> int:
        if j <= 0:
            return 0
        k = bisect_right(self.out_starts, j - 1) - 1
        if k >= 0 and j - 1 < self.out_ends[k]:
            return self.in_ends[k]
        return j + self._shift_after(k)


_Edit = tuple[int, int, str]  # replace text[start:end] by the string


def _rewrite(
    text: str, pattern: re.Pattern[str], edits: Callable[[re.Match[str]], Iterable[_Edit]]
) -> tuple[str, _OffsetMap | None]:
    """Apply the edits proposed for each match, recording only length-changing ones in a map."""
    parts: list[str] = []
    out_starts, out_ends = array("q"), array("q")
    in_starts, in_ends = array("q"), array("q")
    pos = out_len = 0
    for match in pattern.finditer(text):
        for start, end, replacement in edits(match):
            if text[start:end] == replacement:
                continue
            parts.append(text[pos:start])
            out_len += start - pos
            if len(replacement) != end - start:
                out_starts.append(out_len)
                out_ends.append(out_len + len(replacement))
                in_starts.append(start)
                in_ends.append(end)
            parts.append(replacement)
            out_len += len(replacement)
            pos = end
    if not parts:
        return text, None
    parts.append(text[pos:])
    new_text = "".join(parts)
    if not out_starts:
        return new_text, None
    return new_text, _OffsetMap(out_starts, out_ends, in_starts, in_ends)


def _whole(replacement: str) -> Callable[[re.Match[str]], list[_Edit]]:
    return lambda m: [(m.start(), m.end(), replacement)]


_INVISIBLE = (
    "\u00ad\u180e\u200b\u200c\u200d\u2060\ufeff"
    "\u200e\u200f\u061c\u034f\u2061\u2062\u2063\u2064"  # direction marks, joiners, operators
    + "".join(map(chr, range(0xE0000, 0xE0080)))  # tag characters
)
"""Characters no reader sees, dropped: a quote split by one is the quote (a direction
mark moves no word; an explicit override, which does, is read as one)."""
_SUPERSCRIPTS = str.maketrans(
    {c: "^" + d for c, d in zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-", strict=True)}
)
_DROP_INVISIBLE = str.maketrans(dict.fromkeys(_INVISIBLE))
_LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_ONE_TO_ONE = str.maketrans(
    {
        **dict.fromkeys("‘’‚‛ʼ", "'"),
        **dict.fromkeys("“”„‟", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2e3a\u2e3b\ufe58\ufe63", "-"),
        **dict.fromkeys(_LINE_BREAKS, "\n"),
        **{c: " " for c in map(chr, range(0x3001)) if c.isspace() and c not in _LINE_BREAKS},
        **dict.fromkeys(map(chr, range(0xD800, 0xE000)), "\ufffd"),  # a byte no decoder read
    }
)

_NON_ASCII_RUN = re.compile(r"[\x00-\x7f]?[^\x00-\x7f]+")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_COLLAPSE_WS = re.compile(r"[ \t\n\r\f\v]+")


def _clean_chars(run: str) -> str:
    """Superscripts as ``^2`` (so 10² is not 102), then NFKC, then no invisible characters."""
    return unicodedata.normalize("NFKC", run.translate(_SUPERSCRIPTS)).translate(_DROP_INVISIBLE)


def _unicode_edits(m: re.Match[str]) -> list[_Edit]:
    """Clean a non-ASCII run one character (with its combining marks) at a time.

    Small pieces keep the offset map fine-grained, so a quote ending at "…"
    maps back to the ellipsis and not to the curly quote after it.
    """
    run, offset = m.group(), m.start()
    edits: list[_Edit] = []
    start = 0
    while start < len(run):
        end = start + 1
        while end < len(run) and (unicodedata.combining(run[end]) or run[end] in _VOICING):
            end += 1
        piece = run[start:end]
        cleaned = _clean_chars(piece[: 1 + _MOST_MARKS])
        if cleaned != piece:
            edits.append((offset + start, offset + end, cleaned))
        start = end
    return edits


_VOICING = "\uff9e\uff9f"
"""The half-width katakana voicing marks (ﾃﾞ): no combining marks to Unicode, yet NFKC
makes one letter of them and the kana before them (デ), so they are cleaned with it:
cleaned apart, the page's ﾃﾞ stayed two characters and a quote of デ was not found."""

_MOST_MARKS = 30
"""Combining marks kept on one letter, as Unicode's stream-safe text format allows (UAX
#15): no language needs more, and putting a page's run of thousands in canonical order
takes time in the square of their number."""


def _entity_edits(m: re.Match[str]) -> list[_Edit]:
    return [(m.start(), m.end(), _clean_chars(html.unescape(m.group())))]


_MARKUP = re.compile(
    r"""
      (?P<image>!\[(?P<image_text>[^\]\n]{0,1000})\]\([^)\n]{0,2000}\))
    | (?P<link>\[(?P<link_text>[^\]\n]{1,1000})\]
        (?:\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)|\[[^\]\n]*\]))
    | (?P<code>(?P<ticks>`+)(?P<code_text>[^`\n](?:.{0,1000}?[^`\n])??)(?P=ticks)(?!`))
    | (?P<strong>(?P<sd>\*\*|__)(?=[^\s*_])(?P<strong_text>[^\n]{0,1000}?[^\s*_])(?P=sd))
    | (?P<em>(?<![\w*])\*(?=[^\s*])(?P<em_text>[^\n]{0,1000}?[^\s*])\*(?![\w*])
        |(?<![\w_])_(?=[^\s_])(?P<em2_text>[^\n]{0,1000}?[^\s_])_(?![\w_]))
    | (?P<sup><sup>(?P<sup_text>[^<\n]*)</sup>)
    | (?P<br><br\s*/?>)
    | (?P<tag></?(?:a|abbr|b|cite|code|del|em|i|ins|kbd|mark|q|s|samp|small|span|strong|sub|tt
        |u|var)(?:\s[^<>\n]*)?>)
    """,
    re.VERBOSE | re.IGNORECASE,
)


_STRUCK_OUT = re.compile(
    r"""
      (?P<fence>^[ ]{0,3}(?P<mark>`{3,}(?=[^`\n]*$)|~{3,})[^\n]*\n
        (?s:.)*?(?:^[ ]{0,3}(?P=mark)[`~]*[ \t]*$|\Z))
    | (?P<code>(?P<ticks>`+)[^`\n](?:[^\n]{0,1000}?[^`\n])??(?P=ticks)(?!`))
    | (?P<strike>~~(?=\S)[^\n`]{0,1000}?\S~~)
    | (?P<comment>^[ ]{0,3}<!--(?:[^<-]|<(?!!--)|-(?!->))*-->
        |<!--(?:[^<\n-]|<(?!!--)|-(?!->)|\n(?![ \t]*\n))*-->)
    | (?P<struck><(?P<tag>del|s|strike)(?:\s[^<>\n]*)?>
        (?:(?!\n[ \t]*\n)[^`]){0,1000}?</(?P=tag)\s*>)
    """,
    re.VERBOSE | re.IGNORECASE | re.MULTILINE,
)
"""What a raw markdown page shows no one: words struck out (`~~two~~`, its own `<del>`,
`<s>` or `<strike>`, which a rendered page drops as it drops an HTML page's) and its HTML
comments, each within a paragraph (a comment opening a line runs to its end, blank lines
and all, as CommonMark's HTML block does; each stops at the next `<!--`, so a page of
openers never closed is read once); never inside code (a fenced block, a code span),
which shows them as written. Read once, before the markup is stripped, while code is
still marked as code. GitHub's `~one~` is not read as struck: `~5` is "about 5"."""


def _struck_out_edits(m: re.Match[str]) -> list[_Edit]:
    """Drop what `_STRUCK_OUT` found struck out or commented out; code stands as written."""
    return [] if m.lastgroup in ("fence", "code") else [(m.start(), m.end(), "")]


_MARKUP_TEXT = {
    "image": ("image_text",),
    "link": ("link_text",),
    "code": ("code_text",),
    "strong": ("strong_text",),
    "em": ("em_text", "em2_text"),
    "sup": ("sup_text",),
}


def _markup_edits(m: re.Match[str]) -> list[_Edit]:
    """Strip the delimiters of inline markup, keeping the text between them untouched (a
    raw markdown page's struck-out words are gone already: `_STRUCK_OUT`)."""
    kind = m.lastgroup or ""
    if kind not in _MARKUP_TEXT:
        return [(m.start(), m.end(), " " if kind == "br" else "")]
    inner = next(g for g in _MARKUP_TEXT[kind] if m.group(g) is not None)
    opening = "^" if kind == "sup" else ""
    return [(m.start(), m.start(inner), opening), (m.end(inner), m.end(), "")]


_COMMENT_MARKER = re.compile(
    r"^[ \t]*(?:/\*\*?|\*/|\*(?![*/])|//+|#+)|[ \t]*\*/[ \t]*$|(?<=[ \t])(?://+|#+(?=[ \t]))",
    re.MULTILINE,
)


_GAP_KEEPING_LINES = re.compile(r"[ \n|]{2,}|\|")  # a lone line break stays
_GAP_FLAT = re.compile(r"[ \n|]{2,}|[|\n]")


def _gap_edits(text: str, keep_lines: bool) -> Callable[[re.Match[str]], list[_Edit]]:
    """Collapse a run of spaces, line breaks and free-standing table pipes into one gap."""

    def is_gap_at(i: int) -> bool:
        return i < 0 or i >= len(text) or text[i] in " \n"

    def edits(m: re.Match[str]) -> list[_Edit]:
        run = m.group()
        if "|" not in run:
            return [(m.start(), m.end(), "\n" if keep_lines and "\n" in run else " ")]
        out: list[str] = []
        gap: list[str] = []
        for i in range(m.start(), m.end()):
            char = text[i]
            if char != "|" or (is_gap_at(i - 1) and is_gap_at(i + 1)):
                gap.append(char)
                continue
            if gap:
                out.append("\n" if keep_lines and "\n" in gap else " ")
                gap = []
            out.append(char)
        if gap:
            out.append("\n" if keep_lines and "\n" in gap else " ")
        return [(m.start(), m.end(), "".join(out))]

    return edits


def _normalize_once(
    text: str, kind: TextKind, *, markup: bool, keep_lines: bool
) -> tuple[str, list[_OffsetMap]]:
    """One pass of every normalisation step, with the offset maps it produced (in order)."""
    maps: list[_OffsetMap] = []

    def step(pattern: re.Pattern[str], edits: Callable[[re.Match[str]], Iterable[_Edit]]) -> None:
        nonlocal text
        text, offset_map = _rewrite(text, pattern, edits)
        if offset_map is not None:
            maps.append(offset_map)

    if not text.isascii():
        step(_NON_ASCII_RUN, _unicode_edits)
    for _ in range(8):  # "&amp;lt;" takes two rounds; stop once nothing changes
        before = text
        step(_ENTITY, _entity_edits)
        if text == before or "&" not in text:
            break
    if markup:
        for _ in range(8):  # nested markup, one layer a round
            before = text
            step(_MARKUP, _markup_edits)
            if text == before:
                break
    if kind == "code":
        step(_COMMENT_MARKER, _whole(""))
    text = text.translate(_ONE_TO_ONE)
    step(_GAP_KEEPING_LINES if keep_lines else _GAP_FLAT, _gap_edits(text, keep_lines))
    return text, maps


def normalize(text: str, *, kind: TextKind = "text", markup: bool = True) -> str:
    """The normal form the matcher compares, on one line. Idempotent.

    Unicode NFKC, whitespace (NBSP included) collapsed, curly quotes and all dashes
    made plain, soft hyphens and zero-width characters removed, HTML entities
    unescaped, free-standing table pipes dropped; with ``markup`` (a quote, or a raw
    markdown page) inline markdown/HTML markup reduced to its text; for
    ``kind="code"`` comment markers removed. Case, punctuation and wording are kept.
    """
    for _ in range(8):  # steps can expose work for one another ("＆amp;"); run to a fixpoint
        new, _maps = _normalize_once(text, kind, markup=markup, keep_lines=False)
        new = new.strip()
        if new == text:
            break
        text = new
    return text


def normalize_page(text: str, kind: TextKind) -> tuple[str, list[_OffsetMap]]:
    """A page's normal form with its line breaks kept, and the maps back to its characters.

    Markup is reduced only on a raw markdown page: on a rendered page an asterisk or a
    backtick is a character the reader sees.
    """
    maps: list[_OffsetMap] = []
    if kind == "markdown":
        text, struck = _rewrite(text, _STRUCK_OUT, _struck_out_edits)
        maps += [struck] if struck is not None else []
    text, rest = _normalize_once(text, kind, markup=kind == "markdown", keep_lines=True)
    return text, maps + rest


def original_span(maps: list[_OffsetMap], start: int, end: int) -> tuple[int, int]:
    """Offsets in the page text of the normalised run ``[start, end)``."""
    for offset_map in reversed(maps):
        start = offset_map.to_input_start(start)
    return start, original_end(maps, end)


def original_end(maps: list[_OffsetMap], end: int) -> int:
    """The offset in the page text where a normalised run ending at `end` ends: the end of
    `original_span` alone, for a search that asks only where characters end (each map is
    walked once, and not again for a start no one reads)."""
    for offset_map in reversed(maps):
        end = offset_map.to_input_end(end)
    return end


OffsetMap = _OffsetMap
