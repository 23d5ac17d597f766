"""Words: tokens, lemmas, and the words that carry meaning in a guarantee.

Pure. Locating a reworded sentence compares *lemmas* ("caught" and "catch", "rarely"
and "rare" are one word), with the function words set aside. Judging a rewording looks
at the classes of words whose change alters what a guarantee promises: negations,
modals by strength and verbs of effort (tries to), numbers and units, quantifiers,
degree, frequency and certainty adverbs, consistency and delivery terms, defaults and
booleans, what happens by itself, qualifiers and phrases of condition, pairs of opposites
(old/new, before/after), verbs of effect (abort, suspend, delete, keep) and nouns that say
what a name names (parameter, library). The lists are general English and general
engineering vocabulary, not any site's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from types import ModuleType

TOKEN = re.compile(r"\w+(?:['.,\-]\w+)*%?|%")
"""A word, keeping `go.etcd.io`, `5.10`, `at-least-once` and `don't` whole."""


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOPWORDS = words(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    either else even every few for from further had has have having he her here hers him his
    how however i if in into is it its itself just let may me might more most must my need
    neither no nor not of off often on once one only or other our ours out over own per same
    shall she should so some such than that the their theirs them then there these they this
    those through thus to too under until up upon us very via was we were what when where
    whether which while who whom whose why will with within without would yet you your yours"""
)

NEGATIONS = words("not no never cannot without none nor neither nothing nobody nowhere n't")
NEGATING_PREFIXES = ("un", "non", "non-", "in", "im", "ir", "il", "dis")

MODAL_STRENGTH = {
    **dict.fromkeys(("must", "shall", "required", "require", "requires", "mandatory"), 4),
    **dict.fromkeys(("need", "needs", "needed"), 4),
    **dict.fromkeys(("will", "would"), 3),
    **dict.fromkeys(("should", "recommended", "recommend", "ought"), 2),
    **dict.fromkeys(("may", "might", "can", "could", "able"), 1),
    **dict.fromkeys(("optional", "optionally"), 1),
}
"""Modals by how strongly they bind: a change between classes is a change of meaning; a
change within one (can / may, must / shall) is a rewording."""

OBLIGATIONS = words("need needs needed require requires required mandatory necessary")
"""Words of obligation a negation lifts ("not required", "need not", "no need"): optional
said another way, where "must not" stays a prohibition."""

HEDGES = words("try attempt aim strive seek intend hope")
"""Verbs that promise only an effort ("tries to ensure"): before "to", they bind as "should"
does, weaker than the plain statement ("ensures") that promises the effect."""
HEDGE_STRENGTH = 2

NUMBER_WORDS = words(
    """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
    ninety hundred thousand million billion half double twice once"""
)
_UNIT_NAMES = """
    second s sec secs second seconds
    millisecond ms msec msecs millisecond milliseconds
    microsecond µs μs microsecond microseconds
    nanosecond ns nanosecond nanoseconds
    minute min mins minute minutes
    hour h hr hrs hour hours
    day day days
    week week weeks
    month month months
    year year years
    byte b byte bytes
    bit bit bits
    kilobyte kb kbyte kbytes kilobyte kilobytes
    kibibyte kib kibibyte kibibytes
    megabyte mb mbyte mbytes megabyte megabytes
    mebibyte mib mebibyte mebibytes
    gigabyte gb gbyte gbytes gigabyte gigabytes
    gibibyte gib gibibyte gibibytes
    terabyte tb terabyte terabytes
    tebibyte tib tebibyte tebibytes
    kilobit kbit kbits kilobit kilobits
    megabit mbit mbits megabit megabits
    gigabit gbit gbits gigabit gigabits
    terabit tbit tbits terabit terabits
    percent % percent percents
    dollar dollar dollars usd
    euro euro euros eur
    pound pound pounds
    sterling sterling gbp sterlings
    yen yen jpy yens
    cent cents
    aud aud auds
    cad cad cads
    nzd nzd nzds
    hkd hkd hkds
    sgd sgd sgds
    chf chf chfs
    cny cny cnys
    inr inr inrs
    sek sek seks
    nok nok noks
    dkk dkk dkks
    mxn mxn mxns
    brl brl brls
    zar zar zars
    krw krw krws
"""
UNIT = {
    spelling: line.split()[0]
    for line in _UNIT_NAMES.strip().splitlines()
    for spelling in line.split()[1:]
}
"""Units of time, size, share and money, each spelling to its unit: `s`, `sec` and
`seconds` are one unit (a rewording); `s` and `ms`, `KB` and `KiB`, or `USD` and `CAD`,
are two (a changed number). A currency's code is its own unit, where `signs` reads the
code of one whose sign is shared as the sign. Every unit is spelt in the plural too, as
a quantity in base units writes it ("5 cads", "100 percents", "5 sterlings"): a unit
without that spelling was lost there, so "100%" -> "100" read as no number changed.
"Cents" is a unit too, where "per cent" is none."""
UNITS = frozenset(UNIT)
CURRENCY_CODES = words(
    "usd eur gbp jpy aud cad nzd hkd sgd chf cny inr sek nok dkk mxn brl zar krw"
)
"""The codes of currencies, as `UNIT` spells them: each names a thing other than money as
often ("CAD files", "a CHF file")."""
MONEY_WORDS = words(
    """cost price fee charge pay payment bill spend budget refund discount invoice worth
    sum amount tax credit buy sell purchase subscription tariff"""
)
"""Words (as lemmas) that say a currency's code beside them names a sum ("costs 5 CAD")."""


