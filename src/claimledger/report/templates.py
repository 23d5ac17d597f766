"""The Jinja2 side of the report: a sandboxed environment over a loader the caller chooses.

The caller hands in the loader (`templates_loader` gives the usual one: the user's
template directory first, then the packaged defaults), so the report core never decides
which files to read. What the loader finds is rendered in the sandbox, bounded in what
it may make (`claimledger.report.sandbox`), unless it is one of our own templates word
for word, which is our code (`Templates.is_ours`).

Nothing from the ledger or a web page can become markup or a link:

* HTML templates autoescape; the author's Markdown (intros, about) goes through the
  `author_html` filter, which renders it with HTML off and only http(s) and in-page links.
* In Markdown templates every `{{ … }}` is escaped for GitHub Markdown unless it went
  through a filter that returns Markdown (`md`, `md_link`, `md_url`, `md_anchor`,
  `author_md`, `code_block`); our templates still name `md` on every piece of text, and
  a user template that forgets it stays safe (a printed value's outer spaces are trimmed,
  so write separators in the template text, not in `{{ "; " }}`).
* Data for a `<script type="application/ld+json">` element goes through `json_script`
  (or `json_script_pieces`, the same an item at a time), JSON in which nothing can close
  the element (`json_for_html`).

A template that names something that does not exist, or does not parse, raises
`TemplateError` with the template's file and line.
"""

from __future__ import annotations

import contextlib
import keyword
import re
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import jinja2
import jinja2.runtime
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.loaders import split_template_path
from jinja2.nodes import EvalContext
from markupsafe import Markup

from claimledger.errors import OverAllowance, TemplateError
from claimledger.report import sandbox
from claimledger.report.markup import (
    MarkdownText,
    author_html,
    author_markdown,
    code_block,
    excerpt,
    json_for_html,
    json_for_html_pieces,
    md_anchor,
    md_escape,
    md_link,
    md_url,
    sentence,
    upper_first,
    without_controls,
)
from claimledger.report.sandbox import BoundedSandbox, bounded_chunks

Loader = jinja2.BaseLoader


@jinja2.pass_eval_context
def json_script(context: EvalContext, data: Any) -> Any:
    """`data` as JSON an HTML `<script>` data block holds as it is; in a Markdown template,
    text like any other (escaped), since Markdown has no such element."""
    text = json_for_html(list(data) if isinstance(data, Iterator) else data)
    return Markup(text) if context.autoescape else text


@jinja2.pass_eval_context
def json_script_pieces(context: EvalContext, items: Iterable[Any]) -> Iterator[Any]:
    """`items|json_script` an item at a time, for a loop to print (`{% for piece in
    claimreview|json_script_pieces %}`): a long list's JSON is never whole in memory."""
    for piece in json_for_html_pieces(items):
        yield Markup(piece) if context.autoescape else piece


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
    "json_script": json_script,
    "json_script_pieces": json_script_pieces,
}

_MARKDOWN_FILTERS = frozenset({"md", "md_url", "md_link", "md_anchor", "code_block", "author_md"})
"""The filters whose result is Markdown text already (`MarkdownText`), which `finalize`
hands back as it is."""


def templates_loader(user_templates: Path | None) -> Loader:
    """The user's templates (when there is a directory of them) first, then ours."""
    packaged = _packaged_loader()
    if user_templates is None:
        return packaged
    return jinja2.ChoiceLoader([_FolderLoader(user_templates), packaged])


