"""Replacing a file so that a reader, or a crash, only ever sees the old or the new whole.

The new content is written and fsynced beside the file, then renamed over it, and the
directory is fsynced so the rename itself survives a power cut. Where the system
allows it the content goes first to an anonymous file (O_TMPFILE) that gets a name
only once it is complete, so a writer killed while writing leaves nothing behind.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from claimledger.errors import InputError, link_loop, unusable_path


def refuse_links(path: Path, *, below: Path | None = None) -> None:
    """Refuse to write at `path` through a symbolic link the user did not name.

    A cloned repository can hold `out/report.md -> ~/.ssh/authorized_keys`, or an `out`
    directory that links elsewhere: a file the tool writes by default (a report, its state,
    the store, a lock) is never written through a link at the file, nor at a directory
    between `below` (the ledger's directory) and it. A path the user names is theirs.
    """
    checked = [path]
    if below is not None:
        try:
            inside = path.relative_to(below)
        except ValueError:
            inside = None
        if inside is not None:
            checked += [below / Path(*inside.parts[:n]) for n in range(1, len(inside.parts))]
    for candidate in checked:
        if candidate.is_symlink():
            target = candidate.readlink()
            raise InputError(
                f"{candidate} is a symbolic link (to {target}): claimledger does not write "
                "through a link it was not given; remove the link, or name the path yourself"
            )


NAME_MAX = 255
"""The longest file name, in bytes, that the common file systems take (ext4, XFS, btrfs,
tmpfs; APFS and NTFS count 255 characters)."""

TEMPORARY_ROOM = 23
"""What a temporary's name adds after its prefix: `<pid>.<8 hex digits>.tmp`, the pid
given ten digits."""


def helper_prefix(path: Path, room: int) -> str:
    """`.NAME.`, where NAME is `path`'s name: how the name of a file kept beside it (its
    temporary, its lock) begins, `room` bytes to follow. Where that would be longer than
    a file name may be, though `path`'s own name is not, NAME is cut and 16 hex digits of
    its hash added: a helper never fails where the file itself would not, and the same
    file's helpers always have the same name (so a leftover one is found)."""
    whole = f".{path.name}."
    if len(os.fsencode(whole)) + room <= NAME_MAX:
        return whole
    digest = hashlib.sha256(os.fsencode(path.name)).hexdigest()[:16]
    cut = path.name
    while len(os.fsencode(f".{cut}~{digest}.")) + room > NAME_MAX:
        cut = cut[:-1]
    return f".{cut}~{digest}."


def temporary_prefix(path: Path) -> str:
    """How the names of `path`'s temporaries begin (see `helper_prefix`)."""
    return helper_prefix(path, TEMPORARY_ROOM)


def followed(path: Path) -> Path:
    """`path` made absolute, its symbolic links followed; a loop of them refused as the
    input it is (Python 3.11 raises RuntimeError for one, later versions OSError)."""
    try:
        return path.resolve()
    except RuntimeError:
        raise link_loop(path) from None
    except OSError as error:
        raise unusable_path(error) or error from None


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (a named pipe)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def refuse_all_but_a_file(path: Path, what: str) -> None:
    """Refuse `path` when something other than a regular file stands there (through a
    link too): a directory, a FIFO, a device, a socket. It is told by its status, never
    opened: opening a FIFO waits for a writer for ever, and replacing one, or a device,
    with a file would take away what the system or another program uses it for. Nothing
    there (or a file where a folder of the path should be) is no refusal here: the file is
    made, or its writing says what stands in the way."""
    try:
        mode = path.stat().st_mode
    except OSError as error:
        if (refused := unusable_path(error)) is not None:
            raise refused from None
        return
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise InputError(f"{path} is {kind}, where {what} should be a file")


Content = bytes | Iterable[bytes]
"""What is written: the bytes, or pieces of them as they are made (a report streamed to
its file, never held whole); an error raised while the pieces are made leaves the old
file as it was and no temporary behind."""


def replace_atomically(
    path: Path,
    data: Content,
    *,
    prefix: str | None = None,
    still: Callable[[], bool] = lambda: True,
) -> bool:
    """Put `data` at `path` in one step, keeping the file's permissions if it exists;
    False, and the file left as it is, where `still()` says no once the new content is
    written and synced: asked last, just before the rename, so that what it checks (the
    file unchanged since it was read) cannot change in the time the writing takes.

    Temporaries are named `<prefix><pid>.<random>.tmp` in the same directory (by default
    `temporary_prefix`), so an owner holding a lock can find and remove a leftover one.
    """
    if path.is_dir():
        raise IsADirectoryError(21, "is a directory", str(path))
    kept = path.stat() if path.exists() else None
    mode = None if kept is None else kept.st_mode & 0o777  # new: the umask decides
    prefix = prefix if prefix is not None else temporary_prefix(path)
    try:
        temporary = _write_temporary(path, data, mode, prefix)
    except OSError as error:
        _named_as_the_file(error, path, prefix)
        raise
    try:
        if kept is not None:
            _keep_owner(temporary, kept)
        if not still():
            temporary.unlink(missing_ok=True)
            return False
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _fsync_directory(path.parent)
    return True


