"""Names: whether a name was respelled or replaced by another, and the words that name
the thing a claim speaks of.

Pure. A name respelled (`Prev_Kv` / `prev_kv`, `DBOSClient` / `DBOS Client`), shortened
(`maxmemperchild`), grown at its end, or known by another of its names (`OS X` / `macOS`)
names the same thing; a part put before its head, taken from it or changed
(`task_result_backend` / `result_backend`, `is_error` / `is_success`) names another.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from claimledger.reading.match.lexicon import (
    PREPOSITIONS,
    RENAMED,
    ROLE_NOUNS,
    STOPWORDS,
    is_identifier,
    is_name,
    is_word,
    lemma,
    negates,
    number_value,
)
from claimledger.reading.match.span import Opcode


def names_differ(was: list[str], now: list[str]) -> bool:
    """A name replaced by another (`etcdctl` -> `etcdutl`, `task_result_backend` ->
    `result_backend`), or a name by a word or a word by a name (`pyOpenSSL` ->
    `cryptography`, `pickle` -> `JSON`); not a name respelled (`Prev_Kv` -> `prev_kv`,
    `DBOSClient` -> `DBOS Client`, `OS X` -> `macOS`), grown or cut (`Bolt` -> `bbolt`),
    shortened (`maxmemperchild` -> `max-memory-per-child`), or moved to another namespace
    around the same parts (`CELERYD_MAX_MEMORY_PER_CHILD` -> `worker_max_memory_per_child`)."""
    respelled_was, respelled_now = _respelled(was, now)
    old = [w for k, w in enumerate(was) if is_name(w) and k not in respelled_was]
    new = [w for k, w in enumerate(now) if is_name(w) and k not in respelled_now]
    if not old and not new:
        return False
    if not any(is_name(w) for w in was) or not any(is_name(w) for w in now):
        return _name_for_a_word(was, now)
    kept_now, kept_was = set(now), set(was)
    old = [a for a in old if a not in kept_now]  # a name kept as it was is matched already
    new = [b for b in new if b not in kept_was]
    if len(old) * len(now) + len(new) * len(was) > _MOST_PAIRS:
        return True  # more names than are worth pairing: not text a claim is quoted from
    unmatched = [a for a in old if not any(renamed(a, b) for b in now)]
    unmatched += [b for b in new if not any(renamed(a, b) for a in was)]
    return bool(unmatched)  # each name kept, respelled or renamed, or another one


_MOST_PAIRS = 2048
"""The most pairs of a name and a word weighed as one renamed: a sentence holds a handful
of names, and a passage of hundreds (a list of identifiers) is said to differ at once,
rather than weighed pair by pair for seconds."""


def identifier_swapped(was: list[str], now: list[str]) -> bool:
    """One name in the form of code put for another (`allow_redirects` ->
    `follow_redirects`, `Tx.Copy` -> `Tx.WriteTo`, `main.json` -> `default.json`): a
    reader who types the old one now gets an error or another thing, so it is a change
    of what the claim says, where a word's name may be a mere rename. Call only on names
    that differ (`names_differ`)."""
    if len(was) != 1 or len(now) != 1 or not all(_is_code_name(w) for w in (*was, *now)):
        return False
    return not _same_member(was[0], now[0])


IDENTIFIER_CHANGED = "identifier changed"
"""The kind of a setting, function or file named as code and put for another."""


def name_kind(was: list[str], now: list[str]) -> str:
    """A name put for another: an identifier changed when both are code, which a reader
    types (see `identifier_swapped`), else a name that may only have been renamed."""
    return IDENTIFIER_CHANGED if identifier_swapped(was, now) else "name changed"


def number_in_a_name_changed(was: list[str], now: list[str]) -> bool:
    """The same name with another number in it: a key size, a version, a limit written
    into an identifier changed, which a rename never does."""
    old, new = bare("".join(was)), bare("".join(now))
    digits_old, digits_new = re.sub(r"\D", "", old), re.sub(r"\D", "", new)
    letters_old, letters_new = re.sub(r"\d", "", old), re.sub(r"\d", "", new)
    return (
        bool(digits_old and digits_new)
        and digits_old != digits_new
        and (letters_old == letters_new and bool(letters_old))
    )


def identifier_altered(was: list[str], now: list[str], options: frozenset[str]) -> str | None:
    """One identifier put for one that differs from it in any letter (`max_conn` ->
    `max_conns`, `--max-retry` -> `--max-retries`, `maxWorker` -> `maxWorkers`), or a
    name grown by a part into one (`HTTP` -> `HTTP_PROXY`): a reader who types the old
    one gets an error or another setting, though its letters all stand in the new one.
    Of a few in a row, each is weighed against the one in its place (`_each_altered`).
    An identifier changed when both are code, else a name that may have changed. Not a
    name respelled, shortened (`maxmemperchild`) or moved to another namespace around
    the same parts, which `renamed` keeps, nor the same member of another module, nor
    one file named with its extension spelt another way or left off (`_same_file`).
    `options` are the words written as a command's option (after `--`), which a
    hyphenated word is not."""
    old = [w for w in was if w.lower() not in STOPWORDS]
    new = [w for w in now if w.lower() not in STOPWORDS]
    if len(old) == 1 and len(new) == 1:
        return _one_altered(old[0], new[0], options)
    if len(old) != len(new):
        return None
    return _each_altered(old, new, options)


def _each_altered(old: list[str], new: list[str], options: frozenset[str]) -> str | None:
    """Identifiers in a row, each put for one in its place (`max_conn max_retry` ->
    `max_conns max_retries`): one of them altered is a setting changed, as it is alone.
    Only an identifier changed says so; a word or a name of another form beside it is
    left to the rules that weigh a run of words."""
    for a, b in zip(old, new, strict=True):
        altered = _one_altered(a, b, options) == IDENTIFIER_CHANGED
        if altered and not (_respelt_in(a, new, options) and _respelt_in(b, old, options)):
            return IDENTIFIER_CHANGED
    return None


def _respelt_in(name: str, others: list[str], options: frozenset[str]) -> bool:
    """Whether another of the row writes `name` another way (`max_retry` as `maxRetry`):
    a row reordered as it was respelt (`max_conn max_retry` -> `maxRetry maxConn`) puts
    each name in another's place, and changes none of them."""
    return any(_one_altered(name, other, options) is None for other in others)


