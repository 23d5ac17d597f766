"""The sandbox a user's template is rendered in: Jinja's immutable sandbox, which hands a
template none of Python's insides, bounded in what the template may make.

Two bounds, both told before the step that would pass them where a rule can tell it
(`claimledger.report.allowance`), else right after:

* no value, and no step, larger than a report may be (MAX_OUTPUT characters): `'x' * n`,
  a `%` or `format` padded to a billion, a list of references to one big string printed;
* no more memory built in all than a render's `Allowance`: what each operator, call,
  filter, literal, slice and captured block makes, and each item drawn from a string or
  an iterator by a filter, a call, a loop or a `*args`, is counted as it is made.

A checkout's templates run no code, and cannot exhaust memory either.
"""

from __future__ import annotations

import functools
import itertools
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import jinja2
import jinja2.environment
import jinja2.runtime
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError
from jinja2.runtime import markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import Namespace, generate_lorem_ipsum
from markupsafe import Markup

from claimledger.report import allowance as sizes
from claimledger.report.allowance import CALL_STEPS, ESCAPED, Allowance, Measure, Size
from claimledger.report.markup import MarkdownText

MAX_OUTPUT = 64 * 1024 * 1024
"""Characters one report may have; a template that writes more is broken or hostile."""

_REFUSED_ATTRIBUTES = frozenset({"encode", "to_bytes"})
"""What would hand a template bytes, which have no place in a report (and no size rule)."""


class _BoundedTemplate(jinja2.Template):
    """A template whose module (what `{% import %}` and `{% from %}` make of it) keeps its
    text joined, sized and counted as a captured block's is, not as a list of pieces: a
    template imported in a loop would keep each import's text, printed and escaped."""

    def make_module(
        self,
        vars: dict[str, Any] | None = None,
        shared: bool = False,
        locals: Mapping[str, Any] | None = None,
    ) -> jinja2.environment.TemplateModule:
        context = self.new_context(vars, shared, locals)
        text = self.environment.concat(self.root_render_func(context))
        return jinja2.environment.TemplateModule(self, context, [text])


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox, with what a template makes sized and counted (see the
    module); `fresh_allowance` before each render."""

    template_class = _BoundedTemplate
    intercepted_binops = frozenset({"*", "+", "%", "-", "/", "//", "**"})
    intercepted_unops = frozenset({"-", "+"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._safe_attributes: dict[tuple[type, str], bool] = {}
        self.code_generator_class = _BoundedCodeGenerator
        self.allowance = Allowance()
        jinjas = self.filters
        self.filters = {}
        self.add_filters(jinjas)
        if self.finalize is not None:  # what is printed may be escaped to several times its size
            self.finalize = _bounded_finalize(self.finalize)

    def fresh_allowance(self) -> None:
        """A new render: nothing built yet."""
        self.allowance = Allowance()

    def add_filters(self, filters: Mapping[str, Callable[..., Any]]) -> None:
        """`filters`, each sized and counted; those no rule can size are left out."""
        for name, function in filters.items():
            times = sizes.TEXT_FILTERS.get(name)
            if times is not None:
                self.filters[name] = _text_filter(self, function, times)
            elif name not in sizes.REFUSED:
                self.filters[name] = _bounded_filter(self, name, function)

    def concat(self, pieces: Iterable[str]) -> str:
        """What a `{% set %}` block, a macro or a call block captures, joined as Jinja joins
        it, stopping past MAX_OUTPUT: printed into a block, nothing reaches the report's cap."""
        return self.allowance.held(bounded_text(iter(pieces)))

    def joined(self, pieces: tuple[Any, ...], markup: bool) -> str:
        """`a ~ b`, as Jinja joins it (escaping in HTML), once the pieces' size is told: a
        template doubling a string in a loop would print nothing and fill the memory."""
        times = ESCAPED if markup else 1
        _bounded(times * sum(len(p) if isinstance(p, str) else _printed_size(p) for p in pieces))
        text: str = self._made(markup_join(pieces) if markup else str_join(pieces))
        return text

    def built(self, value: Any) -> Any:
        """A list, dict or tuple the template writes out, or a slice it takes, counted."""
        return self.allowance.held(value)

    def iterated(self, value: Any) -> Any:
        """What a `{% for %}` or a `*args` goes through (the code generator writes it as a
        call of this), its items drawn when it is an iterator: a loop's `length` and a
        `*args` list them all; each round a step of the allowance."""
        return self.allowance.stepped(self._drawn(value))

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """The sandbox's answer, remembered by the object's type and the attribute's name,
        which are all it depends on (a report reads the same few attributes of thousands
        of claims, quotes and sources)."""
        kind = type(obj)
        key = (kind, attr)
        safe = self._safe_attributes.get(key)
        if safe is None:
            safe = attr not in _REFUSED_ATTRIBUTES and super().is_safe_attribute(obj, attr, value)
            if obj.__class__ is kind:  # so that `isinstance` answers by the type alone
                self._safe_attributes[key] = safe
        return safe

    def getattr(self, obj: Any, attribute: str) -> Any:
        """The sandbox's `getattr`, straight to the value when the sandbox has already
        found this attribute of this type safe and the value is no method (a `str.format`
        is the one kind of value the sandbox hands out wrapped)."""
        if self._safe_attributes.get((type(obj), attribute)):
            value = getattr(obj, attribute, _ABSENT)
            if value is not _ABSENT and type(value) not in _METHODS:
                return value
        return super().getattr(obj, attribute)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """Jinja's sandboxed `str.format` and `format_map`, sized before they run: a field
        padded to a billion is a billion characters."""
        formatting = super().wrap_str_format(value)
        if formatting is None:
            return None
        template: str = value.__self__
        mapped = value.__name__ == "format_map"
        times = ESCAPED if isinstance(template, Markup) else 1

        def bounded(*args: Any, **kwargs: Any) -> str:
            positional: tuple[Any, ...] = args
            named: Mapping[str, Any] = kwargs
            if mapped and args and isinstance(args[0], Mapping):  # the fields print its values
                positional, named = (), args[0]
            _bounded(times * sizes.format_size(template, positional, named, _measure()))
            return formatting(*args, **kwargs)

        return functools.update_wrapper(bounded, value)

    def call_binop(
        self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any
    ) -> Any:
        self._check(_binop_size(operator, left, right))
        return self._made(super().call_binop(context, operator, left, right))

    def call_unop(self, context: jinja2.runtime.Context, operator: str, arg: Any) -> Any:
        return self._made(super().call_unop(context, operator, arg))

    def call(self, __context: jinja2.runtime.Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(__obj, "__func__", None) is BoundedSandbox.iterated:
            return self.iterated(*args)  # what a loop goes through is not made anew
        self.allowance.step(CALL_STEPS)  # a macro calling itself twice, thirty deep: 2^30 calls
        _bounded_counts(args, kwargs)
        args = tuple(self._drawn(value) for value in args)
        kwargs = {name: self._drawn(value) for name, value in kwargs.items()}
        args = self._sized_call(__obj, args, kwargs)
        made = super().call(__context, __obj, *args, **kwargs)
        return self._made(made, items=isinstance(getattr(__obj, "__self__", None), str))

    def _sized_call(self, function: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """`args`, once the call is sized (a string's `join` is handed its items drawn)."""
        receiver = getattr(function, "__self__", None)
        if function is generate_lorem_ipsum:
            self._check(sizes.lipsum_size(args, kwargs))
        elif isinstance(receiver, str) and type(function) in _METHODS:
            times = ESCAPED if isinstance(receiver, Markup) else 1
            if function.__name__ == "join" and len(args) == 1:
                args = (list(self.allowance.drawn(args[0])),)
                self._check(Size(chars=times * _joined_size(receiver, args[0])))
            rule = sizes.STRING_METHODS.get(function.__name__)
            if rule is not None:
                size = rule(receiver, args, kwargs, _measure())
                self._check(Size(times * size.chars, size.bytes))
        return args

    def _drawn(self, value: Any) -> Any:
        """An iterator Python made (a generator, a filter's lazy result) as drawn items, so
        that whatever lists them is counted; anything else (a loop, a cycler) as it is."""
        if isinstance(value, Iterator) and type(value).__module__ == "builtins":
            return self.allowance.drawn(value)
        return value

    def _check(self, size: Size) -> None:
        """Refuse a step whose size, told beforehand, is more than may be made."""
        _bounded(size.chars)
        self.allowance.afford(size.chars + size.bytes)

    def _made(self, value: Any, *, items: bool = False) -> Any:
        """`value`, made by a step of the template, once it is no larger than a report may
        be and what it takes is counted."""
        if isinstance(value, _SIZED):
            _bounded(len(value))
        if isinstance(value, str):  # the most of what a template makes
            self.allowance.spend(sys.getsizeof(value))
            return value
        return self.allowance.held(value, items=items)


def _bounded_filter(
    sandbox: BoundedSandbox, name: str, function: Callable[..., Any]
) -> Callable[..., Any]:
    """Filter `name`, its counts bounded, its value drawn when it goes through the items,
    its size told by its rule before it runs, what it made counted after."""
    rule = sizes.FILTERS.get(name)
    first = 1 if getattr(function, "jinja_pass_arg", None) is not None else 0
    draws = name in sizes.ITERATED

    @functools.wraps(function)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        value, rest = args[first], args[first + 1 :]
        _bounded_counts(rest, kwargs)
        if draws and not (name == "reverse" and isinstance(value, str)):
            value = sandbox.allowance.drawn(value)
            if name == "join":
                value = list(value)
                separator = rest[0] if rest else kwargs.get("d", "")
                sandbox._check(Size(chars=ESCAPED * _joined_size(separator, value)))
            args = (*args[:first], value, *rest)
        if rule is not None:
            sandbox._check(rule(value, rest, kwargs, _measure()))
        return sandbox._made(function(*args, **kwargs), items=name in sizes.NEW_ITEMS)

    return bounded


def _text_filter(
    sandbox: BoundedSandbox, function: Callable[..., Any], times: int
) -> Callable[..., Any]:
    """A filter that prints its value (and its arguments), making at most `times`
    characters of each of theirs."""
    first = 1 if getattr(function, "jinja_pass_arg", None) is not None else 0

    @functools.wraps(function)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        value = args[first]
        text = len(value) if isinstance(value, str) else _printed_size(value)
        if len(args) > first + 1 or kwargs:  # a link's address, a code block's language
            _bounded_counts(args[first + 1 :], kwargs)
            text += sum(map(_printed_size, (*args[first + 1 :], *kwargs.values())))
        _bounded(times * text)
        return sandbox._made(function(*args, **kwargs))

    return bounded


def _printed_size(value: Any) -> int:
    return _measure().text(value)


def _measure() -> Measure:
    """How text is measured here: up to what a report may hold, a namespace by what it holds."""
    return Measure(MAX_OUTPUT, _opened)


def _joined_size(separator: Any, items: list[Any]) -> int:
    """At least the length of `separator` between `items`, each printed."""
    between = _printed_size(separator) * max(len(items) - 1, 0)
    return between + sum(_printed_size(item) for item in items)


def _bounded_finalize(finalize: Callable[..., Any]) -> Callable[..., Any]:
    """`finalize`, refusing a value whose printing would pass what a report may hold:
    escaped for HTML or for Markdown, a character may become several (a container, or
    an object, prints every reference it holds)."""

    @jinja2.pass_eval_context
    @functools.wraps(finalize)
    def bounded(context: jinja2.nodes.EvalContext, value: Any) -> Any:
        if not isinstance(value, Markup | MarkdownText | int | float | None):
            times = ESCAPED if context.autoescape else 10  # Markdown escapes `@` in 10
            _bounded(times * (len(value) if isinstance(value, str) else _printed_size(value)))
        return finalize(context, value)

    return bounded


def _binop_size(operator: str, left: Any, right: Any) -> Size:
    """What `left operator right` would make, in characters and bytes besides."""
    if operator == "*":
        for sequence, count in ((left, right), (right, left)):
            if isinstance(sequence, _SIZED) and type(count) is int:
                each = 1 if isinstance(sequence, str) else sizes.REFERENCE
                return Size(chars=len(sequence) * count, bytes=len(sequence) * count * each)
        if type(left) is int and type(right) is int:
            return Size(bytes=(left.bit_length() + right.bit_length()) // 8)
    elif operator == "+" and isinstance(left, _SIZED) and isinstance(right, _SIZED):
        escaped = _escaped_by_markup(left, right)  # Markup + str escapes the str, either side
        each = 0 if isinstance(left, str) else sizes.REFERENCE
        chars = len(left) + len(right) + (ESCAPED - 1) * escaped
        return Size(chars=chars, bytes=(len(left) + len(right)) * each)
    elif operator == "%" and isinstance(left, str):
        times = ESCAPED if isinstance(left, Markup) else 1
        return Size(chars=times * sizes.printf_size(left, right, _measure()))
    elif operator == "**" and type(left) is int and type(right) is int and right > 0:
        return Size(bytes=0 if abs(left) <= 1 else right * left.bit_length() // 8)
    return Size()


def _escaped_by_markup(left: Any, right: Any) -> int:
    """The length of the side that `left + right` escapes: the plain one beside Markup."""
    if isinstance(left, Markup) == isinstance(right, Markup):
        return 0
    return len(right) if isinstance(left, Markup) else len(left)


def _bounded_counts(args: Iterable[Any], kwargs: Mapping[str, Any]) -> None:
    """Any int handed to a filter or a call (a width, a count) is no larger than a report."""
    for value in (*args, *kwargs.values()):
        if type(value) is int:
            _bounded(value)


def _opened(value: Any) -> Any:
    """What a namespace prints: its attributes."""
    if isinstance(value, Namespace):
        return object.__getattribute__(value, "_Namespace__attrs")
    return value


class _BoundedCodeGenerator(CodeGenerator):
    """Jinja's code, with each `~` joined by the sandbox's `joined`, each list, dict or tuple
    the template writes out and each slice it takes counted (`built`), and what a loop or a
    `*args` goes through handed to `call` (`iterated`), which draws an iterator's items."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.joined((")
        for piece in node.nodes:
            self.visit(piece, frame)
            self.write(", ")
        # Jinja's own choice of join, made when it is known (see CodeGenerator.visit_Concat)
        if frame.eval_ctx.volatile:
            self.write("), context.eval_ctx.volatile)")
        else:
            self.write(f"), {bool(frame.eval_ctx.autoescape)})")

    def visit_List(self, node: nodes.List, frame: Frame) -> None:
        self._built(super().visit_List, node, frame)

    def visit_Dict(self, node: nodes.Dict, frame: Frame) -> None:
        self._built(super().visit_Dict, node, frame)

    def visit_Tuple(self, node: nodes.Tuple, frame: Frame) -> None:
        if node.ctx == "load":
            self._built(super().visit_Tuple, node, frame)
        else:  # a target of `{% set a, b = … %}` or `{% for a, b in … %}`
            super().visit_Tuple(node, frame)

    def visit_Const(self, node: nodes.Const, frame: Frame) -> None:
        if isinstance(node.value, list | dict):  # Python makes a new one each time
            self._built(super().visit_Const, node, frame)
        else:
            super().visit_Const(node, frame)

    def visit_Getitem(self, node: nodes.Getitem, frame: Frame) -> None:
        if isinstance(node.arg, nodes.Slice):
            self._built(super().visit_Getitem, node, frame)
        else:
            super().visit_Getitem(node, frame)

    def visit_For(self, node: nodes.For, frame: Frame) -> None:
        node.iter = _iterated(node.iter)  # type: ignore[arg-type]  # an Expr, typed as a Node
        super().visit_For(node, frame)

    def signature(
        self,
        node: nodes.Call | nodes.Filter | nodes.Test,
        frame: Frame,
        extra_kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        if node.dyn_args is not None:
            node.dyn_args = _iterated(node.dyn_args)
        super().signature(node, frame, extra_kwargs)

    def _built(self, visit: Callable[[Any, Frame], None], node: nodes.Node, frame: Frame) -> None:
        self.write("environment.built(")
        visit(node, frame)
        self.write(")")


def _iterated(expression: nodes.Expr) -> nodes.Expr:
    """`environment.iterated(expression)`, a call the sandbox's `call` takes straight."""
    called = expression.node if isinstance(expression, nodes.Call) else None
    if isinstance(called, nodes.EnvironmentAttribute) and called.name == "iterated":
        return expression  # compiled once already
    lineno = expression.lineno
    name = nodes.EnvironmentAttribute("iterated", lineno=lineno)
    return nodes.Call(name, [expression], [], None, None, lineno=lineno)


_SIZED = (str, list, tuple)
_ABSENT = object()
_METHODS = frozenset({types.MethodType, types.BuiltinMethodType})
"""The kinds of value the sandbox's `getattr` may hand out wrapped (a bound `str.format`)."""


def _bounded(size: int, cap: int | None = None) -> None:
    most = MAX_OUTPUT if cap is None else cap
    if size > most:
        raise SecurityError(f"asks for {size:,} characters; a report holds at most {most:,}")


def bounded_text(pieces: Iterator[str], per_check: int = 1, cap: int | None = None) -> str:
    """The rendered pieces joined (see `bounded_chunks`)."""
    return "".join(bounded_chunks(pieces, per_check, cap))


def bounded_chunks(
    pieces: Iterator[str], per_check: int = 1, cap: int | None = None
) -> Iterator[str]:
    """The rendered pieces in chunks, stopping once they pass `cap` characters: counted
    after every `per_check` pieces (a user's template after each, since one piece of it
    may be as big as a report; a piece of ours is no bigger than a value of the ledger),
    and joined a few thousand at a time, so that what is handed on is text and not
    millions of small strings, each of some fifty bytes. A user's template is held to
    MAX_OUTPUT; ours, whose output grows with the ledger and nothing else, to a cap the
    caller scales with the ledger."""
    if per_check == 1:
        yield from _each_counted(pieces)
        return
    size, most = 0, MAX_OUTPUT if cap is None else cap
    while chunk := next_batch(pieces, per_check):
        size += sum(map(len, chunk))
        if size > most:
            _bounded(size, most)
        yield "".join(chunk)


def _each_counted(pieces: Iterator[str]) -> Iterator[str]:
    size = 0
    while batch := next_batch(pieces, _BATCH):
        for piece in batch:
            size += len(piece)
            if size > MAX_OUTPUT:
                _bounded(size)
        yield "".join(batch)


def next_batch(pieces: Iterator[str], count: int, size: int | None = None) -> list[str]:
    """The next `count` pieces, fewer once they hold `size` characters (`_JOINED`): a batch
    of big pieces (a claim's whole section) is not held twice, as pieces and joined, in
    full."""
    most = _JOINED if size is None else size
    batch: list[str] = []
    held = 0
    for piece in itertools.islice(pieces, count):
        batch.append(piece)
        held += len(piece)
        if held >= most:
            break
    return batch


_BATCH = 4096
_JOINED = 1 << 20
