"""Reading claims.yaml and writing it back: locked, compared, atomic.

What an edit changes is `claimledger.ledger.edits`' business (only the lines it must); this
module decides how the result reaches the disk.

Every write is the fix for the lost-update race the model teardown describes: take
the lock, re-read the file, apply the edit to what is on disk *now*, validate the
result, write a temporary file in the same directory, fsync, check the file did not
change behind the lock (an editor does not take it), and atomically replace.
"""

from __future__ import annotations

import codecs
import contextlib
import itertools
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import BinaryIO

from claimledger.errors import (
    ConflictError,
    EnvironmentProblem,
    InputError,
    LedgerError,
    Problem,
    unusable_path,
)
from claimledger.ledger.atomicfile import (
    create_whole,
    followed,
    helper_prefix,
    refuse_links,
    replace_atomically,
    temporary_prefix,
)
from claimledger.ledger.located import collector_paused
from claimledger.ledger.model import Ledger, parse

Change = Callable[[str, Ledger], str]
"""Given the file's current text and its ledger, return the new text."""

LOCK_TIMEOUT = 60.0
COMPARE_RETRIES = 5

MAX_LEDGER_BYTES = 128 * 1024 * 1024
"""Room for some 130,000 claims as people write them (about 1 kB each: folded
statements, two or three facets, history) and for 600,000 plain ones; anything larger
is a mistake, not a ledger."""


# --------------------------------------------------------------------------- reading


def load(path: Path) -> Ledger:
    """Read, check and build the ledger at `path`, or raise with every problem in it."""
    return parse(read_ledger_text(path), str(path))


def missing_ledger(path: Path) -> InputError:
    """Why there is no ledger at `path`: none there, or a loop of symbolic links (which
    `exists` does not tell from none)."""
    try:
        path.stat()
    except OSError as error:
        if (refused := unusable_path(error)) is not None:
            return refused
    return InputError(f"{path}: no such file (create one with `claimledger init`)")


def read_ledger_text(path: Path) -> str:
    """The file's text, with a one-line error for every way reading it can fail."""
    name = str(path)
    if not path.exists():
        raise missing_ledger(path)
    if path.is_dir():
        raise InputError(f"{name}: is a directory, not a ledger file")
    try:
        with path.open("rb") as file:
            data = _read_capped(file, MAX_LEDGER_BYTES)
        if len(data) > MAX_LEDGER_BYTES:
            raise InputError(f"{name}: larger than {MAX_LEDGER_BYTES // 2**20} MiB; not a ledger")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise LedgerError([_not_utf8(name, data, err.start)]) from None
    except OSError as err:
        raise InputError(f"{name}: cannot be read: {err.strerror}") from None


def _not_utf8(name: str, data: bytes, start: int) -> Problem:
    """Where a byte that is not UTF-8 sits, as a line and a column (of characters), so an
    editor can go to it; the byte's offset is said too."""
    line_start = data.rfind(b"\n", 0, start) + 1
    col = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
    return Problem(name, data.count(b"\n", 0, start) + 1, col, f"not UTF-8 text (byte {start})")


def _read_capped(file: BinaryIO, cap: int) -> bytes:
    """At most `cap` bytes and one more, a chunk at a time: /dev/zero has no size, and
    `read(cap + 1)` would ask for the whole cap's memory for a ledger of a few lines."""
    chunks: list[bytes] = []
    size = 0
    while size <= cap and (chunk := file.read(_CHUNK)):
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


_CHUNK = 1024 * 1024


# --------------------------------------------------------------------------- the write


def update(path: Path, change: Change, *, lock_timeout: float = LOCK_TIMEOUT) -> Ledger:
    """Apply `change` to the ledger at `path` under its lock; return the ledger written.

    A disk that is full, read-only or forbids the lock or the write is an
    EnvironmentProblem, and the ledger is left as it was.
    """
    path = followed(path)  # through a symlink: edit, and lock, the file it points to
    try:
        with collector_paused():  # the texts, trees and ledgers held here free no cycle
            return _update(path, change, lock_timeout)
    except OSError as error:
        raise EnvironmentProblem.of(error, path) from None


def _update(path: Path, change: Change, lock_timeout: float) -> Ledger:
    with _locked(path, lock_timeout):
        _remove_stale_temporaries(path)
        for _ in range(COMPARE_RETRIES):
            text = read_ledger_text(path)
            _refuse_anchors(text, path)
            new_text = _in_its_line_ends(change(text, parse(text, str(path))), text)
            ledger = _parse_own_edit(new_text, text, path)
            if new_text == text:
                return ledger
            if _replace_atomically(path, new_text, unchanged_since=text):
                return ledger
    raise ConflictError(
        f"{path}: keeps changing while being written; close other editors and retry"
    )


def _in_its_line_ends(edited: str, text: str) -> str:
    """`edited` with the line ends `text` was written with, where it was written with CRLF
    alone: the lines an edit adds came with LF, and left the file of two kinds."""
    if "\r\n" not in text or "\n" in text.replace("\r\n", ""):
        return edited
    return edited.replace("\r\n", "\n").replace("\n", "\r\n")