class _FolderLoader(Loader):
    """A folder of templates that may be a hostile checkout's: each file is read as
    `claimledger.report.templatefiles` reads it (never through a link, never a FIFO or a device,
    never more than a template may hold), so a template shows nothing else of the disk."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool] | None]:
        from claimledger.report.templatefiles import read_template

        parts = split_template_path(template)  # refuses `..`
        if not parts:
            raise jinja2.TemplateNotFound(template)
        try:
            text = read_template(self.folder, parts)
        except FileNotFoundError:
            raise jinja2.TemplateNotFound(template) from None
        return text, str(self.folder.joinpath(*parts)), None  # read once a render


def _packaged_loader() -> Loader:
    return jinja2.PackageLoader("claimledger", "data/templates")


def packaged_templates() -> list[str]:
    """The names of the default templates, which `init` copies for the user to edit."""
    return sorted(name for name in templates_loader(None).list_templates() if name.endswith(".j2"))


MAX_SECONDS = 120
"""How long one report may take to lay out (a template that loops for ever is stopped)."""


class _OwnCodeGenerator(CodeGenerator):
    """Jinja's code for our own templates, which no sandbox checks, leaner where no template
    of ours could tell: an attribute is read as Python reads it (they name only the views'
    own attributes), and what a Markdown filter made is printed as it is, where Jinja would
    hand it to `finalize`, which gives it back, and copy it with `str()`. A fifth of the
    time a Markdown report takes to lay out; the text is Jinja's own to the byte (the
    sandbox, which compiles as Jinja does, renders the same templates to the same text)."""

    def visit_Getattr(self, node: nodes.Getattr, frame: Frame) -> None:
        if keyword.iskeyword(node.attr):  # `x.class` is Jinja, not Python
            super().visit_Getattr(node, frame)
            return
        self.write("(")
        self.visit(node.node, frame)
        self.write(f").{node.attr}")

    def _output_child_pre(
        self, node: nodes.Expr, frame: Frame, finalize: CodeGenerator._FinalizeInfo
    ) -> None:
        if not _made_by_markdown_filter(node, frame):
            super()._output_child_pre(node, frame, finalize)

    def _output_child_post(
        self, node: nodes.Expr, frame: Frame, finalize: CodeGenerator._FinalizeInfo
    ) -> None:
        if not _made_by_markdown_filter(node, frame):
            super()._output_child_post(node, frame, finalize)


def _made_by_markdown_filter(node: nodes.Expr, frame: Frame) -> bool:
    """A value printed in a Markdown template straight from a Markdown filter."""
    context = frame.eval_ctx
    return (
        isinstance(node, nodes.Filter)
        and node.name in _MARKDOWN_FILTERS
        and not context.volatile
        and not context.autoescape
    )


class _OwnEnvironment(jinja2.Environment):
    """Where our own templates are compiled and rendered."""

    code_generator_class = _OwnCodeGenerator


_Environment = TypeVar("_Environment", bound=jinja2.Environment)


def _report_environment(kind: type[_Environment], loader: Loader) -> _Environment:
    """An environment of `kind` that reads and prints as every report template is read
    and printed, ours and the user's alike: the report's filters, its finalize, escaping
    and whitespace."""
    environment = kind(
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
    if isinstance(environment, BoundedSandbox):
        environment.add_filters(FILTERS)  # each sized and counted
    else:
        environment.filters.update(FILTERS)
    return environment


class Templates:
    """Report templates read through one loader, rendered in a bounded sandbox.

    A template the loader finds that is, character for character, one of ours is our
    own code and is rendered without the sandbox's checks: data is never compiled as a
    template, so only a template can run anything, and ours run nothing but our filters.

    StrictUndefined, so a misspelt name is an error; HTML autoescaped; Markdown escaped by
    the `md` filter and, for anything printed without it, by `finalize`. A report is cut
    off (a TemplateError) past MAX_OUTPUT characters or MAX_SECONDS seconds, and a
    sandboxed one past its memory allowance (`claimledger.report.allowance`).
    """

    def __init__(self, loader: Loader) -> None:
        self.loader = loader
        self.environment = _report_environment(BoundedSandbox, loader)
        self._packaged = _packaged_loader()
        self._ours: jinja2.Environment = _report_environment(_OwnEnvironment, self._packaged)
        """Our own templates, which are the product's code: no sandbox to ask."""

    def source(self, name: str) -> str:
        """The text of one template as the loader finds it (for `init` to copy)."""
        text, _, _ = self.loader.get_source(self.environment, name)
        return text

    def reads(self, name: str, variable: str) -> bool:
        """Whether template `name`, or one it includes, imports or extends, may read
        `variable` (so that a value no template asks for is never worked out). True when
        that cannot be told: a template named at render time, one that is missing or
        does not parse (rendering it says what is wrong)."""
        from jinja2 import meta

        seen: set[str] = set()
        pending = [name]
        try:
            while pending:
                current = pending.pop()
                if current in seen:
                    continue
                seen.add(current)
                source, _, _ = self.loader.get_source(self.environment, current)
                if variable not in source and not _REFERENCES.search(source):
                    continue  # never named, and no other template brought in
                tree = self.environment.parse(source)
                if variable in meta.find_undeclared_variables(tree):
                    return True
                for referenced in meta.find_referenced_templates(tree):
                    if referenced is None:
                        return True
                    pending.append(referenced)
        except Exception:  # whatever it is, the render itself reports it
            return True
        return False

    def is_ours(self, name: str) -> bool:
        """Whether template `name`, as the loader finds it, is ours word for word and brings
        in no other (which the loader might find elsewhere): then what runs is ours, read
        from the package itself, whatever the user's directory holds by then."""
        try:
            found, _, _ = self.loader.get_source(self.environment, name)
            ours, _, _ = self._packaged.get_source(self._ours, name)
        except Exception:  # not found, not readable: the sandbox's render says what is wrong
            return False
        return found == ours and not _REFERENCES.search(ours)

    def render(self, name: str, **context: Any) -> str:
        """One template rendered, as text ending in a newline."""
        return "".join(self.chunks(name, **context))

    def chunks(self, name: str, **context: Any) -> Iterator[str]:
        """One template rendered in chunks as it is laid out, ending in a newline, so that
        a report is written to its file as it comes and never held whole. Whatever is
        wrong with the template is raised, while iterating, as a TemplateError."""
        last = ""
        try:
            with _time_limit(MAX_SECONDS, name):
                for chunk in self._laid_out(name, context):
                    last = chunk or last
                    yield chunk
        except OverAllowance as error:
            where = _template_frame(error.__traceback__) or name
            raise TemplateError(f"template {where} {error} to lay out (fix the template)") from None
        except MemoryError:  # past what the machine gives: no traceback, the template named
            raise TemplateError(f"template {name} ran out of memory (fix the template)") from None
        except jinja2.TemplateSyntaxError as error:
            where = f"{error.filename or error.name or name}:{error.lineno}"
            raise TemplateError(f"{where}: {error.message} (fix the template)") from None
        except jinja2.TemplateNotFound as error:
            raise TemplateError(f"template {error.name!r} not found") from None
        except (RecursionError, SyntaxError) as error:  # Python's limits, met by the template
            raise TemplateError(f"{_too_deep_where(error, name)}: {_TOO_DEEP}") from None
        except (
            jinja2.TemplateError,
            TypeError,
            ValueError,
            LookupError,
            AttributeError,
            ArithmeticError,
        ) as error:
            frame = _template_frame(error.__traceback__)
            if frame is None and not isinstance(error, jinja2.TemplateError):
                raise  # not the template's doing: a bug of ours
            raise TemplateError(f"{frame or name}: {_told(error)} (fix the template)") from None
        if not last.endswith("\n"):
            yield "\n"

    def _laid_out(self, name: str, context: dict[str, Any]) -> Iterator[str]:
        """Our own template unchecked but bounded by the ledger's size; any other in the
        sandbox, held to its allowance and the output cap."""
        if self.is_ours(name):
            pieces = self._ours.get_template(name).generate(**context)
            cap = sandbox.MAX_OUTPUT + OURS_PER_CLAIM * _claims_in(context)
            return bounded_chunks(pieces, per_check=_OURS_PER_CHECK, cap=cap)
        self.environment.fresh_allowance()
        return bounded_chunks(self.environment.get_template(name).generate(**context))


