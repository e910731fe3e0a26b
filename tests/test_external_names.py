"""Every name the outside world sees, pinned against ``tests/external_names.json``.

Dashboards, log filters, batch clients, agents' tool calls and scripts are built on these
names: metric and logger names, telemetry events and their fields, the batch protocol's
fields, the MCP and tool-call adapters' tools and arguments, the CLI's commands and flags,
and the error codes. Each is collected here from the running code (not from a second list
written by hand), and compared with the checked-in list both ways:

- a name in the list that the code no longer has is a break for someone outside: restore it
  (or, if the break is meant, remove it from the list and say so in CHANGELOG.md);
- a name the code has that the list lacks is new: add it to the list in the same change.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import inspect
import json
import logging
import pkgutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import editengine
from editengine import EditError
from editengine.cli import _batch as batch
from editengine.cli import build_parser
from editengine.telemetry import LoggingSink
from editengine.telemetry._events import EVENT_TYPES
from editengine.tools import APPLY_PATCH_TOOL, EDIT_TOOL, MULTIEDIT_TOOL, anthropic_tools
from editengine.tools import _request as request_schema

PINNED = Path(__file__).with_name("external_names.json")


# ---------------------------------------------------------------------- collectors


def _metric_names() -> list[str]:
    """The instrument names (and unit) ``OTelSink`` creates, and its meter and logger scope."""
    pytest.importorskip("opentelemetry")
    from editengine.telemetry import OTelSink

    created: list[str] = []

    class _Meter:
        def create_counter(self, name: str, unit: str = "", description: str = "") -> object:
            created.append(f"counter {name} [{unit}]")
            return object()

        def create_histogram(self, name: str, unit: str = "", description: str = "") -> object:
            created.append(f"histogram {name} [{unit}]")
            return object()

    class _Provider:
        def get_meter(self, name: str, version: str | None = None) -> _Meter:
            created.append(f"meter {name}")
            return _Meter()

        def get_logger(self, name: str, version: str | None = None) -> object:
            created.append(f"otel logger {name}")
            return object()

    OTelSink(meter_provider=_Provider(), logger_provider=_Provider())
    return created


def _editengine_modules() -> Iterator[Any]:
    yield editengine
    for info in pkgutil.walk_packages(editengine.__path__, "editengine."):
        if info.name.endswith("__main__"):
            continue
        yield importlib.import_module(info.name)


def _logger_names() -> list[str]:
    """Every module-level logger, and the logger ``LoggingSink`` writes to by default."""
    names = {
        value.name
        for module in _editengine_modules()
        for value in vars(module).values()
        if isinstance(value, logging.Logger)
    }
    sink = LoggingSink()
    names.add(sink._logger.name)
    return sorted(names)


def _event_fields() -> list[str]:
    """``event.name field`` for every field of every telemetry event's JSON object."""
    out = []
    for name, cls in EVENT_TYPES.items():
        instance = cls(edit_id="e", ts="t", engine_version="v")
        keys = set(instance.to_dict())
        # Opt-in fields are left out while None; they are part of the schema all the same.
        keys |= {f.rstrip("_") for f in inspect.signature(cls).parameters}
        out += [f"{name} {key}" for key in sorted(keys)]
    return out


def _batch_fields() -> list[str]:
    """Request fields the batch command reads, answer fields it writes (edit and patch)."""
    tree = ast.parse(inspect.getsource(batch))
    # The fields come from the one request schema every front end parses
    # (editengine.tools._request).
    read: set[str] = {"id"} | {
        spelling
        for schema in (request_schema.BATCH_EDIT, request_schema.BATCH_PATCH)
        for field in schema.fields
        for spelling in field.spellings()
    }
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            target, key = node.value, node.slice.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            target, key = node.func.value, node.args[0].value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "boolean"
            and len(node.args) == 2
            and isinstance(node.args[1], ast.Constant)
        ):
            target, key = node.args[0], node.args[1].value
        if isinstance(target, ast.Name) and target.id == "request" and isinstance(key, str):
            read.add(key)
    lines = [
        {"id": 1, "content": "a b", "old_string": "a", "new_string": "c"},
        {"id": 2, "content": "a b", "old_string": "z", "new_string": "c"},
        {"id": 3, "files": {"f": "a\n"}, "patch": "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE"},
        {"id": 4, "files": {}, "patch": "not a patch"},
    ]
    written = {key for line in lines for key in batch.handle_line(json.dumps(line))}
    return [f"request {key}" for key in sorted(read)] + [f"answer {key}" for key in sorted(written)]


def _schema_fields(schema: Mapping[str, Any], prefix: str = "") -> Iterator[str]:
    for key, sub in schema.get("properties", {}).items():
        yield prefix + key
        yield from _schema_fields(sub, f"{prefix}{key}.")
        if isinstance(sub.get("items"), Mapping):
            yield from _schema_fields(sub["items"], f"{prefix}{key}[].")