def _one_altered(old: str, new: str, options: frozenset[str]) -> str | None:
    """One identifier put for one that differs from it (see `identifier_altered`)."""
    coded = [_is_identifier(w, options) for w in (old, new)]
    if not any(coded) or alias(bare(old)) == alias(bare(new)):
        return None
    keepers = (_written_short, _namespace_moved, _same_member, _same_file)
    if any(keeps(old, new) for keeps in keepers):
        return None
    return IDENTIFIER_CHANGED if all(coded) else "name changed"


def options_named(text: str) -> frozenset[str]:
    """The words the text writes as a command's option (`--max-retries`), lower case."""
    return frozenset(found.lower() for found in _OPTION.findall(text))


_OPTION = re.compile(r"(?<![\w-])--([A-Za-z][\w.-]*\w)")


def _is_identifier(word: str, options: frozenset[str]) -> bool:
    return word.lower() in options or (is_identifier(word) and _is_code_name(word))


def _same_member(a: str, b: str) -> bool:
    """`np.array` and `numpy.array`: the same member of a module imported under another
    name, or of another object, which the words around it tell better than its name."""
    member_a, member_b = a.partition(".")[2], b.partition(".")[2]
    return bool(member_a) and member_a == member_b and member_a.lower() not in _EXTENSIONS


_EXTENSIONS = frozenset(
    {"json", "yaml", "yml", "toml", "md", "txt", "py", "ts", "go", "rs", "conf", "cfg"}
    | {"ini", "xml", "html", "htm", "csv", "sh", "env", "lock", "sql", "proto", "markdown"}
    | {"rst", "png", "jpg", "jpeg", "svg"}
)
"""What ends a file's name: `main.json` and `default.json` are two files. (`.js` ends a
host or a product's name as often: `_HOST`.)"""

_FORMAT = {"yml": "yaml", "htm": "html", "jpeg": "jpg", "markdown": "md"}
"""Extensions that spell another's format: `config.yml` is the `config.yaml` of a tool
that reads either, as docs write it one way or the other."""


def _same_file(a: str, b: str) -> bool:
    """One file named with its type's extension spelt another way (`config.yaml` ->
    `config.yml`, `index.htm` -> `index.html`) or left off (`README.md` -> `README`,
    `make_docs.sh` -> `make_docs`), as prose names a file either way: no part of its
    name grown or changed (`HTTP` -> `HTTP_PROXY`), nor another format (`.json`)."""
    (stem_a, type_a), (stem_b, type_b) = _stem_and_type(a), _stem_and_type(b)
    if bare(stem_a) != bare(stem_b) or not (type_a or type_b):
        return False
    return not (type_a and type_b) or _FORMAT.get(type_a, type_a) == _FORMAT.get(type_b, type_b)


