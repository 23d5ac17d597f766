"""Read a long refresh's pages on every core: a pool of worker processes, fed from the
event loop, that run `refresh.read_task` (extract, prepare, locate, compress) while the
main process fetches and records.

`page_readers(pages)` gives what `refresh` hands its page tasks to: nothing (read
inline, on the loop's thread) for fewer than `POOL_FROM` pages or on one core, where
starting processes costs more than it saves; otherwise a `PagePool`. The pool starts
its workers on the first page that needs reading, so a refresh whose every page answers
304 starts none.

What crosses to a worker is one `PageTask` (the body, the quotes, their last checks and
the stored snapshots they may read), and back one `Reading` (the checks, and the new
snapshot compressed as the store keeps it). The store stays in the main process, which
records each page in one commit as before.

Workers come from a fork server (spawned where there is none), never from a fork of a
process running an event loop; the fork server loads the readers and the lemma
dictionary once, for every worker. Workers ignore Ctrl-C, which is the main process's to
act on (it ends them), and exit as soon as the main process is gone, however it ended,
so a killed refresh leaves no worker behind. An exception a reading raises in a worker
is raised again in the main process, as if read inline; a worker that dies (killed, out
of memory) fails the run with what happened, and every page recorded before stays.
Where no worker process can be started at all, the pages are read inline.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from claimledger.errors import EnvironmentProblem
from claimledger.evidence.budget import process_context
from claimledger.evidence.refresh import PageTask, Readers, Reading, read_task
from claimledger.evidence.store.rows import snapshot_zlib

if TYPE_CHECKING:  # the process machinery loads when a pool first starts
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.connection import Connection

POOL_FROM = 48
"""Pages from which a refresh reads in worker processes. Starting them costs about 0.45 s
of CPU (the fork server loads the readers and the lemma dictionary), as much as forty
pages cost to read: on an idle second core that pays from a few dozen pages, on a busy
machine only from about a hundred (tests/benchmarks/bench_refresh.py --pages N)."""

MAX_WORKERS = 8


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13
        return int(os.process_cpu_count() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@contextlib.contextmanager
def page_readers(
    pages: int, *, workers: int | None = None, first: bool = False
) -> Iterator[Readers | None]:
    """Readers for a refresh of `pages` readings: None (inline) when a pool would not pay,
    else a pool of `workers` processes (one a core, by default), stopped on the way out
    (at once, its workers ended, when the run stops on an error or an interrupt).

    `first`: nothing was read before, so every page will be: the fork server starts at
    once, and loads while the first pages are fetched.
    """
    count = workers if workers is not None else min(cores(), MAX_WORKERS)
    if workers is None and (pages < POOL_FROM or count < 2):
        yield None
        return
    pool = PagePool(max(count, 1))
    if first:
        pool.start()
    try:
        yield pool
    except BaseException:
        pool.close(at_once=True)
        raise
    pool.close()


class PagePool:
    """Worker processes that read pages; `read` from the event loop's thread."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._alive: tuple[Connection, Connection] | None = None
        self._unavailable = False
        self._handed = 0

    def start(self) -> None:
        """Start the fork server now, rather than at the first page to read."""
        with contextlib.suppress(OSError, ImportError, NotImplementedError):
            if process_context().get_start_method() == "forkserver":
                from multiprocessing import forkserver

                forkserver.ensure_running()

    @property
    def capacity(self) -> int:
        """Pages handed over at once: one being read and one waiting, per worker."""
        return 2 * self.workers

    def read(self, task: PageTask) -> asyncio.Future[Reading]:
        return asyncio.ensure_future(self._read(task))

    async def _read(self, task: PageTask) -> Reading:
        from concurrent.futures.process import BrokenProcessPool

        if self._unavailable:
            return read_task(task)
        loop = asyncio.get_running_loop()
        try:
            pool = self._pool()
            if self._handed < self.workers:  # a worker may start: off the loop's thread
                self._handed += 1
                handed = await loop.run_in_executor(None, pool.submit, read_in_worker, task)
                reading = asyncio.wrap_future(handed)
            else:
                reading = loop.run_in_executor(pool, read_in_worker, task)
        except BrokenProcessPool:
            raise _died() from None
        except (OSError, ImportError, NotImplementedError):
            # No worker processes here (no working semaphores, no fork server): read on.
            self._unavailable = True
            return read_task(task)
        try:
            return await reading
        except BrokenProcessPool:
            raise _died() from None

    def close(self, *, at_once: bool = False) -> None:
        """Stop the workers: after their pages, or `at_once` (an error or an interrupt)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        if at_once:
            processes = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # a page may take long: its worker is not waited for
                with contextlib.suppress(OSError, ValueError):
                    process.terminate()
            for process in processes:
                with contextlib.suppress(OSError, ValueError, AssertionError):
                    process.join(timeout=5)
        else:
            executor.shutdown(wait=True, cancel_futures=True)
        for end in self._alive or ():
            end.close()
        self._alive = None

    def _pool(self) -> ProcessPoolExecutor:
        from concurrent.futures import ProcessPoolExecutor

        if self._executor is None:
            context = process_context()
            self._alive = context.Pipe(duplex=False)  # its write end stays here, unused
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_worker_started,
                initargs=(self._alive[0],),
            )
        return self._executor


def read_in_worker(task: PageTask) -> Reading:
    """A worker's reading of one page: `read_task`, and its new snapshot compressed."""
    reading = read_task(task)
    if reading.new_snapshot is None:
        return reading
    return replace(reading, new_snapshot_zlib=snapshot_zlib(reading.new_snapshot))


def _died() -> EnvironmentProblem:
    return EnvironmentProblem(
        "a page reader process died (killed, or out of memory?): the pages recorded so far "
        "are kept; refresh again to read the rest"
    )


def _worker_started(alive: Connection) -> None:
    """In each worker: leave Ctrl-C to the main process, and end with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(alive,), daemon=True).start()


def _end_with(alive: Connection) -> None:
    """Exit when the main process is gone: nothing is ever sent on `alive`, so reading it
    returns only once the main process, the one holder of its other end, has closed it
    (by ending, however it ended)."""
    with contextlib.suppress(EOFError, OSError):
        alive.recv_bytes()
    os._exit(1)