def _parse_own_edit(text: str, before: str, path: Path) -> Ledger:
    """The edited ledger. An edit that breaks it is refused and nothing is written: the
    author's to know when the ledger is written in a form edits are not made in (old Mac
    line ends), else our bug."""
    try:
        return parse(text, str(path))
    except LedgerError as error:
        form = _unedited_form(before)
        if form is not None:
            raise _not_editable(path, form) from None
        raise RuntimeError(
            f"an edit of {path} would make it invalid: {error.problems[0]}"
        ) from None


def _not_editable(path: Path, form: str) -> InputError:
    return InputError(
        f"{path}: cannot be edited in place: it is written with {form}; write it "
        "without, or make the change by hand (the file is left as it was)"
    )


def _unedited_form(text: str) -> str | None:
    """The form of YAML in `text` that in-place edits are not made in, if any."""
    if "\r" in text.replace("\r\n", ""):
        return "line ends of a lone carriage return"
    return None


_MAY_ANCHOR = re.compile(r"(?:^|[\s\[{,])[&*][^\s,\[\]{}]")
"""Where an anchor or an alias could begin (after a space, a line's start or a flow
collection's bracket or comma): a text with none of these holds none, and is not scanned."""


def refuse_uneditable(path: Path) -> None:
    """Refuse now an edit `update` would refuse later: a command with work to do before its
    edit (running artifacts) says so before that work, not after it."""
    try:
        text = read_ledger_text(followed(path))
    except OSError as error:
        raise EnvironmentProblem.of(error, path) from None
    _refuse_anchors(text, path)
    form = _unedited_form(text)
    if form is not None:
        raise _not_editable(path, form)


