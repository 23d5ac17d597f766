"""Let `python -m claimledger`, and the console script, run the command line.

Loading the command line, and typer building its commands, take a tenth of a second or
two before any command's own handling begins; a Ctrl-C meanwhile ends as one in a command
does (one line, 130), not as Python's traceback of the import it stopped.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130
"""`ExitCode.INTERRUPTED`, named here, where nothing may be imported before the guard."""


def main() -> None:
    try:
        from claimledger.cli import main as run

        run()
    except KeyboardInterrupt:
        sys.stderr.write("claimledger: interrupted\n")
        raise SystemExit(INTERRUPTED) from None


if __name__ == "__main__":
    main()
