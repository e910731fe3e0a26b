"""How a front end's request is read: a :class:`Field` (a name, its spellings, its rule and
what a model is told of it), a :class:`Schema` (a request kind, a tuple of fields),
:func:`parse` and the rules. The request kinds themselves are in
:mod:`editengine.tools._request`.

The rules, the same for every front end:

- a string field holds a ``str`` that UTF-8 can encode: a lone surrogate (``"\\ud800"``, which
  JSON allows as an escape) is refused, since no file or answer could carry it;
- a boolean is ``true``, ``false`` or absent/null: ``"false"`` or ``0`` is refused, never
  guessed at;
- a count is a positive integer (a JSON number with no fraction): ``"2"`` is refused;
- unknown fields are ignored; two spellings of one field with different values are refused.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from editengine._edits import ARGUMENT_ALIASES
from editengine._errors import BadRequest

__all__ = ["Field", "Schema", "boolean", "count", "load_arguments", "parse", "text"]

Kind = Literal["string", "text", "boolean", "count", "enum", "edits", "files", "range"]

# Spellings beyond the canonical name, from the engine's own table plus the fields only the
# front ends know.
_ALIASES: dict[str, tuple[str, ...]] = {
    **ARGUMENT_ALIASES,
    "expected_hash": ("expected_hash", "expectedHash"),
    "overwrite": ("overwrite",),
}


@dataclass(frozen=True)
class Field:
    """One field: its canonical name, its rule (``kind``) and what a model is told of it.

    ``published`` fields appear in the tool schemas; the others are accepted all the same
    (for callers that know them) but not offered to a model.
    """

    name: str
    kind: Kind
    description: str = ""
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: int = 1
    published: bool = True
    aliases: tuple[str, ...] = ()
    hint: str = ""
    items: Schema | None = None  # an ``edits`` field: the schema of each item

    def _items(self) -> Schema:
        if self.items is None:
            raise TypeError(f"the {self.kind} field {self.name!r} names no item schema")
        return self.items

    def spellings(self) -> tuple[str, ...]:
        return self.aliases or _ALIASES.get(self.name, (self.name,))

    def check(self, value: Any) -> Any:
        """``value`` checked by this field's rule (``None``: absent)."""
        if value is None:
            if self.required:
                raise BadRequest(f"{self.name} is required{self.hint}.")
            return copy.copy(self.default)  # a fresh {} for each request
        if self.kind == "boolean":
            return boolean(value, self.name)
        if self.kind == "count":
            return count(value, self.name, minimum=self.minimum)
        if self.kind == "edits":
            return _edits(value, self)
        if self.kind == "files":
            return _files(value, self.name)
        if self.kind == "range":
            return _line_range(value, self.name)
        checked = text(value, self.name, empty=self.kind == "string")
        if self.kind == "enum" and checked not in self.choices:
            raise BadRequest(
                f"{self.name} must be one of {', '.join(self.choices)}; got {checked!r}."
            )
        return checked

    def json_schema(self, *, strict: bool = False) -> dict[str, Any]:
        schema: dict[str, Any]
        if self.kind == "boolean":
            schema = {"type": "boolean"}
        elif self.kind == "count":
            schema = {"type": "integer", "minimum": self.minimum}
        elif self.kind == "edits":
            schema = {
                "type": "array",
                "minItems": 1,
                "items": self._items().json_schema(strict=strict),
            }
        elif self.kind == "range":
            schema = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
        elif self.kind == "files":
            schema = {"type": "object", "additionalProperties": {"type": "string"}}
        elif self.choices:
            schema = {"type": "string", "enum": list(self.choices)}
        else:
            schema = {"type": "string"}
        if strict:
            # OpenAI's strict mode: every property listed as required, an optional one
            # nullable; no defaults or bounds it would refuse (the descriptions say them).
            schema.pop("minimum", None)
            schema.pop("minItems", None)
            if not self.required:
                schema["type"] = [schema["type"], "null"]
                if "enum" in schema:
                    schema["enum"] = [*schema["enum"], None]
        elif self.default is not None:
            schema["default"] = self.default
        if self.description:
            schema["description"] = self.description
        return schema


@dataclass(frozen=True)
class Schema:
    """A request kind: its name (for messages) and its fields."""

    name: str
    fields: tuple[Field, ...]

    def json_schema(self, *, strict: bool = False) -> dict[str, Any]:
        """The published fields as a JSON Schema object. ``strict=True`` gives the form of
        OpenAI's strict function calling (and openai-agents' strict rewrite): every property
        required, the optional ones nullable, no other property allowed."""
        shown = [field for field in self.fields if field.published]
        required = [f.name for f in shown if f.required or strict]
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {f.name: f.json_schema(strict=strict) for f in shown},
        }
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        return copy.deepcopy(schema)