def _stem_and_type(name: str) -> tuple[str, str]:
    """A file's name without its extension, and the extension lower-cased ("" if none)."""
    stem, dot, extension = name.rpartition(".")
    if dot and stem and extension.lower() in _EXTENSIONS:
        return stem, extension.lower()
    return name, ""


def _is_code_name(word: str) -> bool:
    if "://" in word or _HOST.search(word):
        return False  # a link or a host names a place, not a setting
    return bool(_CODE_NAME.search(word))


_CODE_NAME = re.compile(r"\w_\w|[A-Za-z_]\.[A-Za-z_]|^[a-z]{2,}[A-Z][a-z]")
"""A setting, a function, a member or a file, as code writes it: `max_retries`,
`DB.Batch`, `maxRetries`; not a product's own capitals (`JavaScript`, `macOS`, `iPhone`
is no setting) or a version."""

_HOST = re.compile(r"\.(?:com|org|net|io|dev|ai|app|co|cloud|js)\b", re.IGNORECASE)
"""The end of a host or a product named like one (`npmjs.org`, `Node.js`)."""


def _respelled(was: list[str], now: list[str]) -> tuple[set[int], set[int]]:
    """The words of each side in a run spelt with the same letters as a run of the other
    (`DBOSClient` and `DBOS Client`, `keypairs` and `key pairs`), or with another of the
    names a thing was known by (`OS X` and `macOS`)."""
    runs_was, runs_now = _bare_runs(was), _bare_runs(now)
    same = runs_was.keys() & runs_now.keys()
    return (
        {k for letters in same for k in runs_was[letters]},
        {k for letters in same for k in runs_now[letters]},
    )


def _bare_runs(words: list[str]) -> dict[str, set[int]]:
    """Each run of words (up to a few) by its letters, with the positions it covers."""
    runs: dict[str, set[int]] = {}
    for start in range(len(words)):
        for end in range(start + 1, min(len(words), start + _RUN_WORDS) + 1):
            letters = alias(bare("".join(words[start:end])))
            if len(letters) > 1 and letters not in STOPWORDS:
                runs.setdefault(letters, set()).update(range(start, end))
    return runs


_RUN_WORDS = 4
"""A name respelled as words takes at most this many (`Mac OS X`)."""


def _name_for_a_word(was: list[str], now: list[str]) -> bool:
    """One word for one word, a name on just one side: what is named changed (`pickle` ->
    `JSON`). A participle describes a state rather than naming a thing (`queued` ->
    `PENDING`), and is no such change."""
    old = [w for w in was if w.lower() not in STOPWORDS]
    new = [w for w in now if w.lower() not in STOPWORDS]
    if len(old) != 1 or len(new) != 1:
        return False
    if any(
        is_participle(w) or number_value(w) is not None or w.lower() in POINTERS
        for w in (*old, *new)
    ):
        return False
    return not renamed(old[0], new[0])


def is_participle(word: str) -> bool:
    """A verb's -ed or -ing form (`queued`, `running`), which describes rather than names."""
    low = word.lower()
    return low.endswith(("ed", "ing")) and lemma(low) != low and is_word(low)


def bare(text: str) -> str:
    """A name with case, separators and spaces dropped: `DBOS Client` -> `dbosclient`."""
    return re.sub(r"[-_./:'\s]", "", text.lower())


def alias(letters: str) -> str:
    """A name's letters, or those of the newest name of the thing it names (`osx` -> `macos`)."""
    return RENAMED.get(letters, letters)


def american(word: str) -> str:
    """A word in American spelling: -ise and -isation as -ize and -ization, -yse as -yze,
    -our as -or (`colour`, `behaviour`) (British and American spellings are one word)."""
    low = word.lower()
    low = _ISE.sub(r"iz\1", low)
    low = _OUR.sub(r"\1or\2", low)
    return _YSE.sub(r"yz\1", low)


_ISE = re.compile(r"(?<=[a-z]{3})is(e|ed|es|ing|ation|ations|er|ers)$")
_YSE = re.compile(r"(?<=[a-z]{2})ys(e|ed|es|ing|er|ers)$")
_OUR = re.compile(
    r"^((?:dis|re|un)?(?:arm|behavi|cand|clam|col|endeav|ferv|flav|fav|glam|harb|hon|hum"
    r"|lab|neighb|od|parl|rig|rum|sav|splend|tum|val|vap|vig))our"
    r"(s|ed|ing|ite|ites|able|ably|ful|hood|less|al|ally|er|ers|ize|ized|ise|ised|way)?$"
)
"""The British spellings in -our (`colour`, `behaviour`, `favourite`), by their stems: not
every word ending so is one (`scour` would read `scor`, and `scoured` `scored`)."""