class Phrases:
    """Phrases that each say what other words say, as a table: `said` writes each as those
    words, the longest first, where a scan of the text meets it."""

    def __init__(self, table: Mapping[tuple[str, ...], tuple[str, ...]]) -> None:
        self.table = dict(table)
        self._opening = frozenset(phrase[0] for phrase in self.table)
        self.longest = max(len(phrase) for phrase in self.table)

    def said(
        self,
        words: list[str],
        kept: Callable[[list[str], int, tuple[str, ...]], bool] = lambda words, at, phrase: False,
    ) -> list[str]:
        """The words with each phrase as the table says it, unless `kept(words, where the
        phrase starts, phrase)`."""
        said: list[str] = []
        last = 0
        for index, width in self.places(words, kept):
            said.extend(words[last:index])
            said.extend(self.table[tuple(words[index : index + width])])
            last = index + width
        said.extend(words[last:])
        return said

    def places(
        self,
        words: list[str],
        kept: Callable[[list[str], int, tuple[str, ...]], bool] = lambda words, at, phrase: False,
        among: range | None = None,
    ) -> list[tuple[int, int]]:
        """Where each phrase `said` reads stands: its first word's index, and its width;
        of those that begin `among` the words, if given."""
        found: list[tuple[int, int]] = []
        among = range(len(words)) if among is None else among
        index = max(0, among.start)
        while index < min(len(words), among.stop):
            width = self._width_at(words, index, kept)
            if width:
                found.append((index, width))
            index += width or 1
        return found

    def cut_at(self, words: list[str], first: int) -> int:
        """How many words before `first` belong to a phrase that runs on past it."""
        low = [w.lower() for w in words[max(0, first - self.longest) : first + self.longest]]
        at = min(first, self.longest)
        for back in range(at, 0, -1):
            for phrase in self.table:
                if len(phrase) > back and tuple(low[at - back : at - back + len(phrase)]) == phrase:
                    return back
        return 0

    def _width_at(
        self,
        words: list[str],
        index: int,
        kept: Callable[[list[str], int, tuple[str, ...]], bool],
    ) -> int:
        """How many words the longest phrase at `index` takes (0: none), one word too
        ("daily"), wherever it stands, not only where the text ends."""
        if words[index] not in self._opening:
            return 0
        for width in range(min(self.longest, len(words) - index), 0, -1):
            phrase = tuple(words[index : index + width])
            if phrase in self.table and not kept(words, index, phrase):
                return width
        return 0


