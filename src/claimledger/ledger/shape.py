"""A ledger's shape, checked against its JSON Schema, each violation told where it is.

A valid ledger, the usual case, is checked by a validator compiled once (fastjsonschema);
one it refuses is read again by jsonschema, whose errors are turned into one plain
sentence each, at the file:line:col of the value (or key) at fault, with a did-you-mean
where a near miss is likely.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from claimledger.ledger.located import Located, Path_
from claimledger.ledger.schema import CALENDAR_DAY, LEDGER_SCHEMA, REPO, WEB_URL

if TYPE_CHECKING:
    import jsonschema

Finding = tuple[tuple[int, int], str]


def _pattern_to_the_end(
    validator: Any, pattern: str, instance: Any, schema: Any
) -> Iterator[jsonschema.ValidationError]:
    """`pattern` as JSON Schema (ECMA 262) means it: `$` is the end of the text.

    Python's `$` also matches before a final newline, which would let a date with a
    newline after it through, and crash the build.
    """
    import jsonschema

    if not isinstance(instance, str):
        return
    anchored = pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern
    if not re.search(anchored, instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


@functools.cache
def _explaining_validator() -> Any:
    """jsonschema, which names every problem: loaded only for a ledger that has one."""
    import jsonschema

    return jsonschema.validators.extend(  # type: ignore[no-untyped-call]  # untyped stubs
        jsonschema.Draft202012Validator, {"pattern": _pattern_to_the_end}
    )(LEDGER_SCHEMA)


def _anchored(schema: Any) -> Any:
    """The schema with each `pattern` ending in `$` ending in `\\Z` instead: what ECMA 262's
    `$` means, for a validator that hands the pattern to Python's `re` as it is."""
    if isinstance(schema, dict):
        return {
            key: value[:-1] + r"\Z"
            if key == "pattern" and isinstance(value, str) and value.endswith("$")
            else _anchored(value)
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [_anchored(item) for item in schema]
    return schema


@functools.cache
def _accepts() -> Callable[[Any], Any]:
    """A validator compiled to Python once (fastjsonschema): a valid ledger, the usual case,
    is checked in a fraction of the time; only a ledger it refuses is read again by
    jsonschema, which names every problem."""
    import fastjsonschema

    return fastjsonschema.compile(_anchored(LEDGER_SCHEMA))


def shape_accepts(data: Any) -> bool:
    """Whether the schema surely accepts the data: a strict check, in one pass, of the
    kind a valid ledger needs. It may refuse what the schema allows (a whole number
    written `2.0`): then `shape_problems` decides, as the loader always has."""
    return _strictly_valid()(data)


@functools.cache
def _strictly_valid() -> Callable[[Any], bool]:
    from claimledger.ledger.strictschema import compile_strict

    return compile_strict(LEDGER_SCHEMA)


def shape_problems(located: Located) -> Iterator[Finding]:
    """Each shape problem once (jsonschema reports `required` once per missing key)."""
    from fastjsonschema import JsonSchemaException

    try:
        _accepts()(located.data)
        return
    except JsonSchemaException:
        pass  # there is something to say: say all of it, with jsonschema
    validator = _explaining_validator()
    seen: set[Finding] = set()
    for error in validator.iter_errors(located.data):
        for finding in _explain(error, located):
            if finding not in seen:
                seen.add(finding)
                yield finding


def _explain(error: jsonschema.ValidationError, located: Located) -> Iterator[Finding]:
    path: Path_ = tuple(error.absolute_path)
    name = _field_name(path)
    value: Any = error.instance
    rule: Any = error.validator_value
    schema: Any = error.schema
    kind = error.validator
    if "propertyNames" in error.absolute_schema_path and isinstance(value, str):
        # the error is about a key, which jsonschema does not add to the path
        where = located.where((*path, value), key=True)
        yield where, _pattern_message(f"{_field_name(path).removesuffix('s')} id", value, rule)
    elif kind == "required":
        missing = [k for k in rule if k not in value]
        for key in missing:
            yield located.where(path), f"{_owner(path)} is missing '{key}'"
    elif kind == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        for key in sorted(set(value) - set(allowed)):
            yield (
                located.where((*path, key), key=True),
                f"unknown key '{key}' in {_owner(path)}{did_you_mean(key, allowed)}",
            )
    elif kind == "enum":
        options = [str(o) for o in rule]
        hint = did_you_mean(str(value), options)
        yield located.where(path), f"{name} {value!r} is not one of {', '.join(options)}{hint}"
    elif kind == "const":
        yield located.where(path), f"{name} must be {rule!r}, not {value!r}"
    elif kind == "pattern":
        if rule != CALENDAR_DAY or not _DAY_SHAPE.fullmatch(str(value)):
            yield located.where(path), _pattern_message(name, value, rule)
        # else a day its month has not: soundness says which ("is not a real date: …")
    elif kind == "type":
        yield (
            located.where(path),
            f"{name} should be {_a(rule)}, not {_a(_type_of(value))}",
        )
    elif kind in ("minItems", "minLength"):
        yield located.where(path), f"{name} must not be empty"
    elif kind == "maxLength":
        yield (
            located.where(path),
            f"{name} of {len(value):,} characters is more than a passage: at most {rule:,} "
            "(quote the words that bear the claim)",
        )
    elif kind == "oneOf" and name == "run":
        yield (
            located.where(path),
            "artifact run must be a command (a list of arguments, or a string)",
        )
    else:
        yield located.where(path), f"{name}: {error.message}"


_DAY_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _pattern_message(name: str, value: Any, pattern: str) -> str:
    if pattern == WEB_URL:
        return f"{name} {value!r} is not an http(s) URL"
    if pattern == REPO:
        return f"{name} {value!r} is neither an https address nor a folder of this machine"
    if "[0-9]{4}" in pattern:
        return f"{name} {value!r} is not a date (YYYY-MM-DD)"
    return f"{name} {value!r} must be a lowercase id (letters a-z, digits, '.', '_', '-')"


def _field_name(path: Path_) -> str:
    for part in reversed(path):
        if isinstance(part, str):
            return part
    return "value"


def _owner(path: Path_) -> str:
    """A readable name for the mapping at `path`: 'claims[3]', 'source 'x'', 'the ledger'."""
    if not path:
        return "the ledger"
    if len(path) == 2 and path[0] == "sources":
        return f"source '{path[1]}'"
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _type_of(value: Any) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer"}
    return "null" if value is None else names.get(type(value), "number")


def _a(kind: str | list[str]) -> str:
    words = {
        "object": "a mapping",
        "array": "a list",
        "string": "text",
        "boolean": "true or false",
        "integer": "a whole number",
        "number": "a number",
        "null": "empty",
    }
    kinds = kind if isinstance(kind, list) else [kind]
    return " or ".join(words.get(k, k) for k in kinds)


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """Suggest the option that differs only in case first ('claimed'), else the closest."""
    choices = list(options)
    same_letters = [o for o in choices if o.casefold() == word.casefold()]
    close = same_letters or difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
