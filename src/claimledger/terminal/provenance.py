"""What `blame` prints: each quote's history in the docs' repository, in words."""

from __future__ import annotations

from typing import Any


def blame_lines(rows: list[dict[str, Any]]) -> list[str]:
    """A block of lines for each quote on each page, as `blame --json` has them."""
    return [_line(row) for row in rows]


def _line(row: dict[str, Any]) -> str:
    head = f"{row['claim_id']} #{row['quote']} on {row['source_id']}"
    found = row["found"]
    if found is None:
        return f"{head}: no repository known (give it: claimledger source ID --repo --path)"
    parts = [f"{head} ({row['path']} in {row['repo']}, {row['versions_read']} versions)"]
    held, dropped, since = (found[k] for k in found)
    unread = row["unreadable_between"]
    if held is None:
        read = f"none of the {row['versions_read'] - len(unread)} versions read"
        parts.append(f"  its words are in {read}" + _unread_clause(unread))
    else:
        parts.append(f"  last held in {_commit_line(held)}")
        parts += _dropped_lines(dropped, unread)
    if since is not None:
        parts += _since_lines(since, row["unreadable_before_current"])
    gone = row["file_gone"]
    if gone is not None and gone["renamed_to"]:
        parts.append(f"  its file became {gone['renamed_to']} in {_commit_line(gone['in'])}")
        if gone["page_now"]:
            move = f"claimledger move {row['source_id']} {gone['page_now']}"
            parts.append(f"  its page is likely {gone['page_now']} (`{move}`)")
    elif gone is not None:
        parts.append(f"  its file was deleted in {_commit_line(gone['in'])}")
    return "\n".join(parts)


def _dropped_lines(dropped: dict[str, Any] | None, unread: list[dict[str, Any]]) -> list[str]:
    """Where the quote's words went: the commit that dropped them, or, where versions
    between could not be read (binary, too large), the range the change lies in, never an
    unreadable version named as the change."""
    if not unread:
        return [
            f"  reworded or dropped in {_commit_line(dropped)}"
            if dropped
            else "  still held by the newest version"
        ]
    if dropped is None:
        return [f"  not read past it: the newer versions could not be read ({_shas(unread)})"]
    return [
        f"  reworded or dropped by {_commit_line(dropped)}",
        f"    or before it, in a version that could not be read ({_shas(unread)})",
    ]


def _unread_clause(unread: list[dict[str, Any]]) -> str:
    """The versions none of the others can speak for: one may hold the quote."""
    if not unread:
        return ""
    return f" ({_shas(unread)} could not be read)"


def _since_lines(since: dict[str, Any], before: dict[str, Any] | None) -> list[str]:
    """Since when the page's wording stands: the oldest version read that holds it, or
    earlier where the version before it could not be read (it may hold it too)."""
    if before is None:
        return [f"  the current wording since {_commit_line(since)}"]
    return [
        f"  the current wording since {_commit_line(since)}",
        f"    or earlier: the version before it could not be read ({before['sha'][:7]})",
    ]


def _shas(commits: list[dict[str, Any]]) -> str:
    return ", ".join(commit["sha"][:7] for commit in commits)


def _commit_line(commit: dict[str, Any]) -> str:
    return f"{commit['sha'][:7]} on {commit['date']} by {commit['author']}: {commit['subject']}"