GUARANTEE_PHRASES = (
    ("at", "least", "once"),
    ("at", "most", "once"),
    ("exactly", "once"),
    ("effectively", "once"),
)
"""Delivery guarantees written as words ("at least once"): each one term, as its
hyphenated spelling is."""
GUARANTEE_TERMS = Phrases({phrase: ("-".join(phrase),) for phrase in GUARANTEE_PHRASES})
"""Each delivery guarantee written as words as its one hyphenated term."""
QUANTIFIERS = {
    **dict.fromkeys(("all", "every", "each", "per", "whole", "entire"), "universal"),
    **dict.fromkeys(("some", "several", "certain", "multiple"), "some"),
    **dict.fromkeys(("many", "most"), "most"),
    "few": "few",
    **dict.fromkeys(("only", "sole", "solely", "exclusively", "single"), "only"),
}
DEGREE = words(
    """always never often sometimes rarely seldom frequently occasionally infinitely
    indefinitely immediately instantly eventually strictly fully partially completely
    entirely exactly approximately almost nearly forever permanently temporarily"""
)
CERTAINTY = {
    **dict.fromkeys(("definitely", "certainly", "surely", "necessarily"), "certain"),
    **dict.fromkeys(("probably", "likely", "presumably"), "likely"),
    **dict.fromkeys(("possibly", "perhaps", "maybe", "unlikely", "worst"), "possible"),
    **dict.fromkeys(
        ("generally", "typically", "usually", "normally", "mostly", "largely"), "mostly"
    ),
    **dict.fromkeys(("mainly", "primarily", "broadly", "roughly"), "mostly"),
}
"""Adverbs of how sure or how general a claim is, by class: "definitely" and "at the worst",
"probably", "possibly", "generally". One swapped for another of its class is a rewording;
one that came, went or changed class changes how much is promised."""
LIFECYCLE = {
    **dict.fromkeys(("supported", "stable", "available", "ga"), "supported"),
    **dict.fromkeys(("deprecated", "legacy"), "deprecated"),
    **dict.fromkeys(
        ("removed", "ignored", "unsupported", "unavailable", "discontinued"), "removed"
    ),
    **dict.fromkeys(("experimental", "beta", "preview", "alpha"), "experimental"),
}
"""Where a feature stands in its life, by class: supported, deprecated, removed or
experimental. A word of one class traded for one of another says what may be relied on
changed ("The v1 API is supported." -> "The v1 API is deprecated.")."""
CONSISTENCY = words(
    """strongly strong eventually eventual consistent consistency inconsistent atomic
    atomically atomicity serializable linearizable at-least-once at-most-once exactly-once
    durable durably durability idempotent idempotency guaranteed guarantee guarantees ordered
    ordering unordered synchronous synchronously asynchronous asynchronously transactional
    effectively-once serializability linearizability causal causally monotonic staleness"""
)
BOOLEANS = words("true false enabled disabled")
DEFAULT_MARKERS = words("default defaults defaulted")
AGENCY = {
    **dict.fromkeys(("automatic", "automatically"), "by itself"),
    **dict.fromkeys(("manual", "manually"), "by hand"),
}
"""Whether a thing happens by itself or must be done: "applied automatically" -> "to apply
them, add ..." changes who acts."""
QUALIFIERS = words(
    """unless except excepting excluding only if when whenever provided providing until
    assuming otherwise"""
)
"""Words that narrow a claim to a case ("X, unless Y", "X only when Y")."""
QUALIFIER_PHRASES = (
    ("as", "long", "as"),
    ("so", "long", "as"),
    ("even", "if"),
    ("even", "when"),
    ("even", "with"),
    ("even", "without"),
    ("in", "case"),
    ("provided", "that"),
    ("other", "than"),
    ("except", "for"),
    ("except", "when"),
    ("except", "if"),
    ("only", "if"),
    ("only", "when"),
)
"""Phrases that set a condition on a claim ("as long as the shutdown completes")."""
_OPPOSITE_PAIRS = """
    old new  before after  parent child  first last  min max  minimum maximum  lower upper
    low high  prepend append  prepended appended  start end  begin end  open close  read write
    reader writer  client server  input output  source destination  source target
    sender receiver  request response  push pull  increase decrease  ascending descending
    include exclude  allow deny  accept reject  enable disable  inbound outbound
    upload download  import export  internal external  public private  local remote
    sync async  leader follower  inner outer  left right  earlier later  earliest latest
    newer older  newest oldest  lowest highest  smaller larger  more less  most least
    add remove  insert delete  create delete  lock unlock  commit rollback  success failure
    succeed fail  valid invalid  safe unsafe  true false  on off  above below  inside outside
    head tail  front back  forward backward  upstream downstream  sooner later
    faster slower  fast slow  shorter longer  short long  reduce increase  reduces increases
    halve double  halves doubles  twice half  double half  more fewer  stop continue
    up down  within after
    stops continues  inclusive exclusive
    opt-in opt-out  ingress egress  plaintext encrypted  same separate  same different
    permanent temporary  permanently temporarily  automatic manual  automatically manually
    synchronous asynchronous  synchronously asynchronously  primary secondary
    strong weak  strongly weakly  cheaper costlier  free paid  before after
    until after  since until  since before  before while  after while  under over
    better worse  higher lower  high low
    source sink  producer consumer  publisher subscriber  encrypt decrypt
    encryption decryption  encode decode  serialize deserialize  compress decompress
    minimum maximum  min max  first last  parent child  explicit implicit
    optimistic pessimistic  hot cold  read-only read-write  allowlist denylist
    whitelist blacklist  stateless stateful  horizontal vertical
"""
_pairs = _OPPOSITE_PAIRS.split()
OPPOSITES = frozenset(
    frozenset(pair) for pair in zip(_pairs[::2], _pairs[1::2], strict=True) if pair[0] != pair[1]
)
PARTICLE_OPPOSITES = frozenset({frozenset({"in", "out"})})
"""Particles of opposite sense after one verb ("log in" / "log out", "check in" / "check
out") that are no opposites elsewhere ("in the log", "out of memory"); "on" / "off" and
"up" / "down" are `OPPOSITES` wherever they stand."""
EITHER_PARTICLE = words("fill")
"""Verbs that say the same with either particle: "fill in" a form is "fill out" one."""
_EFFECT_FAMILIES = """
    keep retain preserve store save persist cache hold
    delete remove drop discard evict purge destroy erase truncate expire
    abort cancel terminate kill stop fail
    suspend pause wait block queue defer
    resume restart retry repeat replay recover rerun reuse
    allow permit accept enable include grant
    deny reject prevent disable exclude forbid refuse
    read load fetch receive
    write overwrite replace merge append prepend update
    commit flush sync acknowledge ack
    rollback revert reset
    start run execute schedule launch spawn
    send broadcast notify forward redirect publish
    skip ignore
    lock unlock open close raise throw return succeed
"""
EFFECT_FAMILY = {
    verb: index
    for index, line in enumerate(_EFFECT_FAMILIES.strip().splitlines())
    for verb in line.split()
}
"""Verbs of what a system does, by family: keep / store / persist are one effect, delete /
drop / evict another; a verb swapped for one of another family changes what happens."""
EFFECT_VERBS = frozenset(EFFECT_FAMILY)


