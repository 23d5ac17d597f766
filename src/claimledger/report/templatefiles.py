"""The user's report templates, read as regular files of their folder and nothing else.

A checkout's `templates/` is the repository's to fill: it can hold `report.md.j2 ->
~/.ssh/id_rsa`, a link to /proc/self/environ, a linked subfolder, a FIFO that would
block the reader for ever, or a file of gigabytes. What a report prints must be what the
folder itself holds, so a template is opened one name at a time from the folder down,
never through a symbolic link (O_NOFOLLOW, the folder's own name included), and read
only when what was opened is a regular file no larger than MAX_TEMPLATE_BYTES; a file
swapped for a link between a check and the read is no way round, since the check is
of what was opened.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from claimledger.errors import TemplateError

MAX_TEMPLATE_BYTES = 1024 * 1024
"""The size a template file may have (ours are 20 kB): a larger one is not read."""

_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC  # a FIFO must not block
_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
}
_PUT_IT_THERE = "put the template itself there"
_NAME_THE_FOLDER = "name the folder it links to with --templates"


def read_template(folder: Path, parts: Sequence[str]) -> str:
    """The text of the template at `folder`/`parts` (a name Jinja has split, with no `..`).

    FileNotFoundError when there is none, so that the next loader is asked; a
    TemplateError naming the file when it, or a folder on the way, is a symbolic link,
    when it is not a regular file, is too large, or is not UTF-8."""
    path = folder.joinpath(*parts)
    with _opened_folder(folder, parts[:-1]) as where:
        descriptor = _open(parts[-1], _FILE, where, path)
    try:
        data = _read_regular(descriptor, path)
    finally:
        os.close(descriptor)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise TemplateError(
            f"{path}: not UTF-8 text (byte {error.start:,} cannot be read); save it as UTF-8"
        ) from None


@contextlib.contextmanager
def _opened_folder(folder: Path, below: Sequence[str]) -> Iterator[int]:
    """A descriptor of `folder`/`below`, each step opened without following a link."""
    descriptor = _open(str(folder), _FOLDER, None, folder, _NAME_THE_FOLDER)
    try:
        for depth, part in enumerate(below, start=1):
            step = _open(part, _FOLDER, descriptor, folder.joinpath(*below[:depth]))
            os.close(descriptor)
            descriptor = step
        yield descriptor
    finally:
        os.close(descriptor)


def _open(name: str, flags: int, where: int | None, path: Path, remedy: str = _PUT_IT_THERE) -> int:
    """`name` opened in the folder `where` (None: as a path), refusing a link."""
    try:
        return os.open(name, flags, dir_fd=where)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            _refuse_link(name, where, path, remedy)  # Linux says ENOTDIR for a linked folder
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            raise FileNotFoundError(errno.ENOENT, "no such template", str(path)) from None
        raise TemplateError(f"cannot read {path}: {error.strerror}") from None


def _refuse_link(name: str, where: int | None, path: Path, remedy: str) -> None:
    """A TemplateError when `name` is a symbolic link (saying where it points)."""
    try:
        target = os.readlink(name, dir_fd=where)
    except OSError:
        return  # not a link after all
    raise TemplateError(
        f"{path} is a symbolic link (to {target}): claimledger reads no template through "
        f"a link, which could show any file of yours in the report; {remedy}"
    )


def _read_regular(descriptor: int, path: Path) -> bytes:
    """What the open file holds, when it is a regular file of at most MAX_TEMPLATE_BYTES
    (read to one byte past, since a file can grow between its size and its reading)."""
    found = os.fstat(descriptor)
    kind = stat.S_IFMT(found.st_mode)
    if kind != stat.S_IFREG:
        what = _KINDS.get(kind, "not a regular file")
        raise TemplateError(f"{path} is {what}, not a template file: claimledger reads only files")
    chunks: list[bytes] = []
    size = 0
    try:
        while size <= MAX_TEMPLATE_BYTES and (chunk := os.read(descriptor, 64 * 1024)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise TemplateError(f"cannot read {path}: {error.strerror}") from None
    if size > MAX_TEMPLATE_BYTES:
        raise TemplateError(
            f"{path} is over {MAX_TEMPLATE_BYTES:,} bytes, more than a template may be"
        )
    return b"".join(chunks)
