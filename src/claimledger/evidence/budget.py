"""Work that a hostile input can make endless, run in a process of its own under a CPU
budget: reading a page through a source's CSS selector, and reading a PDF.

lxml applies a selector as XPath inside libxml2, in one call that no signal, timeout or
thread can interrupt, and a selector checked as sane (`selectors.selector_problem`) can
still walk every sibling for every sibling on a page of 100,000 paragraphs. So the
selection runs in a child process whose CPU time is capped (ITIMER_PROF, whose signal
ends it), and whose wall time the caller waits for only so long: past either, the
child is ended and the page is `PageUnreadable`, "took too long to read", like any page
whose text cannot be had. A PDF is read the same way: its parser runs in pure Python
over structures a file can make as costly as it likes within pypdf's limits. Nothing
else of a reading (parsing HTML, the built-in content guesses, the matcher) takes more
than time in proportion to the page, whose size the fetcher caps, so nothing else needs
a process of its own.

The budget is what is left of the page's deadline once it was fetched (`read_budget`),
so the whole of a URL, fetch and reading, stays within its deadline, with a floor so
that a page fetched just in time can still be read.

Children come from a fork server that loaded the extractor once (`process_context`),
never from a fork of the process running the event loop and its threads.
"""

from __future__ import annotations

import contextlib
import pickle
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from claimledger.errors import PageUnreadable

if TYPE_CHECKING:  # the process machinery loads when a bounded reading first starts
    import multiprocessing.context
    from multiprocessing.connection import Connection

T = TypeVar("T")

READ_SECONDS_AT_LEAST = 2.0
"""CPU seconds a reading may always take, however little of its deadline the fetch left."""

WALL_GRACE = 10.0
"""Seconds of waiting added to a budget for the child to start and the machine to be
busy with other work: the CPU timer is the bound, this only keeps a stalled child from
holding the caller."""


def read_budget(deadline: float, elapsed: float) -> float:
    """CPU seconds a page's reading may take: what is left of its URL's `deadline` after
    the fetch took `elapsed`, and at least READ_SECONDS_AT_LEAST."""
    return max(READ_SECONDS_AT_LEAST, deadline - max(elapsed, 0.0))


EXTRACTOR = ("__main__", "claimledger.evidence.budget", "claimledger.reading.extract")
"""What the fork server loads once, for every selection: the extractor."""


def process_context() -> multiprocessing.context.BaseContext:
    """A fork server that has loaded the extractor (spawn where there is none)."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(EXTRACTOR))
    return context


def bounded(seconds: float, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`function(*args, **kwargs)` in a child process that may spend `seconds` of CPU:
    its result, or its exception raised again here; `PageUnreadable` ("took too long to
    read") when it spends more, or is not done `WALL_GRACE` seconds after that. Where no
    process can be started, it runs here, unbounded."""
    context = process_context()
    try:
        receiving, sending = context.Pipe(duplex=False)
        child = cast(Any, context).Process(  # each context has one; typeshed omits it
            target=_run_bounded,
            args=(sending, seconds, function, args, kwargs),
            daemon=True,
        )
        child.start()
    except (OSError, ImportError, NotImplementedError):
        return function(*args, **kwargs)
    sending.close()
    try:
        outcome = _outcome(receiving, seconds + WALL_GRACE)
    finally:
        receiving.close()
        _end(child)
    if outcome is None:
        raise PageUnreadable(
            f"took too long to read: more than {round(seconds, 2):g} s of CPU"
            if child.exitcode in (None, -signal.SIGPROF, -signal.SIGKILL)
            else f"the reader process ended with status {child.exitcode} (out of memory?)"
        )
    kind, value = outcome
    if kind == "raised":
        raise value
    return value  # type: ignore[no-any-return]


def _outcome(receiving: Connection, wait: float) -> tuple[str, Any] | None:
    """What the child sent, or None when it sent nothing in time (or died first)."""
    try:
        if not receiving.poll(wait):
            return None
        answer: tuple[str, Any] = receiving.recv()
    except (EOFError, OSError):
        return None
    return answer


def _end(child: Any) -> None:
    """The child ended: at once if it still runs (over its time), and waited for."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        if child.is_alive():
            child.kill()
        child.join(5)


def _run_bounded(
    sending: Connection,
    seconds: float,
    function: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> None:
    """In the child: the CPU timer armed (its SIGPROF, left to its default, ends the
    process), the work done, and its result or exception sent back."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to act on
    signal.signal(signal.SIGPROF, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        answer: tuple[str, Any] = ("returned", function(*args, **kwargs))
    except Exception as error:  # raised again in the parent, as if run there
        answer = ("raised", error)
    signal.setitimer(signal.ITIMER_PROF, 0)
    with contextlib.suppress(OSError):  # the parent stopped waiting: nobody to tell
        try:
            sending.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as error:  # cannot cross
            sending.send(("raised", RuntimeError(f"{type(error).__name__}: {error}")))
        sending.close()