ROLE_NOUNS = words(
    """parameter parameters argument arguments option options setting settings flag flags
    variable variables field fields key keys attribute attributes property properties
    method methods function functions class classes command commands header headers module
    modules package packages library libraries type types extension extensions plugin
    plugins endpoint endpoints format formats exception exceptions error errors event events
    hook hooks backend backends protocol protocols"""
)
"""Nouns that say what kind of thing a name before them is ("the proxies parameter", "the
cryptography library"): the word before one is a name, however it is spelt."""

COORDINATORS = frozenset({"and", "or", "nor"})
PREPOSITIONS = frozenset({"in", "with", "for", "by", "on", "under", "through", "via", "from"})
DEMONSTRATIVES = frozenset({"this", "these", "such"})

_RENAMES = """
    macos osx macosx
"""
RENAMED = {
    alias: names.split()[0] for names in _RENAMES.strip().splitlines() for alias in names.split()
}
"""Names a thing was known by over time, lower case without spaces, each to its newest name
(`OS X` is `macOS`): one for another is no change of what is named."""


_CONTRACTIONS = {
    "won't": ("will", "not"),
    "can't": ("can", "not"),
    "cannot": ("can", "not"),
    "shan't": ("shall", "not"),
}
_SUFFIXES = {"n't": ("not",), "'ll": ("will",), "'re": ("are",), "'ve": ("have",), "'d": ("would",)}


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def expanded(token: str) -> tuple[str, ...]:
    """A contraction as its words ("won't" -> will not, "doesn't" -> does not), so that a
    contraction is never a change of meaning, a figure joined to its unit's name ("10-hour")
    as the two, and a version written short ("v15") as "version 15"; other tokens as they
    are."""
    low = token.lower().replace("’", "'")
    if low in _CONTRACTIONS:
        return _CONTRACTIONS[low]
    joined = _FIGURE_WITH_UNIT.fullmatch(low) if "-" in low else None
    if joined is not None and joined[3] in UNIT:
        return joined[1], _as_counted(joined[1], joined[3])  # "a 10-hour wait": 10 hours
    version = _VERSION.fullmatch(low) if low[:1] == "v" else None
    if version is not None:
        return "version", version[1]  # "added in v15": in version 15
    for suffix, words_ in _SUFFIXES.items():
        if low.endswith(suffix) and len(low) > len(suffix):
            return (low[: -len(suffix)], *words_)
    return (low,)


