"""Files kept in the user's own cache that are later loaded as code (compiled templates),
believed only when signed with a key of the user's own.

A cache directory made for the user alone is not enough to trust what it holds: it is
checked when chosen and read later, by a path that whoever can write to a folder above
it (an `$XDG_CACHE_HOME` in a shared place) can point elsewhere in between. So each read
opens the folder and then the file through descriptors, never through a link, checks
what was opened (a folder and a regular file of this user's that no one else may write
to), reads the file once, and hands out its bytes only when their HMAC-SHA256, under a
random key kept in the user's config directory, is the one written with them. Bytes
that fail any check are as good as absent: the caller compiles anew.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

from claimledger.ledger.userdirs import cache_directory, config_directory, is_private

KEY_FILE = "cache-signing.key"
KEY_BYTES = 32
MAX_KEPT_BYTES = 8 * 1024 * 1024
"""The largest file the cache reads (a compiled report template is some 50 kB)."""

_SIGNATURE_BYTES = hashlib.sha256().digest_size
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class SignedCache:
    """A folder of the user's whose files are read back only as this user's claimledger
    wrote them (`read` gives None for anything else)."""

    def __init__(self, folder: Path, key: bytes) -> None:
        self.folder = folder
        self._key = key

    def read(self, name: str) -> bytes | None:
        """What was kept as `name`, if its signature holds; else None."""
        with contextlib.suppress(OSError), _private_folder(self.folder) as folder:
            signed = _read_own_file(folder, name, MAX_KEPT_BYTES + _SIGNATURE_BYTES)
            if signed is not None:
                signature, data = signed[:_SIGNATURE_BYTES], signed[_SIGNATURE_BYTES:]
                if hmac.compare_digest(signature, self._signature(name, data)):
                    return data
        return None

    def write(self, name: str, data: bytes) -> None:
        """Keep `data` as `name`, signed, replacing it in one step; a cache that cannot be
        written is no error (the next run compiles again)."""
        if len(data) > MAX_KEPT_BYTES:
            return
        with contextlib.suppress(OSError), _private_folder(self.folder) as folder:
            _replace(folder, name, self._signature(name, data) + data)

    def _signature(self, name: str, data: bytes) -> bytes:
        """The HMAC of the name and the bytes: a file signed for one name is not taken
        for another."""
        message = name.encode("utf-8", "surrogateescape") + b"\0" + data
        return hmac.new(self._key, message, hashlib.sha256).digest()


def signed_cache(name: str) -> SignedCache | None:
    """claimledger/NAME in the user's cache, signed with the user's key; None where either
    cannot be had (then nothing is kept, and nothing is believed)."""
    folder = cache_directory(name)
    key = signing_key()
    return None if folder is None or key is None else SignedCache(folder, key)


def signing_key() -> bytes | None:
    """The user's cache key, made on first use, in their private config directory."""
    directory = config_directory()
    if directory is None:
        return None
    with contextlib.suppress(OSError), _private_folder(directory) as folder:
        key = _read_own_file(folder, KEY_FILE, KEY_BYTES + 1)
        if key is None:
            key = _new_key(folder)
        return key if len(key) == KEY_BYTES else None
    return None


def _new_key(folder: int) -> bytes:
    """A new random key, written only where none is yet (another run may be writing its
    own at the same moment: then that one is read)."""
    key = secrets.token_bytes(KEY_BYTES)
    try:
        descriptor = os.open(KEY_FILE, _NEW_FILE, 0o600, dir_fd=folder)
    except FileExistsError:
        return _read_own_file(folder, KEY_FILE, KEY_BYTES + 1) or b""
    try:
        _write_all(descriptor, key)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    return key


@contextlib.contextmanager
def _private_folder(path: Path) -> Iterator[int]:
    """A descriptor of the folder at `path` when it is this user's alone (OSError else):
    what is checked is what was opened, and every file is then opened from it."""
    descriptor = os.open(path, _FOLDER)
    try:
        if not is_private(os.fstat(descriptor)):
            raise PermissionError(errno.EPERM, "not a folder of this user's alone", str(path))
        yield descriptor
    finally:
        os.close(descriptor)


def _read_own_file(folder: int, name: str, limit: int) -> bytes | None:
    """The bytes of `name` in `folder` (read once, at most `limit`), when it is a regular
    file of this user's that no one else may write to; None when there is none."""
    try:
        descriptor = os.open(name, _FILE, dir_fd=folder)
    except FileNotFoundError:
        return None
    try:
        found = os.fstat(descriptor)
        if not _own_regular_file(found) or found.st_size > limit:
            return None
        data = _read_all(descriptor, limit + 1)
    finally:
        os.close(descriptor)
    return data if len(data) <= limit else None


def _read_all(descriptor: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size < limit and (chunk := os.read(descriptor, limit - size)):
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def _own_regular_file(found: os.stat_result) -> bool:
    mine = stat.S_ISREG(found.st_mode) and found.st_uid == os.getuid()
    return mine and stat.S_IMODE(found.st_mode) & 0o022 == 0


def _replace(folder: int, name: str, data: bytes) -> None:
    """Write `data` beside `name` (mode 0600) and rename it over `name`: a reader sees the
    old file or the new one, whole."""
    temporary = f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    descriptor = os.open(temporary, _NEW_FILE, 0o600, dir_fd=folder)
    try:
        try:
            _write_all(descriptor, data)
        finally:
            os.close(descriptor)
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise
