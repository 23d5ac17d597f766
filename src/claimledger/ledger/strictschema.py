"""A JSON Schema compiled to one Python function that answers only yes or no, strictly.

The loader checks every ledger it reads against the schema. A validator that can name
each problem (jsonschema), or one that says where the first is (fastjsonschema), does
more work on every value than a ledger with no problem needs: this one is compiled from
the same schema into plain code that returns False at the first doubt. It knows the
keywords the ledger's schema uses and refuses to compile any other; its types are strict
(a whole number is an `int`, never `2.0` or `True`), so whatever it accepts the schema
accepts, while what it refuses goes to the validators that explain.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_IGNORED = frozenset({"$schema", "$id", "$defs", "title", "description"})
_TYPES = {"object": "dict", "array": "list", "string": "str", "boolean": "bool", "integer": "int"}


def compile_strict(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """The schema as a function: True when the value surely conforms.

    NotImplementedError for a keyword, type or `$ref` this compiler does not know."""
    compiler = _Compiler(schema)
    source = compiler.source()
    namespace: dict[str, Any] = dict(compiler.constants)
    exec(compile(source, "<ledger schema, strict>", "exec"), namespace)
    validate: Callable[[Any], bool] = namespace["validate"]
    return validate


class _Compiler:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.constants: dict[str, Any] = {}
        self.functions: list[list[str]] = []
        self.pending: list[tuple[str, dict[str, Any]]] = [("validate", root)]
        self.named: dict[str, str] = {}
        self.count = 0

    def source(self) -> str:
        while self.pending:
            name, schema = self.pending.pop()
            body: list[str] = []
            self._emit(schema, "x", body, 1)
            self.functions.append([f"def {name}(x):", *body, "    return True"])
        return "\n\n".join("\n".join(lines) for lines in self.functions) + "\n"

    def _new(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def _constant(self, value: Any) -> str:
        name = self._new("C")
        self.constants[name] = value
        return name

    def _function_for(self, schema: dict[str, Any]) -> str:
        name = self._new("f")
        self.pending.append((name, schema))
        return name

    def _ref(self, ref: str) -> str:
        prefix = "#/$defs/"
        if not ref.startswith(prefix) or ref[len(prefix) :] not in self.root.get("$defs", {}):
            raise NotImplementedError(f"$ref {ref!r}")
        if ref not in self.named:
            self.named[ref] = self._function_for(self.root["$defs"][ref[len(prefix) :]])
        return self.named[ref]

    def _emit(self, schema: Any, var: str, out: list[str], depth: int) -> None:
        """Statements that `return False` unless `var` conforms to `schema`."""
        pad = "    " * depth
        if not isinstance(schema, dict):
            raise NotImplementedError(f"schema {schema!r}")
        unknown = set(schema) - _IGNORED - _KEYWORDS
        if unknown:
            raise NotImplementedError(f"keywords {sorted(unknown)}")
        kind = schema.get("type")
        if kind is not None:
            if kind == "number":
                out.append(f"{pad}if type({var}) is not int and type({var}) is not float:")
            elif isinstance(kind, str) and kind in _TYPES:
                out.append(f"{pad}if type({var}) is not {_TYPES[kind]}:")
            else:
                raise NotImplementedError(f"type {kind!r}")
            out.append(f"{pad}    return False")
        if "$ref" in schema:
            out.append(f"{pad}if not {self._ref(schema['$ref'])}({var}):")
            out.append(f"{pad}    return False")
        if "const" in schema:
            value = schema["const"]
            if type(value) not in (int, str):
                raise NotImplementedError(f"const {value!r}")
            out.append(f"{pad}if type({var}) is not {type(value).__name__} or {var} != {value!r}:")
            out.append(f"{pad}    return False")
        if "enum" in schema:
            options = schema["enum"]
            if not all(type(option) is str for option in options):
                raise NotImplementedError(f"enum {options!r}")
            known = self._constant(frozenset(options))
            out.append(f"{pad}if type({var}) is not str or {var} not in {known}:")
            out.append(f"{pad}    return False")
        if "oneOf" in schema:
            tests = [f"{self._function_for(option)}({var})" for option in schema["oneOf"]]
            out.append(f"{pad}if ({' + '.join(tests)}) != 1:")
            out.append(f"{pad}    return False")
        self._emit_string(schema, var, out, pad, kind == "string")
        self._emit_number(schema, var, out, pad)
        self._emit_array(schema, var, out, depth, kind == "array")
        self._emit_object(schema, var, out, depth, kind == "object")

    def _emit_string(self, schema: Any, var: str, out: list[str], pad: str, known: bool) -> None:
        guard = "" if known else f"type({var}) is str and "
        if "minLength" in schema:
            out.append(f"{pad}if {guard}len({var}) < {int(schema['minLength'])}:")
            out.append(f"{pad}    return False")
        if "maxLength" in schema:
            out.append(f"{pad}if {guard}len({var}) > {int(schema['maxLength'])}:")
            out.append(f"{pad}    return False")
        if "pattern" in schema:
            pattern = schema["pattern"]
            anchored = pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern
            compiled = self._constant(re.compile(anchored))
            out.append(f"{pad}if {guard}{compiled}.search({var}) is None:")
            out.append(f"{pad}    return False")

    def _emit_number(self, schema: Any, var: str, out: list[str], pad: str) -> None:
        checks = {"minimum": "<", "maximum": ">", "exclusiveMinimum": "<="}
        for keyword, fails in checks.items():
            if keyword in schema:
                bound = schema[keyword]
                if type(bound) not in (int, float):
                    raise NotImplementedError(f"{keyword} {bound!r}")
                number = f"(type({var}) is int or type({var}) is float)"
                out.append(f"{pad}if {number} and {var} {fails} {bound!r}:")
                out.append(f"{pad}    return False")

    def _emit_array(self, schema: Any, var: str, out: list[str], depth: int, known: bool) -> None:
        if "minItems" not in schema and "items" not in schema:
            return
        pad = "    " * depth
        if not known:
            out.append(f"{pad}if type({var}) is list:")
            depth += 1
            pad = "    " * depth
        if "minItems" in schema:
            out.append(f"{pad}if len({var}) < {int(schema['minItems'])}:")
            out.append(f"{pad}    return False")
        if "items" in schema:
            item = self._new("v")
            body: list[str] = []
            self._emit(schema["items"], item, body, depth + 1)
            if body:
                out.append(f"{pad}for {item} in {var}:")
                out.extend(body)

    def _emit_object(self, schema: Any, var: str, out: list[str], depth: int, known: bool) -> None:
        keywords = ("required", "properties", "additionalProperties", "propertyNames")
        if not any(keyword in schema for keyword in keywords):
            return
        pad = "    " * depth
        if not known:
            out.append(f"{pad}if type({var}) is dict:")
            depth += 1
            pad = "    " * depth
        if "required" in schema:
            required = self._constant(frozenset(schema["required"]))
            out.append(f"{pad}if not {var}.keys() >= {required}:")
            out.append(f"{pad}    return False")
        properties: dict[str, Any] = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        names = schema.get("propertyNames")
        key, value = self._new("k"), self._new("v")
        loop: list[str] = []
        inner = "    " * (depth + 1)
        if names is not None:
            self._emit(names, key, loop, depth + 1)
        branches = 0
        for name, rule in properties.items():
            body: list[str] = []
            self._emit(rule, value, body, depth + 2)
            loop.append(f"{inner}{'if' if branches == 0 else 'elif'} {key} == {name!r}:")
            loop.extend(body or [f"{inner}    pass"])
            branches += 1
        rest: list[str] = []
        if extra is False:
            rest = [f"{inner}    return False"]
        elif extra is not True:
            self._emit(extra, value, rest, depth + 2)
        if rest:
            loop.extend([f"{inner}else:", *rest] if branches else _dedent(rest))
        if any(line.strip() not in ("pass",) for line in loop):
            out.append(f"{pad}for {key}, {value} in {var}.items():")
            out.extend(loop)


def _dedent(lines: list[str]) -> list[str]:
    return [line[4:] for line in lines]


_KEYWORDS = frozenset(
    {
        "type",
        "$ref",
        "const",
        "enum",
        "oneOf",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "minItems",
        "items",
        "required",
        "properties",
        "additionalProperties",
        "propertyNames",
    }
)
