"""The drop-in handlers in a real tool loop: the official SDK sends the request, a local fake
server (``httpx2_mock``) replays a recorded model turn, the SDK parses it into its own types,
the handler answers, and the answer goes back in the next request, where it must validate
against the SDK's input types. The turns are in ``turns/`` in the providers' wire format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import TypeAdapter

from editengine.engine import EditEngine
from editengine.tools import anthropic_text_editor, openai_apply_patch

openai = pytest.importorskip("openai")
anthropic = pytest.importorskip("anthropic")

TURNS = Path(__file__).parent / "turns"
BILLING = (
    "def total(items):\n"
    "    return sum(item.price for item in items)\n"
    "\n\n"
    "def count(items):\n"
    "    return len(items)\n"
)
FIXED = BILLING.replace("item.price for", "item.price * item.quantity for")


def _turns(name: str) -> list[httpx.Response]:
    bodies = json.loads((TURNS / name).read_text(encoding="utf-8"))
    return [httpx.Response(200, json=body) for body in bodies]


def _body(route: Any, index: int) -> dict[str, Any]:
    return json.loads(route.calls[index].request.content)


def test_openai_apply_patch_calls_answered_and_sent_back(
    engine: EditEngine, httpx2_mock: Any
) -> None:
    from openai.types.responses import ResponseApplyPatchToolCall, ToolParam
    from openai.types.responses.response_input_item_param import ApplyPatchCallOutput

    (engine.root / "app").mkdir()
    (engine.root / "app/billing.py").write_text(BILLING)
    route = httpx2_mock.post("https://api.openai.com/v1/responses").mock(
        side_effect=_turns("openai_apply_patch.json")
    )
    client = openai.OpenAI(api_key="test-key", max_retries=0)
    patcher = openai_apply_patch(engine)
    TypeAdapter(ToolParam).validate_python(patcher.tool_param())

    first = client.responses.create(
        model="gpt-5.1",
        tools=[patcher.tool_param()],  # type: ignore[list-item]  # plain dicts where the SDK types TypedDicts
        input="total() ignores quantities; fix it and add a test.",
    )
    calls = [item for item in first.output if item.type == "apply_patch_call"]
    assert [type(call) for call in calls] == [ResponseApplyPatchToolCall] * 3
    outputs = [patcher(call) for call in calls]

    # the update landed through the cascade (the diff's indentation was wrong), the new file
    # exists, and the refused one changed nothing
    assert (engine.root / "app/billing.py").read_text() == FIXED
    assert (
        (engine.root / "app/test_billing.py")
        .read_text()
        .startswith("from app.billing import total\n")
    )
    assert [o["status"] for o in outputs] == ["completed", "completed", "failed"]
    assert [o["call_id"] for o in outputs] == ["call_update", "call_create", "call_stale"]
    assert "patch_failed" in outputs[2]["output"]
    assert "def discount(amount):" in outputs[2]["output"]

    second = client.responses.create(
        model="gpt-5.1",
        tools=[patcher.tool_param()],  # type: ignore[list-item]  # plain dicts where the SDK types TypedDicts
        previous_response_id=first.id,
        input=outputs,  # type: ignore[arg-type]  # plain dicts where the SDK types TypedDicts
    )
    assert second.output_text.startswith("total() now counts quantities")
    sent = _body(route, 1)["input"]
    assert sent == outputs
    allowed = set(ApplyPatchCallOutput.__annotations__)
    for item in sent:
        TypeAdapter(ApplyPatchCallOutput).validate_python(item)
        assert set(item) <= allowed
    # and the journal holds the patch: one undo reverses it
    engine.undo("app/billing.py")
    assert (engine.root / "app/billing.py").read_text() == BILLING


def test_openai_apply_patch_takes_the_item_as_a_dict_and_echoes_the_caller(
    engine: EditEngine,
) -> None:
    (engine.root / "a.txt").write_text("one\n")
    patcher = openai_apply_patch(engine)
    call = {
        "type": "apply_patch_call",
        "id": "apc_1",
        "call_id": "call_1",
        "status": "completed",
        "caller": {"type": "direct"},
        "operation": {"type": "delete_file", "path": "a.txt"},
    }
    answer = patcher(call)
    assert answer == {
        "type": "apply_patch_call_output",
        "call_id": "call_1",
        "status": "completed",
        "output": answer["output"],
        "caller": {"type": "direct"},
    }
    assert answer["output"].startswith("Applied the patch: 1 file deleted")
    assert not (engine.root / "a.txt").exists()


@pytest.mark.parametrize(
    ("item", "fragment"),
    [
        ({"type": "apply_patch_call", "operation": {"type": "delete_file", "path": "a"}},
         "no call_id"),
        ({"type": "function_call", "call_id": "c"}, "Expected an apply_patch_call item"),
        ({"type": "apply_patch_call", "call_id": "c", "operation": {"type": "rename_file",
          "path": "a.txt"}}, "unknown operation type"),
        ({"type": "apply_patch_call", "call_id": "c", "operation": {"type": "update_file"}},
         "operation.path is required"),
        ({"type": "apply_patch_call", "call_id": "c", "operation": {"type": "create_file",
          "path": "n.txt", "diff": "+\ud800\n"}}, "lone surrogate"),
        ("not an item", "Expected an apply_patch_call item"),
    ],
)  # fmt: skip
def test_a_malformed_call_fails_with_a_reason(
    engine: EditEngine, item: object, fragment: str
) -> None:
    (engine.root / "a.txt").write_text("one\n")
    answer = openai_apply_patch(engine)(item)
    assert answer["type"] == "apply_patch_call_output" and answer["status"] == "failed"
    assert fragment in answer["output"], answer["output"]
    assert (engine.root / "a.txt").read_text() == "one\n"
    assert not (engine.root / "n.txt").exists()


def test_anthropic_text_editor_loop_answers_and_sends_tool_results_back(
    engine: EditEngine, httpx2_mock: Any
) -> None:
    from anthropic.types import (
        MessageParam,
        ToolResultBlockParam,
        ToolTextEditor20250728Param,
        ToolUseBlock,
    )

    (engine.root / "app").mkdir()
    (engine.root / "app/billing.py").write_text(BILLING)
    route = httpx2_mock.post("https://api.anthropic.com/v1/messages").mock(
        side_effect=_turns("anthropic_text_editor.json")
    )
    client = anthropic.Anthropic(api_key="test-key", max_retries=0)
    editor = anthropic_text_editor(engine)
    TypeAdapter(ToolTextEditor20250728Param).validate_python(editor.tool_param())

    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "total() ignores quantities; fix it."}
    ]
    answers: list[dict[str, Any]] = []
    for _ in range(5):
        reply = client.messages.create(
            model="claude-haiku-4-5",
            max_tokens=2048,
            tools=[editor.tool_param()],  # type: ignore[list-item]  # plain dicts where the SDK types TypedDicts
            messages=messages,  # type: ignore[arg-type]  # plain dicts where the SDK types TypedDicts
        )
        if reply.stop_reason != "tool_use":
            break
        uses = [block for block in reply.content if block.type == "tool_use"]
        assert all(isinstance(block, ToolUseBlock) for block in uses)
        results = [editor(block.input).to_anthropic(block.id) for block in uses]  # type: ignore[arg-type]  # plain dicts where the SDK types TypedDicts
        answers.extend(results)
        messages += [
            {"role": "assistant", "content": [b.model_dump() for b in reply.content]},
            {"role": "user", "content": results},
        ]
    assert reply.content[0].text.startswith("Done")  # type: ignore[union-attr]  # the reply's first block is text
    assert len(route.calls) == 3

    view, fixed, missing = answers
    assert view["is_error"] is False and "     2\t    return sum(item.price for" in view["content"]
    assert fixed["is_error"] is False and "line_trimmed" in fixed["content"]
    assert missing["is_error"] is True and missing["content"].startswith("Error [no_match]")
    assert (engine.root / "app/billing.py").read_text() == FIXED

    # what went back validates against the SDK's input types
    sent = _body(route, 2)["messages"]
    for message in sent:
        TypeAdapter(MessageParam).validate_python(message)
    results_sent = [block for block in sent[-1]["content"]]
    assert [r["tool_use_id"] for r in results_sent] == ["toolu_fix", "toolu_missing"]
    for block in results_sent:
        TypeAdapter(ToolResultBlockParam).validate_python(block)
        assert set(block) <= set(ToolResultBlockParam.__annotations__)


def test_responses_function_tools_strict_loop(engine: EditEngine, httpx2_mock: Any) -> None:
    from openai.types.responses import ResponseFunctionToolCall
    from openai.types.responses.response_input_item_param import FunctionCallOutput

    from editengine import tools

    (engine.root / "app").mkdir()
    (engine.root / "app/billing.py").write_text(BILLING)
    route = httpx2_mock.post("https://api.openai.com/v1/responses").mock(
        side_effect=_turns("openai_function_calls.json")
    )
    client = openai.OpenAI(api_key="test-key", max_retries=0)
    definitions = tools.openai_responses_tools(tools.ALL_TOOLS, strict=True)
    first = client.responses.create(
        model="gpt-5.1",
        tools=definitions,
        input="total() ignores quantities.",  # type: ignore[arg-type]  # plain dicts where the SDK types TypedDicts
    )
    calls = [item for item in first.output if isinstance(item, ResponseFunctionToolCall)]
    answers = [engine.handle_tool_call(call.name, call.arguments) for call in calls]
    assert [a.is_error for a in answers] == [False, False, True]
    assert answers[0].startswith("     1\tdef total(items):")
    assert answers[2].text == (
        "Error [bad_request]: replace_all must be true or false (a JSON boolean), got 'false'."
    )
    assert (engine.root / "app/billing.py").read_text() == FIXED
    outputs = [a.to_openai(call.call_id) for a, call in zip(answers, calls)]
    client.responses.create(
        model="gpt-5.1",
        tools=definitions,  # type: ignore[arg-type]  # plain dicts where the SDK types TypedDicts
        previous_response_id=first.id,
        input=outputs,  # type: ignore[arg-type]  # plain dicts where the SDK types TypedDicts
    )
    sent = _body(route, 1)
    assert sent["tools"] == definitions
    for item in sent["input"]:
        TypeAdapter(FunctionCallOutput).validate_python(item)
        assert set(item) <= set(FunctionCallOutput.__annotations__)


def test_an_apply_patch_call_reaches_the_fixer(engine: EditEngine) -> None:
    from editengine.fixer import LLMFixer
    from editengine.providers import ScriptedProvider

    (engine.root / "b.py").write_text("def b():\n    return 2\n")
    provider = ScriptedProvider(
        [{"search": "    return 2", "replace": "    return 20", "noChangesRequired": False,
          "explanation": "a typo in the quoted line"}]
    )  # fmt: skip
    engine.fixer = LLMFixer(provider, cache_size=0)
    answer = openai_apply_patch(engine)(
        {"type": "apply_patch_call", "call_id": "call_fix",
         "operation": {"type": "update_file", "path": "b.py",
                       "diff": "@@\n-    retrun 2\n+    return 20\n"}}
    )  # fmt: skip
    assert len(provider.requests) == 1
    assert answer["status"] == "completed", answer["output"]
    assert (engine.root / "b.py").read_text() == "def b():\n    return 20\n"