def parse(schema: Schema, arguments: object, *, where: str = "") -> dict[str, Any]:
    """The checked values of ``arguments`` (a mapping, or a JSON object as text or bytes)
    for every field of ``schema``, absent ones at their default; :class:`BadRequest` names
    the first field that breaks its rule. ``where`` prefixes the messages (``"edit 2: "``).
    """
    given = load_arguments(arguments)
    values: dict[str, Any] = {}
    try:
        for field in schema.fields:
            values[field.name] = field.check(_one_spelling(given, field))
    except BadRequest as error:
        if not where:
            raise
        raise BadRequest(where + error.message) from error
    return values


def _one_spelling(given: Mapping[str, Any], field: Field) -> Any:
    names = [name for name in field.spellings() if name in given]
    if len({repr(given[name]) for name in names}) > 1:
        raise BadRequest(
            f"{' and '.join(names)} are the same argument with different values; send one."
        )
    return given[names[0]] if names else None


def load_arguments(arguments: object) -> dict[str, Any]:
    """The arguments as a dict, from a mapping or a JSON object's text (or UTF-8 bytes)."""
    if isinstance(arguments, (bytes, bytearray)):
        try:
            arguments = arguments.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadRequest("The tool arguments are not UTF-8 text.") from error
    if isinstance(arguments, str):
        arguments = _json(arguments, what="The tool arguments")
    if not isinstance(arguments, Mapping):
        raise BadRequest(
            f"The tool arguments must be a JSON object, got {type(arguments).__name__}."
        )
    return dict(arguments)


def _json(source: str, *, what: str) -> Any:
    if not source.strip():
        raise BadRequest(f"{what} are empty; send a JSON object.")
    try:
        return json.loads(source)
    except json.JSONDecodeError as error:
        raise BadRequest(
            f"{what} are not valid JSON ({error.msg} at line {error.lineno} column {error.colno})."
        ) from error
    except RecursionError:
        raise BadRequest(f"{what} are nested too deeply to read.") from None


# ---------------------------------------------------------------------- the rules


def text(value: object, name: str, *, empty: bool = True) -> str:
    """A string UTF-8 can encode (``empty=False``: with something besides whitespace)."""
    if not isinstance(value, str):
        raise BadRequest(f"{name} must be a string, got {type(value).__name__}.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise BadRequest(
            f"{name} holds a lone surrogate ({value[error.start]!a} at character "
            f"{error.start}), which is not Unicode text: no file or answer can carry it. "
            "Send valid Unicode text."
        ) from None
    if not empty and not value.strip():
        raise BadRequest(f"{name} must not be empty.")
    return value


def boolean(value: object, name: str) -> bool:
    """``true`` or ``false``; strings and numbers are refused rather than guessed at."""
    if not isinstance(value, bool):
        raise BadRequest(f"{name} must be true or false (a JSON boolean), got {value!r}.")
    return value


def count(value: object, name: str, *, minimum: int = 1) -> int:
    """An integer of at least ``minimum``; a JSON number with no fraction (``2.0``) counts,
    a string or a boolean does not."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        what = "a positive integer" if minimum == 1 else f"an integer of at least {minimum}"
        raise BadRequest(f"{name} must be {what}, got {value!r}.")
    return value


def _edits(value: object, field: Field) -> list[dict[str, Any]]:
    if isinstance(value, str):  # some models send the array JSON-encoded a second time
        value = _json(value, what="The edits")
    if not isinstance(value, list) or not value:
        raise BadRequest(f"{field.name} is required{field.hint}.")
    items = []
    for index, item in enumerate(value, 1):
        if not isinstance(item, Mapping):
            raise BadRequest(f"edit {index} must be an object with old_string and new_string.")
        items.append(parse(field._items(), item, where=f"edit {index}: "))
    return items


def _files(value: object, name: str) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise BadRequest(f"{name} must be an object mapping paths to file contents.")
    return {
        text(path, f"{name} key"): text(content, f"{name}[{path!r}]")
        for path, content in value.items()
    }


def _line_range(value: object, name: str) -> tuple[int, int]:
    """``[start_line, end_line]``, 1-based and inclusive; ``end_line`` -1 means the end."""
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and value[0] >= 1
        and (value[1] == -1 or value[1] >= value[0])
    ):
        return (value[0], value[1])
    raise BadRequest(
        f"{name} must be [start_line, end_line]: two integers, start_line from 1, end_line "
        f"at least start_line or -1 for the end of the file; got {value!r}."
    )
