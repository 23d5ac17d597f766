"""The teardown report: the ledger and its latest evidence as Markdown, HTML, JSON or ClaimReview.

Two steps. `build_report` works out everything a reader will see (grade lines, flags,
source fidelity, documentation churn, what changed since the last render) into a frozen
`Report`; a `ReportFormat` lays it out. The rooms: `model` (the views), `build`,
`changes` (since the last render), `formats`, `templates` (Jinja2, over a loader the
caller hands in) and `markup` (escaping for every output format, in one place).
"""