def _refuse_anchors(text: str, path: Path) -> None:
    """Refuse, before any change, to edit a ledger written with YAML anchors or aliases. An
    alias is the anchored value itself, not a copy: an edit of one claim's aliased facet
    would rewrite the anchor's lines under another claim (its grade, its history), and one
    that removes the anchor leaves the alias undefined. Said where the first one stands."""
    import yaml

    if not _MAY_ANCHOR.search(text):  # the ledgers almost all write: no scan
        return
    try:
        tokens = yaml.scan(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        first = next(
            (t for t in tokens if isinstance(t, (yaml.AnchorToken, yaml.AliasToken))), None
        )
    except yaml.YAMLError:
        return  # not YAML: the parse says where
    if first is not None:
        mark = first.start_mark
        raise InputError(
            f"{path}:{mark.line + 1}:{mark.column + 1}: cannot be edited in place: it uses "
            "YAML anchors and aliases (&name, *name), which an edit cannot keep; write it "
            "without them, or make the change by hand (the file is left as it was)"
        )


def lock_path(path: Path) -> Path:
    """The lock beside the ledger; replacing the ledger cannot replace its lock."""
    return path.with_name(f"{helper_prefix(path, len('lock'))}lock")


@contextlib.contextmanager
def _locked(path: Path, timeout: float) -> Iterator[None]:
    from filelock import FileLock, Timeout  # loaded by a command that writes, only

    refuse_links(lock_path(path))  # opening a planted link would truncate what it names
    try:
        with FileLock(lock_path(path), timeout=timeout):
            yield
    except Timeout:
        raise InputError(
            f"{path}: another claimledger command has held its lock for {timeout:.0f} s"
        ) from None


def written_with(path: Path, name: str) -> bool:
    """Whether `name`, beside the ledger at `path`, is the ledger or a file written with
    it (its lock, a temporary): they change whenever the ledger is written."""
    is_temporary = name.startswith(temporary_prefix(path)) and name.endswith(".tmp")
    return name in (path.name, lock_path(path).name) or is_temporary


def _remove_stale_temporaries(path: Path) -> None:
    """Temporaries left by a writer killed mid-write; safe to remove under the lock."""
    for stale in path.parent.glob(f"{temporary_prefix(path)}*.tmp"):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()


def _replace_atomically(path: Path, text: str, *, unchanged_since: str) -> bool:
    """Replace the ledger with `text` unless it no longer reads `unchanged_since` (an
    editor does not take the lock); False, and nothing written, where it changed. It is
    compared once the new text is written and synced, last before the rename: an editor
    that saves while a large ledger is written is not overwritten."""
    data = text.encode("utf-8")
    with path.open("rb") as current:  # the text was read without its byte order mark
        if current.read(len(codecs.BOM_UTF8)) == codecs.BOM_UTF8:
            data = codecs.BOM_UTF8 + data
    return replace_atomically(
        path,
        data,
        prefix=temporary_prefix(path),
        still=lambda: read_ledger_text(path) == unchanged_since,
    )


# --------------------------------------------------------------------------- a new ledger


def starter_ledger() -> str:
    """The text of the ledger `init` writes: one claim on a page that never changes."""
    return resources.files("claimledger").joinpath("data/init/claims.yaml").read_text("utf-8")


def scaffold(directory: Path, files: Mapping[str, str]) -> list[Path]:
    """Create each file (a name under `directory`, and its text); return those made now.

    Refuses before writing anything when any of them already exists (a scaffold never
    overwrites an author's file), unless the files there are its own unfinished work:
    some missing, and each one there byte for byte what it would write, as a run killed
    between two files leaves them. Only the missing ones are made then. Leaves none of
    those it makes behind when one cannot be made.
    """
    paths = {directory / name: text.encode("utf-8") for name, text in files.items()}
    for path in paths:
        if not path.is_symlink():  # a link at a file itself: "already exists", below
            refuse_links(path.parent, below=directory)
    missing = {path: data for path, data in paths.items() if not _there(path)}
    in_the_way = _in_the_way(paths, missing)
    if in_the_way:
        names = ", ".join(str(path) for path in in_the_way)
        raise InputError(f"{names}: already exists; init never overwrites")
    _create_all(directory, missing)
    return list(missing)


def unfinished(directory: Path, files: Mapping[str, str]) -> bool:
    """Are `files` a scaffold's own unfinished work in `directory`: some of them there,
    each byte for byte what it would write, and some missing?"""
    paths = {directory / name: text.encode("utf-8") for name, text in files.items()}
    missing = {path: data for path, data in paths.items() if not _there(path)}
    return 0 < len(missing) < len(paths) and not _in_the_way(paths, missing)


def ours_or_none(path: Path, text: str) -> bool:
    """Is there no file at `path`, or one holding exactly `text` (a scaffold's own, as an
    unfinished run left it)?"""
    return not _there(path) or _holds(path, text.encode("utf-8"))


def _there(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _in_the_way(paths: Mapping[Path, bytes], missing: Mapping[Path, bytes]) -> list[Path]:
    """The files there that stop a scaffold: each one, when none is missing (nothing is
    left unfinished), else each that is not what it would write (an author's, or one
    edited since: finishing beside it would take it for the scaffold's own)."""
    there = [path for path in paths if path not in missing]
    if not missing:
        return there
    return [path for path in there if not _holds(path, paths[path])]


def _holds(path: Path, data: bytes) -> bool:
    """Is `path` a file of its own (no link), ours (a scaffold run by this user wrote it;
    another user's, planted in a shared folder, is theirs to rewrite at any time), holding
    exactly `data`: one a scaffold wrote? Its size is compared first, so that a large file
    of the author's is never read."""
    try:
        found = path.lstat()
        if not stat.S_ISREG(found.st_mode) or found.st_uid != os.getuid():
            return False
        if found.st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


@contextlib.contextmanager
def folder_held(directory: Path) -> Iterator[None]:
    """`directory`, made where missing, held by this init alone while it looks at what is
    there and writes: two inits racing in one folder each took the other's files for an
    unfinished init's, and one's undoing removed what the other had reported made. The
    other fails at once, having written nothing (so removing nothing); the folders made
    here are removed again when this one fails."""
    import fcntl

    try:
        made = _folders_made(directory)
        held = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as error:  # a file where the folder should be, no permission, ...
        raise unusable_path(error) or _cannot_create(error, directory) from None
    try:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError(
                f"{directory}: another claimledger init is writing there now; nothing written"
            ) from None
        try:
            yield
        except BaseException:
            _remove_folders(made)
            raise
    finally:
        os.close(held)


def _create_all(directory: Path, paths: Mapping[Path, bytes]) -> None:
    """Create each new file, all or nothing: an empty templates/ left would be news."""
    created: list[Path] = []
    folders: list[Path] = []
    where = directory
    try:
        for path, data in paths.items():
            where = path
            folders += _folders_made(path.parent)
            create_whole(path, data)
            created.append(path)
    except OSError as error:  # a file where a directory should be, no permission, ...
        for path in created:
            path.unlink(missing_ok=True)
        _remove_folders(folders)
        raise _cannot_create(error, where) from None


def _cannot_create(error: OSError, where: Path) -> InputError:
    return InputError(f"cannot create {error.filename or where}: {error.strerror or error}")


def _folders_made(folder: Path) -> list[Path]:
    """Make `folder` and those above it that are missing; those made here, outermost
    first (one another process made meanwhile is its own, never to be removed here).
    One that cannot be made (a name too long) leaves none of those made before it."""
    missing = list(itertools.takewhile(lambda f: not f.exists(), (folder, *folder.parents)))
    made: list[Path] = []
    try:
        for folder_missing in reversed(missing):
            try:
                folder_missing.mkdir()
            except FileExistsError:
                continue
            made.append(folder_missing)
    except OSError:
        _remove_folders(made)
        raise
    return made


def _remove_folders(folders: list[Path]) -> None:
    """Remove the folders made (outermost first), innermost first, each only if empty."""
    for folder in reversed(folders):
        with contextlib.suppress(OSError):
            folder.rmdir()