def create_whole(path: Path, data: bytes) -> None:
    """Make the new file `path` holding `data`, never replacing one there (FileExistsError):
    it gets its name only once its bytes are all written and synced, so a writer killed
    or interrupted while writing leaves no file, where an empty or cut one would be taken
    for the author's and refused as already there. Where the file system makes no hard
    links, it is made in place (the old way). Where the system makes anonymous files, the
    file is named `path` straight from one: a kill leaves no temporary's name behind, which
    would count in the folder's fingerprint and make its artifacts' consent "changed"."""
    if not path.exists() and _write_anonymous_then_name(path, data, None):
        _fsync_directory(path.parent)
        return
    prefix = temporary_prefix(path)
    try:
        temporary = _write_temporary(path, data, None, prefix)
    except OSError as error:
        _named_as_the_file(error, path, prefix)
        raise
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
    except OSError:  # no hard links here (some FUSE and FAT file systems)
        _create_in_place(path, data)
    finally:
        temporary.unlink(missing_ok=True)
    _fsync_directory(path.parent)


def _create_in_place(path: Path, data: Content, mode: int | None = None) -> None:
    """Make `path` and write `data` into it; removed again where the writing fails."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else mode)
    try:
        _write_all(fd, data, mode)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)


def _named_as_the_file(error: OSError, path: Path, prefix: str) -> None:
    """An error in writing the temporary names the file the user asked for: "cannot write
    out/report.md: read-only", not the temporary's name, which they never gave."""
    names = (error.filename, error.filename2)  # O_TMPFILE's link names it the second
    if any(isinstance(n, str) and _is_temporary(Path(n), path, prefix) for n in names):
        error.filename, error.filename2 = str(path), None


def _is_temporary(named: Path, path: Path, prefix: str) -> bool:
    return named.parent == path.parent and named.name.startswith(prefix)


def _keep_owner(temporary: Path, kept: os.stat_result) -> None:
    """Give the new file the owner and group of the one it replaces, as far as this process
    may (root any; a user, a group of theirs): a ledger a group shares keeps its group, and
    one root edits for its owner (`sudo`, a container on a mounted checkout) stays theirs,
    where the new file would be the writer's and the others could no longer write it."""
    made = temporary.stat()
    if (made.st_uid, made.st_gid) == (kept.st_uid, kept.st_gid) or not hasattr(os, "chown"):
        return
    for uid in (kept.st_uid, -1):  # a user may not give a file away, but may keep its group
        try:
            os.chown(temporary, uid, kept.st_gid)
            return
        except OSError:
            continue


def _write_temporary(path: Path, data: Content, mode: int | None, prefix: str) -> Path:
    """Write and fsync the new content beside `path`; return the temporary's name."""
    name = path.with_name(f"{prefix}{os.getpid()}.{os.urandom(4).hex()}.tmp")
    if not _write_anonymous_then_name(name, data, mode):
        _create_in_place(name, data, mode)
    return name


def _write_anonymous_then_name(name: Path, data: Content, mode: int | None) -> bool:
    """Try the O_TMPFILE way; False when this system or filesystem cannot do it (told
    before any piece of streamed content is taken, which could not be taken twice)."""
    if not hasattr(os, "O_TMPFILE"):
        return False
    try:
        fd = os.open(name.parent, os.O_TMPFILE | os.O_WRONLY, 0o666 if mode is None else mode)
    except OSError:
        return False
    try:
        if not Path(f"/proc/self/fd/{fd}").exists():
            return False  # no way to give it a name
        _write_all(fd, data, mode)
        _name_anonymous(fd, name)
    except OSError:
        if not isinstance(data, bytes):
            raise
        return False
    finally:
        os.close(fd)
    return True


def _name_anonymous(fd: int, name: Path) -> None:
    """Link the anonymous file `fd` into the directory as `name`.

    The link must follow /proc/self/fd/N to the file. Without a directory fd, os.link
    may call link(2) (CPython 3.11 does), which on Linux does not follow it and fails
    with EXDEV; with one it calls linkat(2) with AT_SYMLINK_FOLLOW, which does.
    """
    directory = os.open(name.parent, os.O_RDONLY)
    try:
        os.link(f"/proc/self/fd/{fd}", name.name, dst_dir_fd=directory, follow_symlinks=True)
    finally:
        os.close(directory)


def _write_all(fd: int, data: Content, mode: int | None) -> None:
    if mode is not None:
        os.fchmod(fd, mode)  # a replaced file keeps its permissions, whatever the umask
    for piece in [data] if isinstance(data, bytes) else data:
        view = memoryview(piece)
        while view:
            written = os.write(fd, view)
            view = view[written:]
    os.fsync(fd)


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable, where the platform allows it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
