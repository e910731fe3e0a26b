"""Anthropic's text editor tool served by the engine: every command, every tool version."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editengine import tools
from editengine.engine import EditEngine
from editengine.fixer import LLMFixer
from editengine.providers import ScriptedProvider
from editengine.tools import anthropic_text_editor
from editengine.tools._text_editor import _insertion

CRLF_BOM = b"\xef\xbb\xbfdef f():\r\n    return 1\r\n\r\ndef g():\r\n    return 1\r\n"


def test_view_numbers_the_lines_and_honours_view_range(engine: EditEngine) -> None:
    (engine.root / "a.py").write_bytes(CRLF_BOM)
    editor = anthropic_text_editor(engine)
    whole = editor({"command": "view", "path": "a.py"})
    assert not whole.is_error
    assert whole.text.splitlines()[:2] == ["     1\tdef f():", "     2\t    return 1"]
    part = editor({"command": "view", "path": "a.py", "view_range": [4, -1]})
    assert part.text == "     4\tdef g():\n     5\t    return 1"
    two = editor({"command": "view", "path": "a.py", "view_range": [2, 3]})
    assert two.text == "     2\t    return 1\n     3\t"
    past = editor({"command": "view", "path": "a.py", "view_range": [9, 10]})
    assert past.is_error and past.code == "bad_request" and "has 5 lines" in past.text


@pytest.mark.parametrize("view_range", [[0, 2], [3, 2], [1], [1, "2"], "1,2", [True, 2], [1, -2]])
def test_a_view_range_that_is_not_two_line_numbers_is_refused(
    engine: EditEngine, view_range: object
) -> None:
    (engine.root / "a.py").write_bytes(CRLF_BOM)
    answer = anthropic_text_editor(engine)(
        {"command": "view", "path": "a.py", "view_range": view_range}
    )
    assert answer.is_error and answer.text.startswith("Error [bad_request]: view_range must be")


def test_view_of_a_folder_lists_two_levels_without_hidden_entries(engine: EditEngine) -> None:
    for name in ("src/pkg/deep/x.py", "src/a.py", ".git/config", "README.md"):
        path = engine.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x\n")
    editor = anthropic_text_editor(engine)
    listing = editor({"command": "view", "path": "."}).text.splitlines()[1:]
    assert listing == ["README.md", "src/", "src/a.py", "src/pkg/"]
    assert editor({"command": "view", "path": str(engine.root)}).text.splitlines()[1:] == listing
    inner = editor({"command": "view", "path": "src"}).text.splitlines()[1:]
    assert inner == ["src/a.py", "src/pkg/", "src/pkg/deep/"]


def test_view_clips_at_max_characters(engine: EditEngine) -> None:
    (engine.root / "big.txt").write_text("".join(f"line {n}\n" for n in range(100)))
    editor = anthropic_text_editor(engine, max_characters=50)
    answer = editor({"command": "view", "path": "big.txt"})
    assert answer.text.startswith("     1\tline 0\n")
    assert "<response clipped" in answer.text and len(answer.text) < 150
    assert editor.tool_param() == {
        "type": "text_editor_20250728",
        "name": "str_replace_based_edit_tool",
        "max_characters": 50,
    }


def test_str_replace_runs_the_cascade_and_keeps_the_file_style(engine: EditEngine) -> None:
    (engine.root / "a.py").write_bytes(CRLF_BOM)
    editor = anthropic_text_editor(engine)
    answer = editor(
        {"command": "str_replace", "path": "a.py", "old_str": "def g():\n  return 1",
         "new_str": "def g():\n  return 2"}
    )  # fmt: skip
    assert not answer.is_error, answer.text
    assert "line_trimmed" in answer.text and "+    return 2" in answer.text
    assert (engine.root / "a.py").read_bytes() == CRLF_BOM.replace(
        b"g():\r\n    return 1", b"g():\r\n    return 2"
    )
    ambiguous = editor(
        {"command": "str_replace", "path": "a.py", "old_str": "return 1", "new_str": "x"}
    )
    assert not ambiguous.is_error  # only one `return 1` is left
    again = editor({"command": "str_replace", "path": "a.py", "old_str": "", "new_str": "x"})
    assert again.is_error and "old_str is empty" in again.text


def test_str_replace_without_new_str_deletes_the_text(engine: EditEngine) -> None:
    (engine.root / "a.txt").write_text("keep\ndrop me\nkeep\n")
    answer = anthropic_text_editor(engine)(
        {"command": "str_replace", "path": "a.txt", "old_str": "drop me\n"}
    )
    assert not answer.is_error, answer.text
    assert (engine.root / "a.txt").read_text() == "keep\nkeep\n"


def test_str_replace_reaches_the_fixer(engine: EditEngine) -> None:
    (engine.root / "calc.py").write_text("def total(items):\n    return sum(items)\n")
    provider = ScriptedProvider(
        [{"search": "    return sum(items)", "replace": "    return sum(items) + 1",
          "noChangesRequired": False, "explanation": "the model misremembered the name"}]
    )  # fmt: skip
    engine.fixer = LLMFixer(provider, cache_size=0)
    answer = anthropic_text_editor(engine)(
        {"command": "str_replace", "path": "calc.py", "old_str": "    return sum(itemz)",
         "new_str": "    return sum(itemz) + 1"}
    )  # fmt: skip
    assert len(provider.requests) == 1
    assert not answer.is_error and "the LLM fixer corrected old_string" in answer.text
    assert (engine.root / "calc.py").read_text().endswith("return sum(items) + 1\n")


def test_create_writes_a_new_file_and_never_overwrites(engine: EditEngine) -> None:
    editor = anthropic_text_editor(engine)
    made = editor({"command": "create", "path": "pkg/new.py", "file_text": "print(1)\n"})
    assert not made.is_error and made.text.startswith("Created pkg/new.py")
    assert (engine.root / "pkg/new.py").read_text() == "print(1)\n"
    again = editor({"command": "create", "path": "pkg/new.py", "file_text": "boom\n"})
    assert again.is_error and "already exists" in again.text
    assert (engine.root / "pkg/new.py").read_text() == "print(1)\n"
    (engine.root / "empty.txt").write_text("")
    filled = editor({"command": "create", "path": "empty.txt", "file_text": "now\n"})
    assert not filled.is_error and (engine.root / "empty.txt").read_text() == "now\n"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (0, "new\nx\ny\nx\ny\n"),
        (1, "x\nnew\ny\nx\ny\n"),
        (2, "x\ny\nnew\nx\ny\n"),
        (3, "x\ny\nx\nnew\ny\n"),
        (4, "x\ny\nx\ny\nnew\n"),
    ],
)
def test_insert_lands_after_the_line_even_among_repeated_lines(
    engine: EditEngine, line: int, expected: str
) -> None:
    (engine.root / "r.txt").write_text("x\ny\nx\ny\n")
    answer = anthropic_text_editor(engine)(
        {"command": "insert", "path": "r.txt", "insert_line": line, "new_str": "new\n"}
    )
    assert not answer.is_error, answer.text
    assert (engine.root / "r.txt").read_text() == expected
    where = "at the start" if line == 0 else f"after line {line}"
    assert answer.text.startswith(f"Inserted 1 line {where} of r.txt.")


def test_insert_takes_insert_text_keeps_crlf_and_bom_and_checks_the_line(
    engine: EditEngine,
) -> None:
    (engine.root / "a.py").write_bytes(CRLF_BOM)
    editor = anthropic_text_editor(engine)
    answer = editor(
        {"command": "insert", "path": "a.py", "insert_line": 0, "insert_text": "import os"}
    )
    assert not answer.is_error, answer.text
    assert (engine.root / "a.py").read_bytes() == b"\xef\xbb\xbfimport os\r\n" + CRLF_BOM[3:]
    for bad in (7, -1, "2", 1.5):
        refused = editor({"command": "insert", "path": "a.py", "insert_line": bad, "new_str": "x"})
        assert refused.is_error and refused.code == "bad_request", bad
    (engine.root / "same.txt").write_text("\n\n\n")
    blank = editor({"command": "insert", "path": "same.txt", "insert_line": 2, "new_str": "z"})
    assert not blank.is_error and (engine.root / "same.txt").read_text() == "\n\nz\n\n"
    (engine.root / "empty.txt").write_text("")
    first = editor({"command": "insert", "path": "empty.txt", "insert_line": 0, "new_str": "a"})
    assert not first.is_error and (engine.root / "empty.txt").read_text() == "a\n"


def test_undo_edit_reverses_the_last_write_of_the_file(engine: EditEngine) -> None:
    (engine.root / "a.txt").write_text("one\n")
    editor = anthropic_text_editor(engine)
    editor({"command": "str_replace", "path": "a.txt", "old_str": "one", "new_str": "two"})
    assert (engine.root / "a.txt").read_text() == "two\n"
    undone = editor({"command": "undo_edit", "path": "a.txt"})
    assert not undone.is_error and (engine.root / "a.txt").read_text() == "one\n"
    nothing = editor({"command": "undo_edit", "path": "a.txt"})
    assert nothing.is_error and nothing.code == "nothing_to_undo"


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        ({"path": "a.txt"}, "command is required"),
        ({"command": "delete", "path": "a.txt"}, "command must be one of"),
        ({"command": "view"}, "path is required"),
        ({"command": "view", "path": "../outside.txt"}, "outside the workspace"),
        ({"command": "create", "path": "b.txt"}, "file_text is required"),
        ({"command": "str_replace", "path": "a.txt", "new_str": "x"}, "old_str is required"),
        ({"command": "str_replace", "path": "a.txt", "old_str": "\ud800", "new_str": "x"},
         "lone surrogate"),
        ("{not json", "not valid JSON"),
    ],
)  # fmt: skip
def test_bad_calls_are_answers_with_is_error(
    engine: EditEngine, call: object, fragment: str
) -> None:
    (engine.root / "a.txt").write_text("one\n")
    answer = anthropic_text_editor(engine)(call)  # type: ignore[arg-type]  # a stand-in, not the real type
    assert answer.is_error and fragment in answer.text, answer.text
    assert (engine.root / "a.txt").read_text() == "one\n"


@pytest.mark.parametrize("name", sorted(tools.TEXT_EDITOR_NAMES))
def test_handle_tool_call_serves_the_text_editor_by_its_names(
    engine: EditEngine, name: str
) -> None:
    (engine.root / "a.txt").write_text("one\n")
    answer = engine.handle_tool_call(
        name, {"command": "str_replace", "path": "a.txt", "old_str": "one", "new_str": "two"}
    )
    assert not answer.is_error and (engine.root / "a.txt").read_text() == "two\n"


async def test_the_async_twins(engine: EditEngine) -> None:
    (engine.root / "a.txt").write_text("one\n")
    editor = anthropic_text_editor(engine)
    assert (await editor.acall({"command": "view", "path": "a.txt"})).text == "     1\tone"
    answer = await engine.ahandle_tool_call(
        "str_replace_editor", {"command": "insert", "path": "a.txt", "insert_line": 1,
                               "new_str": "two"}
    )  # fmt: skip
    assert not answer.is_error and (engine.root / "a.txt").read_text() == "one\ntwo\n"


def test_every_tool_version_has_its_name(engine: EditEngine) -> None:
    editor = anthropic_text_editor(engine)
    assert {t: editor.tool_param(t)["name"] for t in tools.TEXT_EDITOR_TYPES} == {
        "text_editor_20250728": "str_replace_based_edit_tool",
        "text_editor_20250429": "str_replace_based_edit_tool",
        "text_editor_20250124": "str_replace_editor",
        "text_editor_20241022": "str_replace_editor",
    }
    with pytest.raises(ValueError, match="unknown text editor type"):
        editor.tool_param("text_editor_1999")


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(st.sampled_from(["", "x", "y", "x y", "  x"]), max_size=8),
    data=st.data(),
    inserted=st.lists(st.sampled_from(["new", "", "x"]), min_size=1, max_size=3),
)
def test_insertion_names_one_place_and_puts_the_lines_after_the_line(
    lines: list[str], data: st.DataObject, inserted: list[str]
) -> None:
    line = data.draw(st.integers(0, len(lines)))
    old, new = _insertion(lines, line, inserted)
    whole = "\n".join(lines)
    expected = "\n".join(lines[:line] + inserted + lines[line:])
    if old:
        assert whole.count(old) >= 1 and whole.find(old, whole.find(old) + 1) == -1
        assert whole.replace(old, new, 1) == expected
    else:  # no run of lines around the place occurs once: the whole text, by its hash
        assert new == expected


def test_a_whole_tool_use_block_is_answered_with_its_tool_result(engine: EditEngine) -> None:
    from anthropic.types import ToolUseBlock

    (engine.root / "a.txt").write_text("one\n")
    editor = anthropic_text_editor(engine)
    block = ToolUseBlock(
        type="tool_use", id="toolu_9", name="str_replace_based_edit_tool",
        input={"command": "str_replace", "path": "a.txt", "old_str": "one", "new_str": "two"},
    )  # fmt: skip
    answer = editor.tool_result(block)
    assert answer["tool_use_id"] == "toolu_9" and answer["is_error"] is False
    assert (engine.root / "a.txt").read_text() == "two\n"
    as_dict = editor.tool_result(
        {**block.model_dump(), "input": {"command": "view", "path": "a.txt"}}
    )
    assert as_dict == {
        "type": "tool_result",
        "tool_use_id": "toolu_9",
        "content": "     1\ttwo",
        "is_error": False,
    }
