"""A command's network part: run to its end, its result handed back untouched."""

from __future__ import annotations

import signal

from claimledger.evidence.service import run_async


class Formatted:
    """A result that counts how often something formats it (a page's text, in a command)."""

    times = 0

    def __repr__(self) -> str:
        Formatted.times += 1
        return "Formatted()"


def test_a_result_is_not_formatted_when_ctrl_c_is_given_back_its_handler() -> None:
    """asyncio formats the repr of its Ctrl-C handler, main task and result included, as
    it restores the default one: for `verify`, a megabyte page's text, for nothing."""
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal starts Python
    Formatted.times = 0

    async def work() -> dict[str, Formatted]:
        return {"https://docs.example/": Formatted()}

    result = run_async(work())

    assert isinstance(result["https://docs.example/"], Formatted)
    assert Formatted.times == 0
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
