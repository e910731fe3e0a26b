"""Tool details through the SDK's in-process client: formats, refusals, approval, patches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

import mcp_types as types
from mcp import Client

from editengine._errors import NoMatch
from editengine._read_tracker import ReadTracker
from editengine.engine import EditEngine
from editengine.journal import Journal
from editengine.mcp_server import build_server


@pytest.fixture
def engine(tmp_path: Path) -> EditEngine:
    root = tmp_path / "ws"
    root.mkdir()
    return EditEngine(
        root,
        lock_dir=tmp_path / "locks",
        journal=Journal(root, directory=tmp_path / "journal"),
        read_tracker=ReadTracker(),
    )


def _text(result: Any) -> str:
    return "\n".join(block.text for block in result.content)


async def _call(engine: EditEngine, name: str, arguments: dict[str, Any], **options: Any) -> Any:
    server = build_server(engine, confirm=options.pop("confirm", False))
    with anyio.fail_after(30):
        async with Client(server, **options) as client:
            return await client.call_tool(name, arguments)


async def test_read_numbers_lines_and_pages(engine: EditEngine) -> None:
    (engine.root / "big.txt").write_text("".join(f"line {n}\n" for n in range(1, 2501)))
    first = await _call(engine, "read", {"file_path": "big.txt"})
    lines = first.content[0].text.split("\n")
    assert len(lines) == 2000
    assert lines[0] == "     1\tline 1" and lines[-1] == "  2000\tline 2000"
    assert "offset=2001" in first.content[1].text
    assert first.structured_content["truncated"] is True
    rest = await _call(engine, "read", {"file_path": "big.txt", "offset": 2001})
    assert rest.content[0].text.split("\n")[-1] == "  2500\tline 2500"
    assert rest.structured_content == {
        "file_path": "big.txt", "start_line": 2001, "end_line": 2500, "total_lines": 2500,
        "sha256": first.structured_content["sha256"], "truncated": False,
        "text": rest.content[0].text,
    }  # fmt: skip
    # the structured answer (what some clients show the model) carries the lines themselves
    assert first.structured_content["text"] == first.content[0].text


async def test_read_shows_a_bom_free_crlf_file_and_says_when_empty(engine: EditEngine) -> None:
    (engine.root / "w.txt").write_bytes(b"\xef\xbb\xbfa\r\n\tb\r\n")
    (engine.root / "empty.txt").write_bytes(b"")
    shown = await _call(engine, "read", {"file_path": "w.txt"})
    assert shown.content[0].text == "     1\ta\n     2\t\tb"
    empty = await _call(engine, "read", {"file_path": "empty.txt"})
    assert not empty.is_error and "empty" in _text(empty)
    missing = await _call(engine, "read", {"file_path": "nope.txt"})
    assert missing.is_error and _text(missing).startswith("Error [file_not_found]")


async def test_lines_copied_from_read_with_their_numbers_edit_the_file(engine: EditEngine) -> None:
    (engine.root / "a.py").write_text("def f():\n    return 1\n")
    shown = (await _call(engine, "read", {"file_path": "a.py"})).content[0].text
    edited = shown.replace("return 1", "return 2")
    arguments = {"file_path": "a.py", "old_string": shown, "new_string": edited}
    result = await _call(engine, "edit", arguments)
    assert not result.is_error, _text(result)
    assert (engine.root / "a.py").read_text() == "def f():\n    return 2\n"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"file_path": "a.txt", "old_string": 5, "new_string": "x"}, "old_string must be a string"),
        ({"file_path": "a.txt", "new_string": "x"}, "old_string is required"),
        ({"old_string": "a", "new_string": "x"}, "file_path is required"),
        ({"file_path": "a.txt", "old_string": "a", "new_string": "x", "replace_all": "maybe"},
         "replace_all must be true or false"),
    ],
)  # fmt: skip
async def test_malformed_calls_get_the_engines_message(
    engine: EditEngine, arguments: dict[str, Any], expected: str
) -> None:
    (engine.root / "a.txt").write_text("a\n")
    result = await _call(engine, "edit", arguments)
    assert result.is_error
    assert _text(result).startswith("Error [bad_request]")
    assert expected in _text(result)
    assert "Error executing tool" not in _text(result)
    assert (engine.root / "a.txt").read_text() == "a\n"


async def test_json_looking_strings_reach_the_engine_as_text(engine: EditEngine) -> None:
    (engine.root / "c.json").write_text('{"a": [1, 2]}\n')
    result = await _call(
        engine, "edit",
        {"file_path": "c.json", "old_string": '{"a": [1, 2]}', "new_string": '{"a": [1, 3]}'},
    )  # fmt: skip
    assert not result.is_error, _text(result)
    assert (engine.root / "c.json").read_text() == '{"a": [1, 3]}\n'


async def test_no_match_answers_with_the_closest_lines(engine: EditEngine) -> None:
    (engine.root / "m.py").write_text("def f():\n    total = 1\n    return total\n")
    result = await _call(
        engine, "edit",
        {"file_path": "m.py", "old_string": "    totl = 2\n    retrn totl", "new_string": "x"},
    )  # fmt: skip
    assert result.is_error
    assert _text(result).startswith("Error [no_match]")
    assert "     2\t    total = 1" in _text(result)


async def test_multi_edit_failure_names_the_edit(engine: EditEngine) -> None:
    (engine.root / "m.py").write_text("a = 1\nb = 2\n")
    result = await _call(
        engine, "multi_edit",
        {"file_path": "m.py", "edits": [{"old_string": "a = 1", "new_string": "a = 9"},
                                       {"old_string": "zzz", "new_string": "y"}]},
    )  # fmt: skip
    assert result.is_error and _text(result).startswith("Error [multi_edit_failed/no_match]")
    assert (engine.root / "m.py").read_text() == "a = 1\nb = 2\n"


def _elicitation(answer: types.ElicitResult) -> Any:
    asked: list[str] = []

    async def callback(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return answer

    callback.asked = asked  # type: ignore[attr-defined]  # a test double put in place
    return callback


@pytest.mark.parametrize("mode", ["legacy", "auto"])  # a back-channel request / input_required
@pytest.mark.parametrize(
    ("answer", "written"),
    [
        (types.ElicitResult(action="accept", content={"approve": True}), True),
        (types.ElicitResult(action="accept", content={"approve": False}), False),
        (types.ElicitResult(action="decline"), False),
    ],
)
async def test_confirm_asks_the_user_through_elicitation(
    engine: EditEngine, answer: types.ElicitResult, written: bool, mode: str
) -> None:
    (engine.root / "a.txt").write_text("one\n")
    callback = _elicitation(answer)
    result = await _call(
        engine, "edit", {"file_path": "a.txt", "old_string": "one", "new_string": "two"},
        confirm=True, elicitation_callback=callback, mode=mode,
    )  # fmt: skip
    assert len(callback.asked) == 1 and "+two" in callback.asked[0]
    assert result.is_error is not written
    assert (engine.root / "a.txt").read_text() == ("two\n" if written else "one\n")
    if not written:
        assert _text(result).startswith("Error [rejected]")


async def test_confirm_in_rounds_refuses_a_file_changed_while_the_user_decided(
    engine: EditEngine,
) -> None:
    (engine.root / "a.txt").write_text("one\n")

    async def callback(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        (engine.root / "a.txt").write_text("one\nmore\n")  # someone saves meanwhile
        return types.ElicitResult(action="accept", content={"approve": True})

    result = await _call(
        engine, "edit", {"file_path": "a.txt", "old_string": "one", "new_string": "two"},
        confirm=True, elicitation_callback=callback,
    )  # fmt: skip
    assert result.is_error and _text(result).startswith("Error [stale_file]")
    assert (engine.root / "a.txt").read_text() == "one\nmore\n"


async def test_confirm_approves_when_the_client_cannot_be_asked(engine: EditEngine) -> None:
    (engine.root / "a.txt").write_text("one\n")
    result = await _call(
        engine, "edit", {"file_path": "a.txt", "old_string": "one", "new_string": "two"},
        confirm=True,
    )  # fmt: skip
    assert not result.is_error
    assert (engine.root / "a.txt").read_text() == "two\n"


async def test_fixer_corrected_edits_are_journaled_and_undone(engine: EditEngine) -> None:
    from editengine.fixer._protocol import Correction

    class Fixer:
        def correct(self, request: Any) -> Correction:
            return Correction(search="    total = 1", replace="    total = 2",
                              explanation="the variable is named total")  # fmt: skip

        async def acorrect(self, request: Any) -> Correction:
            return self.correct(request)

    engine.fixer = Fixer()  # type: ignore[assignment]  # a test double put in place
    (engine.root / "m.py").write_text("def f():\n    total = 1\n    return total\n")
    original = (engine.root / "m.py").read_bytes()
    result = await _call(
        engine, "edit",
        {"file_path": "m.py", "old_string": "    sum = 1", "new_string": "    sum = 2",
         "instruction": "set the total to 2"},
    )  # fmt: skip
    assert not result.is_error, _text(result)
    assert result.structured_content["corrected_by_fixer"] is True
    undo = await _call(engine, "undo", {})
    assert not undo.is_error
    assert (engine.root / "m.py").read_bytes() == original


async def test_apply_patch_is_listed_only_when_the_engine_has_it(engine: EditEngine) -> None:
    async with Client(build_server(engine)) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
    assert ("apply_patch" in names) == callable(getattr(engine, "apply_patch", None))

    calls: list[tuple[str, str]] = []

    class PatchingEngine(EditEngine):
        def apply_patch(self, patch: str, format: str = "auto", **options: Any) -> Any:
            calls.append((patch, format))
            if "bad" in patch:
                raise NoMatch("hunk 1 of a.txt did not match; nothing was written.")
            return type("R", (), {"summary": "Patched 1 file", "files": {"a.txt": "x"}})()

    patching = PatchingEngine(engine.root, journal=False, lock_dir=engine.root.parent / "locks")
    async with Client(build_server(patching)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert tools["apply_patch"].input_schema["required"] == ["patch"]
        ok = await client.call_tool("apply_patch", {"patch": "good", "format": "udiff"})
        bad = await client.call_tool("apply_patch", {"patch": "bad"})
    assert not ok.is_error and ok.structured_content == {
        "summary": "Patched 1 file",
        "files": ["a.txt"],
        "diagnostics": {},
    }
    assert bad.is_error and _text(bad).startswith("Error [no_match]: hunk 1")
    assert calls == [("good", "udiff"), ("bad", "auto")]


@pytest.mark.skipif(
    not callable(getattr(EditEngine, "apply_patch", None)), reason="engine.apply_patch not built"
)
async def test_real_apply_patch_is_undoable(engine: EditEngine) -> None:
    (engine.root / "a.txt").write_text("one\ntwo\n")
    patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n"
    result = await _call(engine, "apply_patch", {"patch": patch})
    assert not result.is_error, _text(result)
    assert (engine.root / "a.txt").read_text() == "one\nthree\n"
    undo = await _call(engine, "undo", {})
    assert not undo.is_error, _text(undo)
    assert (engine.root / "a.txt").read_text() == "one\ntwo\n"


async def test_read_numbers_lines_as_the_engine_names_them_in_a_lone_cr_file(
    engine: EditEngine,
) -> None:
    # A lone CR ends a line for the cascade: read must count it too, or the line an error
    # names ("line 5") is not the line read showed under that number (and raw CRs reach
    # the client's terminal).
    (engine.root / "mac.txt").write_bytes(b"a\rb\rc\nd = 1\ne = 2\n")
    shown = await _call(engine, "read", {"file_path": "mac.txt"})
    assert shown.content[0].text.split("\n")[4] == "     5\te = 2"
    assert "\r" not in _text(shown)
    assert shown.structured_content["total_lines"] == 5
    refused = await _call(
        engine, "edit", {"file_path": "mac.txt", "old_string": "e = 3000", "new_string": "x"}
    )
    assert refused.is_error and "line 5" in _text(refused) and "     5\te = 2" in _text(refused)
