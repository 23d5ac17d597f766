"""Re-derive every label the text can show, for every case of every built corpus.

    python tests/corpus/check_labels.py [CORPUS ...]

Prints each disagreement as `corpus/case: problem` and exits 1 when there is any, 0
when every label agrees with the text. A corpus whose pages are not built is named
and skipped (build it with build.py).
"""

from __future__ import annotations

import sys

from corpus import check_case, is_built, load_all


def main(names: list[str]) -> int:
    problems = 0
    checked = 0
    for corpus in load_all(names or None):
        if not is_built(corpus):
            print(f"{corpus.name}: pages not built, skipped", file=sys.stderr)
            continue
        for case in corpus.cases:
            checked += 1
            for problem in check_case(case):
                problems += 1
                print(f"{corpus.name}/{case.id}: {problem}")
    print(f"{checked} cases checked, {problems} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
