"""The teardown report: the ledger and its latest evidence as Markdown, HTML, JSON or ClaimReview.

Two steps. `build_report` works out everything a reader will see (grade lines, flags,
source fidelity, documentation churn, what changed since the last render) into a frozen
`Report`; a `ReportFormat` lays it out. The rooms: `model` (the views), `build`,
`changes` (since the last render), `formats`, `templates` (Jinja2, over a loader the
caller hands in) and `markup` (escaping for every output format, in one place).
"""

from claimledger.report.build import build_report
from claimledger.report.changes import report_state
from claimledger.report.formats import (
    FORMAT_NAMES,
    ReportFormat,
    claim_reviews,
    format_for,
    format_name_for,
    report_data,
)
from claimledger.report.model import Report
from claimledger.report.templates import Templates, packaged_templates, templates_loader

__all__ = [
    "FORMAT_NAMES",
    "Report",
    "ReportFormat",
    "Templates",
    "build_report",
    "claim_reviews",
    "format_for",
    "format_name_for",
    "packaged_templates",
    "report_data",
    "report_state",
    "templates_loader",
]
