"""Which copied templates the package has moved on from.

`init --templates` copies the packaged templates for the author to edit, and records in
`templates/.packaged.json` what each one was when copied. A copy then overrides the
package for good: after an upgrade that fixes a template, an unedited old copy would go
on laying out the report the old way without a word. So each render compares: a copy
whose packaged original has changed since is said, and an unedited one can simply go.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

COPIES_FILE = ".packaged.json"
"""Beside the copied templates: each one's fingerprint when it was copied."""


def fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def copies_record(packaged: Mapping[str, str], version: str) -> str:
    """The record `init --templates` writes beside the copies of `packaged` (name: text)."""
    copied = {name: fingerprint(text) for name, text in sorted(packaged.items())}
    return json.dumps({"claimledger": version, "templates": copied}, indent=2) + "\n"


def copied_fingerprints(record: str) -> dict[str, str]:
    """The fingerprints a record holds; none from a record that is not one (it is the
    checkout's file: a broken one only loses the warning)."""
    try:
        data = json.loads(record)
    except ValueError:
        return {}
    found = data.get("templates") if isinstance(data, dict) else None
    if not isinstance(found, dict):
        return {}
    return {str(k): v for k, v in found.items() if isinstance(v, str)}


def stale_copies(
    copied: Mapping[str, str], copies: Mapping[str, str], packaged: Mapping[str, str]
) -> list[str]:
    """One line per copy whose packaged original changed since it was copied (`copied`:
    fingerprints then; `copies`: the copies' texts now; `packaged`: the package's now)."""
    lines = []
    for name, then in sorted(copied.items()):
        if name not in copies or name not in packaged or fingerprint(packaged[name]) == then:
            continue
        if fingerprint(copies[name]) == then:
            lines.append(
                f"templates/{name} is an unedited copy of an older packaged template: delete "
                "it to use the package's own"
            )
        else:
            lines.append(
                f"templates/{name} was copied from an older packaged template, which has "
                "changed since: compare yours with `claimledger init --templates DIR`"
            )
    return lines
