"""The Jinja2 side of the report: a sandboxed environment over a loader the caller chooses.

The caller hands in the loader (`templates_loader` gives the usual one: the user's
template directory first, then the packaged defaults), so the report core never decides
which files to read. Nothing from the ledger or a web page can become markup or a link:

* HTML templates autoescape; the author's Markdown (intros, about) goes through the
  `author_html` filter, which renders it with HTML off and only http(s) and in-page links.
* In Markdown templates every `{{ … }}` is escaped for GitHub Markdown unless it went
  through a filter that returns Markdown (`md`, `md_link`, `md_url`, `md_anchor`,
  `author_md`, `code_block`); our templates still name `md` on every piece of text, and
  a user template that forgets it stays safe (a printed value's outer spaces are trimmed,
  so write separators in the template text, not in `{{ "; " }}`).

A template that names something that does not exist, or does not parse, raises
`TemplateError` with the template's file and line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import jinja2
from jinja2.nodes import EvalContext
from jinja2.sandbox import ImmutableSandboxedEnvironment

from claimledger.errors import TemplateError
from claimledger.report.markup import (
    MarkdownText,
    author_html,
    author_markdown,
    code_block,
    excerpt,
    md_anchor,
    md_escape,
    md_link,
    md_url,
    sentence,
    upper_first,
)

Loader = jinja2.BaseLoader

FILTERS: dict[str, Callable[..., Any]] = {
    "md": md_escape,
    "md_url": md_url,
    "md_link": md_link,
    "md_anchor": md_anchor,
    "code_block": code_block,
    "author_md": author_markdown,
    "author_html": author_html,
    "excerpt": excerpt,
    "sentence": sentence,
    "upper_first": upper_first,
}


def templates_loader(user_templates: Path | None) -> Loader:
    """The user's templates (when there is a directory of them) first, then ours."""
    packaged = jinja2.PackageLoader("claimledger", "data/templates")
    if user_templates is None:
        return packaged
    return jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(user_templates)), packaged])


def packaged_templates() -> list[str]:
    """The names of the default templates, which `init` copies for the user to edit."""
    return sorted(name for name in templates_loader(None).list_templates() if name.endswith(".j2"))


class Templates:
    """Report templates read through one loader, rendered in a sandbox.

    StrictUndefined, so a misspelt name is an error; HTML autoescaped; Markdown escaped by
    the `md` filter and, for anything printed without it, by `finalize`.
    """

    def __init__(self, loader: Loader) -> None:
        self.loader = loader
        self.environment = ImmutableSandboxedEnvironment(  # a checkout's template runs no code
            loader=loader,
            undefined=jinja2.StrictUndefined,
            autoescape=jinja2.select_autoescape(
                enabled_extensions=("html.j2", "htm.j2", "xml.j2"),
                default_for_string=False,
                default=False,
            ),
            finalize=_finalize,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.environment.filters.update(FILTERS)

    def source(self, name: str) -> str:
        """The text of one template as the loader finds it (for `init` to copy)."""
        text, _, _ = self.loader.get_source(self.environment, name)
        return text

    def render(self, name: str, **context: Any) -> str:
        """One template rendered, as text ending in a newline."""
        try:
            text = self.environment.get_template(name).render(**context)
        except jinja2.TemplateSyntaxError as error:
            where = f"{error.filename or error.name or name}:{error.lineno}"
            raise TemplateError(f"{where}: {error.message} (fix the template)") from None
        except jinja2.TemplateNotFound as error:
            raise TemplateError(f"template {error.name!r} not found") from None
        except (
            jinja2.TemplateError,
            TypeError,
            ValueError,
            LookupError,
            AttributeError,
            ArithmeticError,
        ) as error:
            frame = _template_frame(error.__traceback__)
            if frame is None:
                raise
            raise TemplateError(f"{frame}: {error} (fix the template)") from None
        return text if text.endswith("\n") else text + "\n"


@jinja2.pass_eval_context
def _finalize(context: EvalContext, value: Any) -> Any:
    """Escape for Markdown whatever a Markdown template prints without a Markdown filter."""
    if value is None:
        return ""
    if context.autoescape or isinstance(value, MarkdownText):
        return value
    return md_escape(value)


def _template_frame(trace: TracebackType | None) -> str | None:
    """file:line of the innermost template frame (Jinja rewrites tracebacks to show them)."""
    where = None
    while trace is not None:
        frame = trace.tb_frame
        if "__jinja_exception__" in frame.f_globals:
            where = f"{frame.f_code.co_filename}:{trace.tb_lineno}"
        trace = trace.tb_next
    return where
