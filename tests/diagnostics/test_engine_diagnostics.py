"""Diagnostics through the engine and its front ends: results, multi-edits, patches (per file),
tool-call text, the fixer's corrections, telemetry, and files with no grammar."""

from __future__ import annotations

from pathlib import Path

import pytest

from editengine import Diagnostic, EditEngine, LLMFixer, ScriptedProvider, SyntaxBroken
from editengine._errors import BadRequest
from editengine.telemetry import MemorySink, Telemetry
from editengine.telemetry._aggregate import Aggregator
from editengine.tools import format_patch_result, format_result

PY = "def f(a):\n    if a:\n        return 1\n    return 2\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "m.py").write_text(PY)
    return tmp_path


def test_an_exact_edit_reports_what_it_broke_and_the_tool_text_shows_it(workspace: Path) -> None:
    with EditEngine(workspace, journal=False) as engine:
        result = engine.edit("m.py", "return 1", "return (1")
    assert (workspace / "m.py").read_text() == PY.replace("return 1", "return (1")
    assert [(d.line, d.severity, d.source) for d in result.diagnostics] == [(3, "error", "syntax")]
    assert isinstance(result.diagnostics[0], Diagnostic)
    text = format_result(result)
    assert "\n\nErrors introduced by this edit:\n" in text
    assert "ERROR [3:16]" in text
    assert result.to_dict()["diagnostics"][0]["line"] == 3


def test_the_errors_block_holds_at_most_twenty_lines(tmp_path: Path) -> None:
    (tmp_path / "m.js").write_text("function f() {\n  return 1;\n}\n")
    body = "".join(f"  let x{i} = ;\n" for i in range(30))
    with EditEngine(tmp_path, journal=False) as engine:
        result = engine.edit("m.js", "  return 1;\n", body)
    assert len(result.diagnostics) == 30
    text = format_result(result)
    block = text[text.index("Errors introduced") :].splitlines()
    assert len(block) == 1 + 20 + 1 and block[-1] == "... and 10 more"
    assert block[1].startswith("ERROR [2:")


def test_the_old_errors_of_a_file_are_not_the_edits(workspace: Path) -> None:
    (workspace / "m.py").write_text("def broken(:\n    pass\n\n\n" + PY)
    with EditEngine(workspace, journal=False) as engine:
        result = engine.edit("m.py", "return 2", "return 3")
    assert result.diagnostics == ()


def test_a_forgiving_edit_that_breaks_python_indentation_is_refused(workspace: Path) -> None:
    # tree-sitter reads an unexpected indent without an error node; Python's parser does not.
    with EditEngine(workspace, journal=False) as engine, pytest.raises(SyntaxBroken) as caught:
        engine.edit("m.py", "if a:\n    return 1", "if a:\n    return 1\n        x = 2")
    assert (workspace / "m.py").read_text() == PY
    assert caught.value.tier == "line_trimmed"
    assert "unexpected indent" in str(caught.value)
    assert caught.value.to_dict()["error_code"] == "syntax_broken"


def test_report_mode_writes_the_forgiving_edit_and_off_checks_nothing(workspace: Path) -> None:
    old, new = "if a:\n    return 1", "if a:\n    return (1"
    with EditEngine(workspace, journal=False, syntax_guard="report") as engine:
        result = engine.edit("m.py", old, new, dry_run=True)
    assert result.strategy == "line_trimmed" and result.diagnostics
    with EditEngine(workspace, journal=False, syntax_guard="off") as engine:
        result = engine.edit("m.py", old, new)
    assert result.diagnostics == () and "(1" in (workspace / "m.py").read_text()


def test_an_unknown_guard_mode_is_a_bad_request(workspace: Path) -> None:
    with pytest.raises(BadRequest, match="syntax_guard"):
        EditEngine(workspace, syntax_guard="strict")


def test_a_file_type_with_no_grammar_says_so(workspace: Path) -> None:
    (workspace / "notes.txt").write_text("one (two\n")
    with EditEngine(workspace, journal=False) as engine:
        result = engine.edit("notes.txt", "one", "three")
    assert result.diagnostics == ()
    assert result.diagnostics_note is not None and "no grammar" in result.diagnostics_note
    assert "Diagnostics:" not in format_result(result)  # nothing about this edit to read