def renamed(a: str, b: str) -> bool:
    """The same name, respelled or renamed in the ways that keep what it names."""
    bare_a, bare_b = alias(bare(a)), alias(bare(b))
    short, long = sorted((bare_a, bare_b), key=len)
    if short == long or is_typo_of(bare_a, bare_b) or american(bare_a) == american(bare_b):
        return True  # respelled, or a misspelt word put right
    parts_a, parts_b = _name_part_list(a), _name_part_list(b)
    if _written_short(a, b):
        return True  # the parts run together, shortened: `maxmemperchild`
    if len(parts_a) < 2 and len(parts_b) < 2:
        return bool(short) and short in long and len(short) >= len(long) / 2  # grown or cut
    digits_a, digits_b = ([p for p in parts if p.isdigit()] for parts in (parts_a, parts_b))
    words_a, words_b = ([p for p in parts if not p.isdigit()] for parts in (parts_a, parts_b))
    if words_a == words_b and not (digits_a and digits_b):
        return True  # a version number dropped or added: `etcd3` -> `etcd`
    fewer, more = sorted((parts_a, parts_b), key=len)
    if more[: len(fewer)] == fewer:
        return True  # grown or cut at its end, the same stem: `auto-compaction-*`
    # Moved to another namespace around the same parts as the naming convention changed
    # (a constant's capitals to a setting's lower case); a part put before the head or
    # dropped there, or a part changed, names another thing (`is_error` -> `is_success`,
    # `pool_limits` -> `limits`, `allow_redirects` -> `follow_redirects`).
    return _namespace_moved(a, b)


def _written_short(a: str, b: str) -> bool:
    """The parts of one name run together, shortened, in the other: `maxmemperchild`."""
    bare_a, bare_b = alias(bare(a)), alias(bare(b))
    return _abbreviates(bare_a, _name_part_list(b)) or _abbreviates(bare_b, _name_part_list(a))


def _namespace_moved(a: str, b: str) -> bool:
    """The same parts after the first, as a constant's capitals turned to a setting's
    lower case (`CELERYD_MAX_MEMORY_PER_CHILD` -> `worker_max_memory_per_child`)."""
    parts_a, parts_b = _name_part_list(a), _name_part_list(b)
    convention_changed = _shouted(a) != _shouted(b)
    return convention_changed and len(parts_a) == len(parts_b) and parts_a[1:] == parts_b[1:]


