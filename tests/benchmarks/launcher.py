"""Commands started by a small process, so that their peak memory is their own.

Linux keeps a process's peak RSS across fork and exec, and `wait4` reports it: a command
forked from a benchmark that holds 300 MB of served pages reports at least 300 MB,
whatever it used itself. So each benchmark starts one `Launcher` before it builds its
corpus, while it is small, and has it start every command it measures; the launcher
reports each command's pid as it starts (to sample /proc) and, when it ends, its exit
code, peak RSS and CPU seconds as `wait4` gives them.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_LAUNCHER = r"""
import json, os, subprocess, sys
for line in sys.stdin:
    order = json.loads(line)
    with open(order["stdout"], "wb") as out, open(order["stderr"], "wb") as err:
        child = subprocess.Popen(order["argv"], stdin=subprocess.DEVNULL, stdout=out,
                                 stderr=err, env=order["env"], cwd=order["cwd"])
        print(json.dumps({"pid": child.pid}), flush=True)
        _, status, usage = os.wait4(child.pid, 0)
    print(json.dumps({"code": os.waitstatus_to_exitcode(status), "peak_kib": usage.ru_maxrss,
                      "cpu": usage.ru_utime + usage.ru_stime}), flush=True)
"""


@dataclass(frozen=True)
class Ended:
    code: int
    peak_kib: int
    cpu_seconds: float


class Launcher:
    """One small Python process that starts commands, one at a time."""

    def __init__(self) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._read = b""
        """What the launcher said that is not yet taken (os.read, not a buffered file: a
        buffer could hold a line that `select` then never reports)."""

    def start(
        self,
        argv: Sequence[str],
        *,
        stdout: Path,
        stderr: Path,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> int:
        """Start `argv` with its output to files; its pid."""
        order = {
            "argv": list(argv),
            "stdout": str(stdout),
            "stderr": str(stderr),
            "env": dict(env) if env is not None else None,
            "cwd": str(cwd) if cwd is not None else None,
        }
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(order) + "\n")
        pid: int = self._answer()["pid"]
        return pid

    def ended(self, wait: float | None = None) -> Ended | None:
        """The command's end, once it has ended (waiting at most `wait` seconds; None: no limit)."""
        if wait is not None and b"\n" not in self._read:
            assert self._process.stdout is not None
            if not select.select([self._process.stdout], [], [], wait)[0]:
                return None
        answer = self._answer()
        return Ended(answer["code"], answer["peak_kib"], answer["cpu"])

    def _answer(self) -> dict[str, int]:
        assert self._process.stdout is not None
        while b"\n" not in self._read:
            chunk = os.read(self._process.stdout.fileno(), 65536)
            if not chunk:
                raise SystemExit("the launcher process died")
            self._read += chunk
        line, _, self._read = self._read.partition(b"\n")
        answer: dict[str, int] = json.loads(line)
        return answer

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait()

    def __enter__(self) -> Launcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
