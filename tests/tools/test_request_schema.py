"""The one request schema: each rule once, and every front end (tool calls, MCP, batch lines,
the text editor) answering a broken field with the same code and the same words."""

from __future__ import annotations

import json
from typing import Any

import anyio
import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editengine._errors import BadRequest
from editengine.cli._batch import handle_line
from editengine.engine import EditEngine
from editengine.tools import _request as rq
from editengine.tools import anthropic_text_editor

BASE = {"old_string": "x = 1", "new_string": "x = 2"}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=5,
)
SURROGATES = st.integers(0xD800, 0xDFFF).map(chr)


def _tool_error(engine: EditEngine, arguments: dict[str, Any]) -> str:
    answer = engine.handle_tool_call("edit", {"file_path": "a.py", **arguments})
    assert answer.is_error and answer.code == "bad_request", answer
    return answer.text.removeprefix("Error [bad_request]: ")


def _batch_error(arguments: dict[str, Any]) -> str:
    line = json.dumps({"id": 1, "content": "x = 1\n", **arguments})
    answer = handle_line(line)
    assert answer["ok"] is False and answer["error_code"] == "bad_request", answer
    return str(answer["error"])


# ---------------------------------------------------------------------- one rule each


@pytest.mark.parametrize("value", [True, False, None])
def test_a_boolean_is_a_json_boolean_or_absent(value: bool | None) -> None:
    parsed = rq.parse(rq.EDIT, {"file_path": "a", **BASE, "replace_all": value})
    assert parsed["replace_all"] is bool(value)


@pytest.mark.parametrize("value", ["false", "true", "True", 0, 1, 0.0, [], {}, "yes"])
def test_anything_else_is_refused_as_a_boolean(value: object) -> None:
    with pytest.raises(BadRequest) as caught:
        rq.parse(rq.EDIT, {"file_path": "a", **BASE, "replace_all": value})
    assert caught.value.message == (
        f"replace_all must be true or false (a JSON boolean), got {value!r}."
    )


@pytest.mark.parametrize(("value", "expected"), [(1, 1), (3, 3), (2.0, 2), (None, None)])
def test_a_count_is_a_positive_whole_number(value: object, expected: int | None) -> None:
    parsed = rq.parse(rq.EDIT, {"file_path": "a", **BASE, "expected_replacements": value})
    assert parsed["expected_replacements"] == expected


@pytest.mark.parametrize("value", [0, -1, 1.5, "2", True, [2]])
def test_anything_else_is_refused_as_a_count(value: object) -> None:
    with pytest.raises(BadRequest, match="expected_replacements must be a positive integer"):
        rq.parse(rq.EDIT, {"file_path": "a", **BASE, "expected_replacements": value})


@given(prefix=st.text(max_size=20), surrogate=SURROGATES, suffix=st.text(max_size=20))
def test_a_lone_surrogate_is_refused_wherever_it_stands(
    prefix: str, surrogate: str, suffix: str
) -> None:
    value = prefix + surrogate + suffix
    with pytest.raises(BadRequest) as caught:
        rq.text(value, "old_string")
    assert caught.value.message.startswith(
        f"old_string holds a lone surrogate ({surrogate!a} at character {len(prefix)})"
    )


@given(st.text())
def test_every_real_text_is_let_through(value: str) -> None:
    assert rq.text(value, "old_string") == value


def test_two_spellings_must_agree() -> None:
    same = rq.parse(rq.EDIT, {"file_path": "a", "path": "a", **BASE})
    assert same["file_path"] == "a"
    with pytest.raises(BadRequest, match="file_path and path are the same argument"):
        rq.parse(rq.EDIT, {"file_path": "a", "path": "b", **BASE})


def test_the_published_schema_and_the_parser_agree_on_every_field() -> None:
    for schema in (rq.READ, rq.EDIT, rq.MULTIEDIT, rq.APPLY_PATCH, rq.UNDO):
        published = schema.json_schema()
        jsonschema.Draft202012Validator.check_schema(published)
        names = {field.name for field in schema.fields if field.published}
        assert set(published["properties"]) == names
        assert set(published.get("required", [])) == {
            field.name for field in schema.fields if field.required and field.published
        }


# ---------------------------------------------------------------------- every front end


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=JSON_VALUES.filter(lambda v: v is not None and not isinstance(v, bool)))
def test_tool_calls_and_batch_lines_refuse_a_non_boolean_alike(
    engine: EditEngine, value: Any
) -> None:
    (engine.root / "a.py").write_text("x = 1\n")
    arguments = {**BASE, "replace_all": value}
    assert _tool_error(engine, arguments) == _batch_error(arguments)
    assert (engine.root / "a.py").read_text() == "x = 1\n"


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    field=st.sampled_from(["old_string", "new_string", "instruction"]),
    at=st.integers(0, 5),
    surrogate=SURROGATES,
)
def test_tool_calls_and_batch_lines_refuse_a_lone_surrogate_alike(
    engine: EditEngine, field: str, at: int, surrogate: str
) -> None:
    (engine.root / "a.py").write_text("x = 1\n")
    text = "x = 1"
    arguments = {**BASE, field: text[:at] + surrogate + text[at:]}
    message = _tool_error(engine, arguments)
    assert message == _batch_error(arguments)
    assert message.startswith(f"{field} holds a lone surrogate")
    assert (engine.root / "a.py").read_text() == "x = 1\n"


