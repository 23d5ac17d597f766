"""A change's commit, as the report says it: from what the docs' repository says of the
quote (`claimledger blame`), beside the change it explains."""

from __future__ import annotations

from dataclasses import dataclass

from claimledger.records import CheckRecord, Commit, QuoteHistory


@dataclass(frozen=True)
class ChangedIn:
    """The commit that changed a quote's words, in words, and its page on the code host."""

    said: str
    link: str | None


def changed_in(history: QuoteHistory | None, check: CheckRecord | None) -> ChangedIn | None:
    """When and in which commit the quote's words changed, if the history read for the
    page's wording as last checked names the commit (a history of another wording, or
    of a quote still verified, says nothing of this change)."""
    if history is None or check is None or check.status not in ("drifted", "missing"):
        return None
    if check.status == "drifted" and history.current != check.current:
        return None
    commit = history.changed_in
    if commit is None:
        return None
    verb = "reworded" if check.status == "drifted" else "dropped"
    said = f"{verb} on {commit.date} in “{commit.subject}”, commit {commit.sha[:7]}"
    return ChangedIn(said + or_before(history.unread), history.commit_link(commit))


def or_before(unread: tuple[Commit, ...]) -> str:
    """What a change's commit leaves open when versions before it could not be read
    (binary, too large): the change may be one of them, as `blame` says."""
    return f", or before it, in a version that could not be read ({shas(unread)})" if unread else ""


def shas(commits: tuple[Commit, ...]) -> str:
    return ", ".join(commit.sha[:7] for commit in commits)
