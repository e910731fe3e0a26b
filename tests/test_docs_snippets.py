"""Every ```python block of README.md and docs/*.md runs, so the docs cannot drift from the code.

The blocks of one page run in order in one namespace (a later block may use what an earlier
one made), in a fresh temporary folder (home and temp folders too), with fake API keys
and no network reached. A page
may give a block a hidden set-up, an HTML comment just before it:

    <!-- snippet-setup
    (?P<code>python code run first, in the same namespace)
    -->

and a block that cannot run as it stands is marked, visibly, with why:

    <!-- snippet: no-run (needs an OpenTelemetry collector) -->

Top-level ``await`` works, as in an asyncio REPL.
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import inspect
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_BLOCK = re.compile(
    r"(?:<!-- snippet-setup\n(?P<setup>(?:(?!-->).)*?)\n-->\n"
    r"|<!-- snippet: no-run \((?P<why>[^)]+)\) -->\n)?"
    r"```python\n(?P<code>.*?)\n```",
    re.S,
)


def snippets(text: str) -> list[tuple[int, str, str, str | None]]:
    """``(line, setup, code, why-not-run)`` for each python block of a page."""
    found = []
    for match in _BLOCK.finditer(text):
        line = text.count("\n", 0, match.start("code"))
        found.append((line, match["setup"] or "", match["code"], match["why"]))
    return found


def _run(source: str, namespace: dict[str, Any], name: str) -> None:
    code = compile(source, name, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    result = eval(code, namespace)  # the page's own code, as a reader would paste it
    if inspect.iscoroutine(result):
        asyncio.run(result)


def test_every_page_with_code_is_found() -> None:
    names = {page.name for page in PAGES if snippets(page.read_text(encoding="utf-8"))}
    assert {"README.md", "engine.md", "telemetry.md"} <= names


def test_a_no_run_marker_gives_its_reason_and_the_parser_sees_both_comments() -> None:
    page = (
        "<!-- snippet-setup\nx = 1\n-->\n```python\ny = x\n```\n"
        "<!-- snippet: no-run (needs a key) -->\n```python\ncall()\n```\n"
    )
    assert [(setup, code, why) for _, setup, code, why in snippets(page)] == [
        ("x = 1", "y = x", None),
        ("", "call()", "needs a key"),
    ]


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_the_python_snippets_of_the_page_run(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Everything a snippet writes (files, journals, locks, ~/...) stays in the test's folder.
    (tmp_path / "home").mkdir()
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-docs-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-docs-test")
    namespace: dict[str, Any] = {"__name__": f"docs.{page.stem}"}
    for line, setup, code, why in snippets(page.read_text(encoding="utf-8")):
        if why is not None:
            continue
        where = f"{page.relative_to(ROOT)}:{line + 1}"
        try:
            _run(setup, namespace, f"{where} (set-up)")
            _run(code, namespace, where)
        except Exception as error:
            pytest.fail(f"the snippet at {where} fails: {type(error).__name__}: {error}")


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            if not hasattr(found, part):
                return False
            found = getattr(found, part)
        return True
    return False


def test_every_editengine_name_the_docs_give_can_be_imported() -> None:
    """``editengine.telemetry.reading`` once stood in the docs years after it was renamed:
    every dotted name is a module or an attribute of one, or a pinned external name (a
    metric or a logger)."""
    pinned = set()
    for names in json.loads((ROOT / "tests" / "external_names.json").read_text()).values():
        for item in names:
            pinned.update(re.findall(r"editengine(?:\.\w+)+", item))
    missing = []
    for page in [*PAGES, ROOT / "CONTRIBUTING.md"]:
        text = page.read_text(encoding="utf-8")
        # Not a file name's tail (``.editengine.tmp``).
        for dotted in re.findall(r"(?<![\w.])editengine(?:\.[A-Za-z_]\w*)+", text):
            if dotted not in pinned and not _resolves(dotted):
                missing.append(f"{page.name}: {dotted}")
    assert missing == [], "name the public module or attribute that exists"