_VERSION = re.compile(r"v(\d+(?:\.\d+)*)")
"""A version as written short (`v15`, `v3.12`): "version 15", "version 3.12"."""


def _as_counted(figure: str, unit: str) -> str:
    """A unit's name as it is written after its figure: "hours" after 10, "hour" after 1."""
    return unit + "s" if UNIT[unit] == unit and figure != "1" else unit


_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
_NUMBER_VALUES = {
    word: str(value)
    for value, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
} | {
    word: str(value)
    for value, word in enumerate(
        [
            "zeroth",
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
        ]
    )
    if value
}


ORDINAL_WORDS = words(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
)


_FIGURE_WITH_UNIT = re.compile(r"(\d[\d.,:]*)(?:([a-zµμ%]{1,3})|-([a-z]{2,}))")
"""A figure with its unit's abbreviation (`10h`), or joined by a hyphen to its unit's name
as a modifier is written (`a 10-hour window`, `a 30-sec timeout`)."""


def figure_and_unit(token: str) -> tuple[str, str] | None:
    """A figure written with its unit (`10h`, `4MB`, `30s`, `10-hour`) as its number and
    its unit (`10`, `hour`), so that "10h", "a 10-hour wait" and "10 hours" are one
    quantity. "5m" is not read: it is a 5-minute wait as often as a 5-metre cable or 5
    million."""
    found = _FIGURE_WITH_UNIT.fullmatch(token.lower())
    unit = None if found is None else found[2] or found[3]
    if found is None or unit not in UNIT:
        return None
    return found[1], UNIT[unit]


_TENS = {
    word: str(10 * tens)
    for tens, word in enumerate(
        ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    )
    if word
}


def number_value(token: str) -> str | None:
    """A number's value as digits ("three" and "3", "twenty-four" and "24", "eleventh" and
    "11th" are one value), or None for a word that is not a number (`etcd3` and `http2`
    are names)."""
    low = token.lower()
    if low in _NUMBER_VALUES:
        return _NUMBER_VALUES[low]
    if low in _TENS:
        return _TENS[low]
    tens, _, unit = low.partition("-")
    if tens in _TENS and unit in _NUMBER_VALUES and 0 < int(_NUMBER_VALUES[unit]) < 10:
        return str(int(_TENS[tens]) + int(_NUMBER_VALUES[unit]))
    ordinal = _ORDINAL.fullmatch(low)
    if ordinal:
        return ordinal[1]
    if _FIGURE.fullmatch(low):
        value = low.removeprefix("v").rstrip("%")
        return _THOUSANDS.sub("", value) if _GROUPED.match(value) else value
    return None


_FIGURE = re.compile(r"v?\d[\d.,:]*(?:[a-z]{1,3}|%)?")
"""A figure as `number_value` reads it (`3`, `v2`, `1,000`, `10ms`, `50%`), compiled once:
the matcher asks it of every word it weighs, and `re.fullmatch` given the pattern's text
looks it up in `re`'s cache at every call."""
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)")
"""A number written with thousands separators ("3,000", "1,000,000"), the same as without."""
_THOUSANDS = re.compile(r",(?=\d{3})")


@lru_cache(maxsize=1 << 16)
def lemma(token: str) -> str:
    """The token's dictionary form, lower case: "caught" -> "catch", "rarely" -> "rare".

    Identifiers, numbers and words the dictionary does not know stay as they are
    (lower-cased), so `max_retries` never meets `max`.
    """
    word = token.lower()
    if not word.isalpha():
        return word.removesuffix("'s")
    base = _lemmatized(word).lower()
    if base.endswith("ly") and len(base) > 5:
        for stem in (base[:-2], base[:-3] + "y" if base.endswith("ily") else ""):
            if stem and _known(stem):
                return stem
    return base


def is_word(token: str) -> bool:
    """Is it an English word the dictionary knows (in any of its forms)?"""
    low = token.lower()
    return _known(low) or _known(lemma(low))