def _told(error: Exception) -> str:
    """What went wrong, in words: Jinja's messages say it; Python's are named by their
    type, since some say only the key or index they missed (`KeyError: 0`)."""
    if isinstance(error, jinja2.TemplateError):
        return str(error)
    return f"{type(error).__name__}: {error}"


_TOO_DEEP = (
    "nests too deeply (a template that includes itself, a macro that calls itself, "
    "or blocks within blocks past what Python allows) (fix the template)"
)


def _too_deep_where(error: RecursionError | SyntaxError, name: str) -> str:
    """Where a template went past Python's nesting limits: the innermost template frame of
    a recursion, the file whose compiled form Python refused, else the template rendered.
    (Python's own line number is that of the code Jinja made, which no author wrote.)"""
    if isinstance(error, SyntaxError):
        filename = error.filename or ""
        return name if filename.startswith("<") or not filename else filename
    return _template_frame(error.__traceback__) or name


_REFERENCES = re.compile(r"\{%[-+]?\s*(?:include|import|extends|from)\b")
"""The start of a statement that brings in another template (each is a tag of its own,
so the text has one of these wherever a template's code does)."""


_OURS_PER_CHECK = 4096
"""Pieces of our own templates' output counted at once (Jinja yields each a few characters)."""

OURS_PER_CLAIM = 16 * 1024
"""Characters our own templates may write for each claim past MAX_OUTPUT (a claim of the
bundled ledger takes about 1.4 kB of HTML): a 50,000-claim ledger renders, and a runaway
is still stopped."""


def _claims_in(context: Mapping[str, Any]) -> int:
    report = context.get("report")
    return len(getattr(report, "claims", ()))


@contextlib.contextmanager
def _time_limit(seconds: float, name: str) -> Iterator[None]:
    """Stop a render that runs past `seconds` (an alarm, so only where signals can be had:
    the main thread of a Unix process; elsewhere the output cap still bounds it). The
    alarm may ring while the report's file is being written: what it raises is already
    the one line a user sees."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise TemplateError(
            f"template {name}: the report took longer than {seconds:.0f} s to lay out "
            "(fix the template)"
        )

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@jinja2.pass_eval_context
def _finalize(context: EvalContext, value: Any) -> Any:
    """Escape for Markdown whatever a Markdown template prints without a Markdown filter;
    in HTML, drop the control characters of whatever is printed (Jinja escapes the rest)."""
    if value is None:
        return ""
    if isinstance(value, MarkdownText | Markup):
        return value
    if context.autoescape:  # HTML: escaped by Jinja; control characters have no place in it
        return without_controls(str(value)) if isinstance(value, str) else value
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