async def _mcp_tools(tmp_path: Path) -> list[str]:
    pytest.importorskip("mcp")
    from mcp import Client

    from editengine.mcp_server import build_server

    engine = editengine.EditEngine(tmp_path, journal=False)
    try:
        async with Client(build_server(engine)) as client:
            listed = (await client.list_tools()).tools
    finally:
        engine.close()
    return sorted(
        f"{tool.name} {field}".rstrip()
        for tool in listed
        for field in ["", *_schema_fields(tool.input_schema)]
    )


def _adapter_tools() -> list[str]:
    """The tool-call adapter's tools (``editengine.tools``) and their arguments."""
    return sorted(
        f"{tool['name']} {field}".rstrip()
        for tool in anthropic_tools((EDIT_TOOL, MULTIEDIT_TOOL, APPLY_PATCH_TOOL))
        for field in ["", *_schema_fields(tool["input_schema"])]
    )


def _cli(parser: argparse.ArgumentParser, prefix: str = "editengine") -> Iterator[str]:
    yield prefix
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _cli(sub, f"{prefix} {name}")
        elif action.option_strings:
            yield from (f"{prefix} {flag}" for flag in action.option_strings)


def _run_with_python_m() -> list[str]:
    """``python -m NAME`` commands: packages with a ``__main__`` and modules that run."""
    names = []
    for info in pkgutil.walk_packages(editengine.__path__, "editengine."):
        spec = importlib.util.find_spec(info.name)
        if spec is None or spec.origin is None:
            continue
        if info.name.endswith(".__main__"):
            names.append(info.name.removesuffix(".__main__"))
        elif 'if __name__ == "__main__"' in Path(spec.origin).read_text(encoding="utf-8"):
            names.append(info.name)
    if importlib.util.find_spec("editengine.__main__") is not None:
        names.append("editengine")
    return sorted(set(names))


def _error_codes() -> list[str]:
    """``code ClassName`` for every ``EditError`` subclass anywhere in the package."""
    for _module in _editengine_modules():
        pass  # a subclass is found once its module is imported
    seen: dict[str, str] = {}
    stack: list[type[EditError]] = [EditError]
    while stack:
        cls = stack.pop()
        seen[cls.__name__] = cls.code
        stack += cls.__subclasses__()
    return sorted(f"{code} {name}" for name, code in seen.items())


async def _current(tmp_path: Path) -> dict[str, list[str]]:
    return {
        "metrics": sorted(_metric_names()),
        "loggers": _logger_names(),
        "telemetry events": _event_fields(),
        "batch": _batch_fields(),
        "mcp tools": await _mcp_tools(tmp_path),
        "tool-call adapter": _adapter_tools(),
        "cli": sorted(_cli(build_parser())),
        "python -m": _run_with_python_m(),
        "error codes": _error_codes(),
    }


# ---------------------------------------------------------------------- the check


async def test_no_external_name_disappears_or_appears_unlisted(tmp_path: Path) -> None:
    pinned: dict[str, list[str]] = json.loads(PINNED.read_text(encoding="utf-8"))
    current = await _current(tmp_path)
    problems = []
    for kind in sorted(pinned.keys() | current.keys()):
        gone = sorted(set(pinned.get(kind, [])) - set(current.get(kind, [])))
        new = sorted(set(current.get(kind, [])) - set(pinned.get(kind, [])))
        if gone:
            problems.append(
                f"{kind}: no longer found in the code (a user's dashboard, filter, client or "
                f"script breaks): {gone}. Restore the name; if the break is meant, remove it "
                f"from {PINNED.name} and record it in CHANGELOG.md."
            )
        if new:
            problems.append(
                f"{kind}: new names not yet pinned: {new}. Add them to {PINNED.name} under "
                f"{kind!r} in the same change, so a later rename cannot change them silently."
            )
    assert not problems, "\n".join(problems)


def test_the_pinned_list_is_sorted_and_without_duplicates() -> None:
    pinned: dict[str, list[str]] = json.loads(PINNED.read_text(encoding="utf-8"))
    for kind, names in pinned.items():
        assert names == sorted(set(names)), f"{PINNED.name} {kind!r}: keep it sorted, once each"


def test_the_names_that_the_module_rename_once_broke_are_pinned() -> None:
    pinned: dict[str, list[str]] = json.loads(PINNED.read_text(encoding="utf-8"))
    assert "counter editengine.edits [1]" in pinned["metrics"]
    assert "editengine.telemetry.events" in pinned["loggers"]


if __name__ == "__main__":  # pragma: no cover - prints the current names, to add new ones
    import tempfile

    import anyio

    with tempfile.TemporaryDirectory() as folder:
        names = anyio.run(_current, Path(folder))
        print(json.dumps({kind: sorted(set(found)) for kind, found in names.items()}, indent=1))


def test_every_error_code_and_class_is_documented() -> None:
    page = (Path(__file__).parent.parent / "docs" / "errors.md").read_text(encoding="utf-8")
    missing = [
        item
        for item in _error_codes()
        if f"| `{item.split()[0]}` | `{item.split()[1]}` |" not in page
    ]
    assert missing == [], "add a row for each to the table of docs/errors.md"