def _shouted(name: str) -> bool:
    letters = [c for c in name if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def _abbreviates(short: str, parts: list[str]) -> bool:
    """`maxmemperchild` for `max-memory-per-child`: each part of the long name, in turn,
    begun by the next letters of the short one (and at least half of its letters kept).
    A part is kept whole or cut by two letters at least: one letter more is no
    abbreviation's but another name's (`HTTP_PROXY` / `HTTPS_PROXY`, `max_conn` /
    `max_conns`)."""
    if len(parts) < 2 or len(short) < max(4, len("".join(parts)) / 2):
        return False
    if len(short) > _ABBREVIATION_MOST:
        return False  # a word of page text, however long, is no name shortened
    reached = {0}  # where in `short` the parts so far can have ended, each begun in turn
    for part in parts:  # a set of places, not a search that tries every way again
        reached = {
            at + size
            for at in reached
            for size in range(1, _begun(short, at, part) + 1)
            if size != len(part) - 1
        }
        if not reached:
            return False
    return len(short) in reached


_ABBREVIATION_MOST = 64
"""The longest name read as another shortened; longer words are not tried, so a page's
text cannot make the check slow."""


def _begun(text: str, at: int, part: str) -> int:
    """How many of the first letters of `part` the text has at `at`."""
    size = 0
    while size < len(part) and at + size < len(text) and text[at + size] == part[size]:
        size += 1
    return size


_NAME_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _name_part_list(name: str) -> list[str]:
    """`DB.Batch` -> [db, batch]; `max_memory_per_child` -> [max, memory, per, child]."""
    return [part.lower() for part in _NAME_PART.findall(name)]


def is_typo_of(a: str, b: str) -> bool:
    """A misspelling and its correction: alike, and just one of them a word (so
    synchronous / asynchronous, two words, are never one, nor etcdctl / etcdutl, two names),
    and neither the other with a negating prefix ("unauthenticated", which the dictionary
    may not know)."""
    if min(len(a), len(b)) < 5 or a == b or not (a.isalpha() and b.isalpha()):
        return False
    if negates(a, b):
        return False
    return fuzz.ratio(a, b) >= 85 and is_word(a) != is_word(b)


def role_name_changed(
    op: Opcode, q_low: list[str], p_low: list[str], shown: tuple[list[str], list[str]]
) -> bool:
    """A word or two before the same noun of role replaced ("the proxies parameter" -> "the
    proxy parameter", "the pyOpenSSL library" -> "the cryptography library"): a name, and
    another one, unless only respelled."""
    _, i1, i2, j1, j2 = op
    if i2 >= len(q_low) or j2 >= len(p_low) or q_low[i2] != p_low[j2]:
        return False
    if q_low[i2] not in ROLE_NOUNS or i2 - i1 > 2 or j2 - j1 > 2:
        return False
    was, now = q_low[i1:i2], p_low[j1:j2]
    if any(w in STOPWORDS or w in POINTERS for w in (*was, *now)):
        return False
    return not renamed("_".join(shown[0]), "_".join(shown[1]))


POINTERS = frozenset({"following", "above", "below", "previous", "next", "same", "given"})
"""Words that point at a thing named elsewhere ("the following command" for "the rustc -Vv
command"): the name is shown there, not changed."""


def noun_changed(op: Opcode, q_low: list[str], p_low: list[str]) -> str | None:
    """The head of a noun phrase replaced: the one word between a determiner and the end
    of its phrase ("a router is a class that" -> "a function that"): the thing spoken of
    is another. Not a word before a noun, which may be an adjective ("a distinct name" ->
    "a unique name"), a form of the same word, a spelling, a participle (a state, "the
    queued task"), nor a word that points elsewhere ("the following")."""
    _, i1, i2, j1, j2 = op
    if i2 - i1 != 1 or j2 - j1 != 1 or not i1 or q_low[i1 - 1] not in _DETERMINERS:
        return None
    if i2 < len(q_low) and q_low[i2] not in STOPWORDS:
        return None  # a modifier, not the head
    was, now = q_low[i1], p_low[j1]
    if was in STOPWORDS or now in STOPWORDS or lemma(was) == lemma(now):
        return None
    if not (is_word(was) and is_word(now)) or renamed(was, now):
        return None
    if fuzz.ratio(was, now) >= _VARIANT_SPELLING:
        return None  # "behavior" / "behaviour"
    if any(is_participle(w) or w in POINTERS or number_value(w) for w in (was, now)):
        return None
    return "noun changed"


_VARIANT_SPELLING = 90
"""Two words this alike (0..100) are one word spelt two ways."""


_DETERMINERS = frozenset(
    {"a", "an", "the", "this", "that", "these", "those", "each", "every", "any", "its", "their"}
)


def name_qualifier(op: Opcode, q_shown: list[str], p_shown: list[str]) -> str | None:
    """A name put inside a clause, or taken out of one ("client traffic" -> "client grpc
    traffic", "the KV API guarantees" -> "the API guarantees", "processes using Bolt" ->
    "processes using Bolt in read-write mode"): it may narrow, or widen, what is spoken of,
    or only name it better ("the pub/sub building block" -> "the pub/sub API building
    block"), as often the one as the other on the drift corpora: the meaning may have
    changed. A name the other side still has somewhere (moved, respelled) is none."""
    tag, i1, i2, j1, j2 = op
    run, around, other = (
        (q_shown[i1:i2], q_shown, p_shown)
        if tag == "delete"
        else (p_shown[j1:j2], p_shown, q_shown)
    )
    start, end = (i1, i2) if tag == "delete" else (j1, j2)
    words = [w for w in run if w]
    if not words or len(words) > _QUALIFIER_WORDS or start == 0 or end >= len(around):
        return None
    following = next((w for w in around[end:] if w), "")
    premodifies = following.lower() not in STOPWORDS  # "the KV API", "client grpc traffic"
    if not premodifies and words[0].lower() not in PREPOSITIONS:
        return None  # ("HTTPX uses the CA bundle" -> "the CA bundle is used": a subject)
    kept = {alias(bare(w)) for w in other if w}
    names = [w for w in words if is_name(w) and number_value(w) is None]
    if not names or all(alias(bare(w)) in kept for w in names):
        return None
    return "name removed" if tag == "delete" else "name added"


_QUALIFIER_WORDS = 3
"""A name put in or taken out with at most this many words qualifies what is beside it; a
longer run is a clause of its own."""