def _lemmatized(word: str) -> str:
    """The dictionary is read from its compressed stream as words are asked
    (`low_memory`): the same lemmas, where the whole table held as a dict would add some
    25 MiB to a refresh's peak (tests/test_lexicon_memory.py)."""
    return str(_simplemma().lemmatize(word, lang="en", low_memory=True))


def _known(word: str) -> bool:
    return bool(_simplemma().is_known(word, lang="en", low_memory=True))


@cache
def _simplemma() -> ModuleType:
    """simplemma compiles its rules when imported (about 0.1 s), so it is loaded at the
    first word looked up: a command that compares no wording never pays for it."""
    import simplemma

    return simplemma


def is_content(token: str) -> bool:
    return token.lower() not in STOPWORDS


def is_content_word(word: str) -> bool:
    """A lower-cased word that is neither grammar nor punctuation."""
    return word not in STOPWORDS and any(c.isalnum() for c in word)


def is_number(token: str) -> bool:
    return number_value(token) is not None


_IDENTIFIER = re.compile(r"[a-z][A-Z]|_|\w[./:]\w|^[A-Z][A-Z0-9]+$|\d[a-zA-Z]|[a-zA-Z]\d")
_ABBREVIATIONS = words("i.e e.g etc vs cf a.k.a n.b")


def is_identifier(token: str) -> bool:
    """Code-shaped: `max_retries`, `DB.Batch`, `camelCase`, `HTTP2`, `etcd3`, `ETCD`."""
    return token.lower() not in _ABBREVIATIONS and bool(_IDENTIFIER.search(token))


def is_name(token: str, *, first: bool = False) -> bool:
    """A word that names one thing: code-shaped, capitalised inside a sentence (a product,
    a format), hyphenated (`git-checkout`), or unknown to the dictionary (`etcdctl`)."""
    if is_identifier(token):
        return True
    if not token.isalpha():
        return "-" in token and all(part.isalnum() for part in token.split("-"))
    if token.isupper() and len(token) > 1:
        return True  # an acronym: JSON, SQS, KV
    if token[0].isupper() and not first:
        return token.lower() not in STOPWORDS and not is_word(token)
    return len(token) > 3 and not _known(token.lower())


def negated(token: str) -> bool:
    """A word that carries its own negation: un-, non-, mis-, ir-, il- before a word the
    dictionary knows (`unable`, `nonzero`, `mismatch`, `irreversible`, `illegal`); not in-
    or im-, which begin as many words that negate nothing (`inform`, `impose`), nor a
    word that only looks prefixed (`missing` is no mis-`sing`)."""
    low = token.lower()
    if low in _NOT_PREFIXED or lemma(low) in _NOT_PREFIXED:
        return False
    for prefix in ("un", "non-", "non", "mis", "ir", "il"):
        stem = low[len(prefix) :]
        if low.startswith(prefix) and len(stem) >= 4 and _known(stem):
            return True
    return False


_NOT_PREFIXED = words("missing missed misses miss mistake mistakes mistaken illustrate")


def negating(word: str) -> bool:
    """A lower-cased word that denies: "not", one with its own negation ("unable"), or one
    that says a thing is not there ("lacks", "missing": does not have, does not exist)."""
    return word in NEGATIONS or word in _PRIVATIVES or negated(word)


_PRIVATIVES = words(
    """lack lacks lacked lacking missing absent disable disables disabled deactivate
    deactivates deactivated prevent prevents prevented forbid forbids forbidden prohibit
    prohibits prohibited disallow disallows disallowed skip skips skipped immutable"""
)
"""Words that deny what they are said of: "lacks" does not have, "is disabled" is not
enabled, "prevents" and "forbids" do not allow, "skips" does not run, "is immutable"
cannot be changed."""


def negates(a: str, b: str) -> bool:
    """True for pairs such as able/unable or blocking/non-blocking."""
    a, b = a.lower(), b.lower()
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and any(long == prefix + short for prefix in NEGATING_PREFIXES)


def are_opposites(a: str, b: str) -> bool:
    """Words of opposite sense, as written or in their dictionary forms ("lower" / "upper",
    "halves" / "doubles")."""
    pair = frozenset((a.lower(), b.lower()))
    return pair in OPPOSITES or frozenset((lemma(a), lemma(b))) in OPPOSITES