def test_a_multi_edit_is_checked_as_one_change(workspace: Path) -> None:
    edits = [
        {"old_string": "return 1", "new_string": "return (1"},
        {"old_string": "return 2", "new_string": "return 3"},
    ]
    forgiving = [
        {"old_string": "return 2", "new_string": "return 3"},
        {"old_string": "if a:\n    return 1", "new_string": "if a:\n    return (1"},
    ]
    with EditEngine(workspace, journal=False) as engine:
        with pytest.raises(SyntaxBroken) as caught:
            engine.multi_edit("m.py", forgiving)
        assert caught.value.tier == "exact+line_trimmed"
        assert (workspace / "m.py").read_text() == PY
        result = engine.multi_edit("m.py", edits)
        assert [d.line for d in result.diagnostics] == [3]


def test_a_patch_reports_per_file_and_a_loose_hunk_that_breaks_is_refused(
    workspace: Path,
) -> None:
    (workspace / "b.js").write_text("function g() {\n  return 2;\n}\n")
    patch = (
        "m.py\n<<<<<<< SEARCH\n        return 1\n=======\n        return (1\n>>>>>>> REPLACE\n\n"
        "b.js\n<<<<<<< SEARCH\n  return 2;\n=======\n  return 3;\n>>>>>>> REPLACE\n"
    )
    with EditEngine(workspace, journal=False) as engine:
        result = engine.apply_patch(patch)
    by_file = {edited.file_path: edited.diagnostics for edited in result.results}
    assert [d.line for d in by_file["m.py"]] == [3] and by_file["b.js"] == ()
    text = format_patch_result(result)
    assert "Errors in m.py introduced by this edit:" in text and "b.js introduced" not in text
    loose = "b.js\n<<<<<<< SEARCH\nreturn 3;\n}\n=======\nreturn (3;\n}\n>>>>>>> REPLACE\n"
    with EditEngine(workspace, journal=False) as engine, pytest.raises(SyntaxBroken):
        engine.apply_patch(loose)
    assert (workspace / "b.js").read_text() == "function g() {\n  return 3;\n}\n"


def test_a_fixer_correction_that_breaks_the_syntax_is_refused(workspace: Path) -> None:
    answer = {
        "search": "        return 1",
        "replace": "        return (1",
        "noChangesRequired": False,
        "explanation": "the quote had a typo",
    }
    fixer = LLMFixer(ScriptedProvider([answer]))
    with (
        EditEngine(workspace, fixer=fixer, journal=False) as engine,
        pytest.raises(SyntaxBroken) as caught,
    ):
        engine.edit("m.py", "        retrun 1", "        return (1", instruction="wrap it")
    assert caught.value.tier == "fixer"
    assert (workspace / "m.py").read_text() == PY


def test_telemetry_counts_guard_refusals_by_tier(workspace: Path) -> None:
    memory = MemorySink()
    telemetry = Telemetry(sinks=[memory])
    with EditEngine(workspace, telemetry=telemetry, journal=False) as engine:
        for _ in range(2):
            with pytest.raises(SyntaxBroken):
                engine.edit("m.py", "if a:\n    return 1", "if a:\n    return (1")
        engine.edit("m.py", "return 2", "return 3")
    finished = [event.to_dict() for event in memory.named("edit.finished")]
    assert [event["syntax_guard_tier"] for event in finished] == ["line_trimmed"] * 2 + [None]
    aggregator = Aggregator()
    aggregator.consume([event.to_dict() for event in memory.events])
    (row,) = aggregator.result()["errors"]
    assert row["error_code"] == "syntax_broken" and row.get("by_tier") == {"line_trimmed": 2}


def test_the_users_own_content_is_reported_never_refused(workspace: Path) -> None:
    def confirm(request: object) -> str:
        return "def f(a:\n    return 1\n"

    with EditEngine(workspace, journal=False, confirm=confirm) as engine:
        result = engine.edit("m.py", "if a:\n    return 1", "if a:\n    return 10")
    assert result.modified_by_user
    assert [d.line for d in result.diagnostics] == [1]
    assert (workspace / "m.py").read_text() == "def f(a:\n    return 1\n"
