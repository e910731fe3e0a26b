"""Arbitrary input through the doors a model's output reaches: the text editor handler, the
``apply_patch_call`` handler and ``edit_text`` with a path in every language the syntax check
knows. Never an exception or an ``internal_error``; a refusal is a typed ``EditError``, and
the syntax guard only ever refuses, it never changes what is written."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editengine import EditError, SyntaxBroken, edit_text
from editengine.engine import EditEngine
from editengine.tools import anthropic_text_editor, openai_apply_patch

FUZZ = settings(
    max_examples=600,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

SUFFIXES = (".py", ".js", ".ts", ".tsx", ".go", ".rs", ".c", ".cpp", ".java", ".json", ".yaml",
            ".toml", ".sh", ".mk", ".md", ".txt", "")  # fmt: skip
SNIPPETS = (
    "def f(x):\n    if x:\n        return (x, [1])\n    return None\n",
    "function f(x) {\n  if (x) {\n    return [x, {a: 1}];\n  }\n}\n",
    "fn f(x: i32) -> i32 {\n    if x > 0 { return x; }\n    0\n}\n",
    '{\n  "a": [1, 2],\n  "b": {"c": null}\n}\n',
    "a:\n  - b: 1\n  - c: [2, 3]\n",
    '[table]\nkey = "value"\nlist = [1, 2]\n',
    "all: build\n\tcc -o x x.c\n",
)
TOKENS = st.sampled_from(
    ["(", ")", "[", "]", "{", "}", ":", ";", "\n", "\t", "    ", "  ", "return", "x", "1",
     '"', "'", "\\", "#", "//", "/*", "-", "=", ",", "\r\n", "\x00", "\ud800", "é", "if x"]
)  # fmt: skip
PIECES = st.lists(TOKENS, max_size=8).map("".join)
TEXT = st.one_of(PIECES, st.text(max_size=30))


@st.composite
def content_and_quote(draw: st.DrawFn) -> tuple[str, str]:
    """A file in some language, and an old_string that is often a (mangled) piece of it."""
    content = draw(st.one_of(st.sampled_from(SNIPPETS), TEXT))
    if content and draw(st.booleans()):
        start = draw(st.integers(0, len(content) - 1))
        end = draw(st.integers(start, len(content)))
        quote = content[start:end]
        if draw(st.booleans()):  # what a model does to a quote: re-indent, re-space
            quote = quote.replace("    ", draw(st.sampled_from(["", "  ", "\t", "        "])))
        return content, quote
    return content, draw(TEXT)


@FUZZ
@given(content_and_quote(), PIECES, st.sampled_from(SUFFIXES), st.sampled_from(["auto", "exact"]))
def test_edit_text_with_a_path_refuses_only_with_an_edit_error(
    case: tuple[str, str], new: str, suffix: str, match_mode: str
) -> None:
    content, old = case
    outcomes: dict[str, Any] = {}
    for mode in ("off", "report", "refuse"):
        try:
            edited = edit_text(content, old, new, path=f"f{suffix}", syntax_guard=mode,
                               match_mode=match_mode)  # fmt: skip
            outcomes[mode] = edited.new_content
        except EditError as error:
            outcomes[mode] = error
    # The guard decides whether, never what: off and report write the same text, and refuse
    # writes it too or refuses with syntax_broken.
    if isinstance(outcomes["off"], EditError):
        assert type(outcomes["report"]) is type(outcomes["off"])
        assert type(outcomes["refuse"]) is type(outcomes["off"])
    else:
        assert outcomes["report"] == outcomes["off"]
        refused = outcomes["refuse"]
        assert refused == outcomes["off"] or isinstance(refused, SyntaxBroken)
        if isinstance(refused, SyntaxBroken):
            assert refused.code == "syntax_broken" and refused.tier != "exact"


@pytest.fixture(scope="module")
def workspace() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        root = base / "ws"
        root.mkdir()
        (base / "outside.txt").write_text("secret\n")
        yield root


def _reset(root: Path) -> None:
    for path in sorted(root.rglob("*"), reverse=True):
        if path.is_symlink() or path.is_file():
            path.unlink()
        elif path.is_dir():
            path.rmdir()
    (root / "a.py").write_text(SNIPPETS[0])


PATHS = st.sampled_from(["a.py", "b.js", "new/c.py", "../outside.txt", "", ".", "a.py/x",
                         "ws/../a.py", "x\x00y", 7, None])  # fmt: skip
VALUES = st.one_of(
    TEXT, st.integers(-3, 5), st.booleans(), st.none(), st.lists(st.integers(-2, 9), max_size=3)
)
COMMANDS = st.sampled_from(
    ["view", "str_replace", "create", "insert", "undo_edit", "delete", "", "View", 3]
)
EDITOR_KEYS = ("path", "old_str", "new_str", "file_text", "insert_line", "insert_text",
               "new_str", "view_range", "bogus")  # fmt: skip


@FUZZ
@given(
    COMMANDS,
    PATHS,
    st.dictionaries(st.sampled_from(EDITOR_KEYS), VALUES, max_size=5),
)
def test_the_text_editor_answers_every_command(
    workspace: Path, command: object, path: object, extra: dict[str, object]
) -> None:
    _reset(workspace)
    editor = anthropic_text_editor(EditEngine(workspace, journal=False))
    answer = editor({"command": command, "path": path, **extra})
    assert isinstance(answer.text, str) and answer.text
    assert answer.code != "internal_error", answer.text
    assert (workspace.parent / "outside.txt").read_text() == "secret\n"


OPERATION_TYPES = st.sampled_from(["create_file", "update_file", "delete_file", "move", "", 1])
DIFFS = st.one_of(
    TEXT,
    st.lists(
        st.sampled_from(["@@", "@@ def f(x):", " def f(x):", "-    if x:", "+    if y:",
                         "+x = (", "-nothing", "*** End Patch", "", " ", "\\ No newline"]),
        max_size=6,
    ).map("\n".join),
)  # fmt: skip


@FUZZ
@given(
    st.one_of(st.none(), st.sampled_from(["apply_patch_call", "function_call"])),
    st.one_of(st.none(), st.just("call_1"), st.just(""), st.integers()),
    st.one_of(
        st.none(),
        TEXT,
        st.fixed_dictionaries(
            {"type": OPERATION_TYPES, "path": PATHS},
            optional={"diff": st.one_of(DIFFS, st.none(), st.integers())},
        ),
    ),
)
def test_apply_patch_calls_always_get_their_output(
    workspace: Path, kind: object, call_id: object, operation: object
) -> None:
    _reset(workspace)
    item: dict[str, object] = {"call_id": call_id, "operation": operation}
    if kind is not None:
        item["type"] = kind
    handler = openai_apply_patch(EditEngine(workspace, journal=False))
    answer = handler(item)
    assert answer["type"] == "apply_patch_call_output"
    assert answer["status"] in ("completed", "failed")
    assert "internal_error" not in answer["output"], answer["output"]
    assert (workspace.parent / "outside.txt").read_text() == "secret\n"