def test_a_batch_line_with_a_lone_surrogate_no_longer_answers_ok() -> None:
    line = b'{"id": "s", "content": "a\\n", "old_string": "a", "new_string": "\\udc80"}'
    answer = handle_line(line)
    assert answer["ok"] is False and answer["error_code"] == "bad_request"
    assert answer["new_content"] is None


def test_a_multiedit_item_breaks_the_same_rule_with_its_number(engine: EditEngine) -> None:
    (engine.root / "a.py").write_text("x = 1\n")
    answer = engine.handle_tool_call(
        "multiedit",
        {"file_path": "a.py", "edits": [BASE, {**BASE, "replace_all": "false"}]},
    )
    assert answer.text == (
        "Error [bad_request]: edit 2: replace_all must be true or false (a JSON boolean), "
        "got 'false'."
    )


async def test_mcp_tools_answer_the_same_words(engine: EditEngine) -> None:
    pytest.importorskip("mcp")
    from mcp import Client

    from editengine.mcp_server import build_server

    (engine.root / "a.py").write_text("x = 1\n")
    cases = [
        {**BASE, "replace_all": "false"},
        {**BASE, "new_string": "x = \udc80"},
        {**BASE, "expected_replacements": "2"},
    ]

    async def run() -> list[str]:
        texts = []
        async with Client(build_server(engine)) as client:
            for arguments in cases:
                result = await client.call_tool("edit", {"file_path": "a.py", **arguments})
                assert result.is_error
                texts.append(result.content[0].text)
            undo = await client.call_tool("undo", {"redo": "true"})
            texts.append(undo.content[0].text)
        return texts

    with anyio.fail_after(30):
        texts = await run()
    for arguments, text in zip(cases, texts):
        assert text == "Error [bad_request]: " + _tool_error(engine, arguments)
        assert text == "Error [bad_request]: " + _batch_error(arguments)
    assert texts[-1] == (
        "Error [bad_request]: redo must be true or false (a JSON boolean), got 'true'."
    )
    assert (engine.root / "a.py").read_text() == "x = 1\n"


def test_the_text_editor_holds_its_fields_to_the_same_rules(engine: EditEngine) -> None:
    (engine.root / "a.py").write_text("x = 1\n")
    editor = anthropic_text_editor(engine)
    answer = editor({"command": "str_replace", "path": "a.py", "old_str": "x", "new_str": 2})
    assert answer.text == "Error [bad_request]: new_str must be a string, got int."
    answer = editor({"command": "str_replace", "path": "a.py", "old_str": "x\udfff"})
    assert answer.text.startswith("Error [bad_request]: old_str holds a lone surrogate")


def test_expected_hash_and_overwrite_reach_the_engine(engine: EditEngine) -> None:
    (engine.root / "a.py").write_text("x = 1\n")
    stale = engine.handle_tool_call(
        "edit", {"file_path": "a.py", **BASE, "expected_hash": "0" * 64}
    )
    assert stale.code == "stale_file" and (engine.root / "a.py").read_text() == "x = 1\n"

    whole = {"file_path": "a.py", "old_string": "", "new_string": "y = 2\n"}
    refused = engine.handle_tool_call("edit", whole)  # the quote may have been lost
    assert refused.code == "overwrite_required"
    assert (engine.root / "a.py").read_text() == "x = 1\n"
    wrong = engine.handle_tool_call("edit", {**whole, "overwrite": "yes"})
    assert wrong.text.endswith("overwrite must be true or false (a JSON boolean), got 'yes'.")
    assert not engine.handle_tool_call("edit", {**whole, "overwrite": True}).is_error
    assert (engine.root / "a.py").read_text() == "y = 2\n"


def test_the_cli_request_is_read_by_the_same_schema(tmp_path: Any) -> None:
    import subprocess
    import sys

    (tmp_path / "c.py").write_text("x = 1\n")
    for request, message in [
        ({**BASE, "replace_all": "false"}, _batch_error({**BASE, "replace_all": "false"})),
        ({**BASE, "new_string": "x = \udc80"}, _batch_error({**BASE, "new_string": "x = \udc80"})),
        ({**BASE, "dry_run": 1}, "dry_run must be true or false (a JSON boolean), got 1."),
    ]:
        done = subprocess.run(
            [sys.executable, "-m", "editengine", "apply", "--root", str(tmp_path), "--json", "-"],
            input=json.dumps({"file_path": "c.py", **request}).encode(),
            capture_output=True,
            timeout=60,
        )
        assert done.returncode == 2
        assert done.stderr.decode().strip() == f"error[bad_request]: {message}"
    assert (tmp_path / "c.py").read_text() == "x = 1\n"


@pytest.mark.parametrize(
    "new", ["x = 'é'", "x = '😀'", "x = 'a\u200bb'", "x = '\x00'", "x = '\ufeff'"]
)
def test_every_real_text_goes_through_every_front_end_alike(engine: EditEngine, new: str) -> None:
    (engine.root / "a.py").write_text("x = 1\n")
    answer = handle_line(json.dumps({"id": 1, "content": "x = 1\n", **BASE, "new_string": new}))
    assert answer["ok"] is True, answer
    edited = engine.handle_tool_call("edit", {"file_path": "a.py", **BASE, "new_string": new})
    assert not edited.is_error, edited
    assert (engine.root / "a.py").read_text(encoding="utf-8") == answer["new_content"]
