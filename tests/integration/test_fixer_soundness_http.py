"""The fixer's soundness through EditEngine and the real SDK code paths, HTTP mocked.

Every test runs against both providers (the ``backend`` fixture): cut-off answers, two
event loops, concurrent identical edits, a megabyte file in few lines, what an unusable
answer costs, and the messages the agent reads when the model (not the agent) was wrong.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import random
import threading
import time

import httpx
import pytest

from editengine._errors import FileNotFound, NoMatch
from editengine.providers import AnthropicProvider
from editengine.telemetry import MemorySink, Telemetry

from .conftest import (
    BILLING,
    BILLING_FIXED,
    GOOD_ANSWER,
    GOOD_REPLACE,
    INSTRUCTION,
    WRONG_NEW,
    WRONG_OLD,
)

# Every key present, but replace cut short: written, it would delete the `total +=` line.
TRUNCATED = {
    **GOOD_ANSWER,
    "replace": "    for item in items:\n        if item.quantity == 0:\n            continue\n",
}


def cut_off(backend, data):
    if backend.name == "openai":
        return backend.answer(data, finish_reason="length")
    return backend.answer(data, stop_reason="max_tokens")


def fixer_events(memory: MemorySink) -> list[dict]:
    return [e.to_dict() for e in memory.events if e.to_dict()["event"] == "fixer.called"]


# ---------------------------------------------------------------------- stop reasons


def test_a_cut_off_answer_is_not_written(backend, httpx2_mock, make_engine, write):
    path = write("billing.py", BILLING)
    route = httpx2_mock.post(backend.url).mock(return_value=cut_off(backend, TRUNCATED))
    memory = MemorySink()

    with pytest.raises(NoMatch) as caught:
        make_engine(backend, telemetry=Telemetry(sinks=[memory])).edit(
            "billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION
        )

    assert path.read_bytes() == BILLING.encode()
    assert route.call_count == 1  # a cut-off answer is not retried either
    message = str(caught.value)
    assert "cut off" in message and "it was not used" in message
    assert "The model's answer was at fault, not your edit" in message
    (called,) = fixer_events(memory)
    assert called["outcome"] == "invalid_answer"
    assert (called["input_tokens"], called["output_tokens"]) == (120, 30)


async def test_a_cut_off_answer_is_not_written_async(backend, httpx2_mock, make_engine, write):
    path = write("billing.py", BILLING)
    httpx2_mock.post(backend.url).mock(return_value=cut_off(backend, TRUNCATED))

    with pytest.raises(NoMatch, match="cut off"):
        await make_engine(backend).aedit(
            "billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION
        )

    assert path.read_bytes() == BILLING.encode()


def test_the_same_answer_finished_is_written(backend, httpx2_mock, make_engine, write):
    # The control: only the stop reason differs from the test above.
    path = write("billing.py", BILLING)
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))

    make_engine(backend).edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    assert path.read_bytes() == BILLING_FIXED.encode()


def test_anthropic_tools_are_sent_strict_where_the_model_supports_it(httpx2_mock):
    from ..conftest import BACKENDS

    backend = BACKENDS["anthropic"]
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))
    schema = {"type": "object", "properties": {}, "additionalProperties": False}

    backend.provider().complete_json("s", "u", schema, timeout=5)
    AnthropicProvider("claude-3-custom", api_key="k").complete_json("s", "u", schema, timeout=5)
    AnthropicProvider(api_key="k", strict_tools=False).complete_json("s", "u", schema, timeout=5)

    tools = [json.loads(call.request.content)["tools"][0] for call in route.calls]
    assert tools[0]["strict"] is True
    assert "strict" not in tools[1]  # older models refuse the field
    assert "strict" not in tools[2]


# ---------------------------------------------------------------------- event loops


def test_one_engine_under_two_event_loops(backend, httpx2_mock, make_engine, write, caplog):
    path = write("billing.py", BILLING)
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))
    engine = make_engine(backend, cache_size=0)  # no cache: each loop pays for its own call
    caplog.set_level(logging.ERROR)

    results = []
    for _ in range(2):
        path.write_bytes(BILLING.encode())
        results.append(
            asyncio.run(engine.aedit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION))
        )
        assert path.read_bytes() == BILLING_FIXED.encode()
    del engine
    gc.collect()

    assert route.call_count == 2  # one call each, none repeated
    assert all(result.corrected_by_fixer for result in results)
    logged = caplog.text
    assert "Event loop is closed" not in logged
    assert "Task exception was never retrieved" not in logged


def test_sync_and_async_calls_share_one_provider_across_threads(
    backend, httpx2_mock, make_engine, write
):
    path = write("billing.py", BILLING)
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))
    engine = make_engine(backend, cache_size=0)
    outcomes: list[bool] = []

    def in_a_thread() -> None:
        result = asyncio.run(
            engine.aedit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)
        )
        outcomes.append(result.corrected_by_fixer)

    worker = threading.Thread(target=in_a_thread)
    worker.start()
    worker.join(10)
    path.write_bytes(BILLING.encode())
    outcomes.append(
        engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION).corrected_by_fixer
    )

    assert outcomes == [True, True] and route.call_count == 2
    assert path.read_bytes() == BILLING_FIXED.encode()


def test_the_engine_and_fixer_close_as_context_managers(backend, httpx2_mock, make_engine, write):
    path = write("billing.py", BILLING)
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))

    with make_engine(backend) as engine:
        engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)
        fixer = engine.fixer

    assert path.read_bytes() == BILLING_FIXED.encode()
    assert fixer.provider._clients.in_flight == 0
    with fixer:  # usable again after close: a new call builds a new client
        pass


async def test_the_engine_closes_as_an_async_context_manager(
    backend, httpx2_mock, make_engine, write
):
    path = write("billing.py", BILLING)
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))

    async with make_engine(backend) as engine:
        await engine.aedit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    assert path.read_bytes() == BILLING_FIXED.encode()
    assert engine.fixer.provider._clients.in_flight == 0


# ---------------------------------------------------------------------- 20 concurrent callers

CALLERS = 20


def slow_answer(backend, seconds: float = 0.3):
    def answer(request: httpx.Request) -> httpx.Response:
        time.sleep(seconds)  # long enough for every caller to join the call under way
        return backend.answer(GOOD_ANSWER)

    return answer


def test_twenty_threads_share_one_call_and_all_succeed(backend, httpx2_mock, make_engine, write):
    path = write("billing.py", BILLING)
    route = httpx2_mock.post(backend.url).mock(side_effect=slow_answer(backend))
    memory = MemorySink()
    engine = make_engine(backend, telemetry=Telemetry(sinks=[memory]))
    results: list[object] = []
    failures: list[BaseException] = []
    start = threading.Barrier(CALLERS)

    def caller() -> None:
        start.wait()
        try:
            results.append(engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION))
        except BaseException as error:  # collected, asserted below
            failures.append(error)

    threads = [threading.Thread(target=caller) for _ in range(CALLERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert failures == []  # no false NoMatch
    assert len(results) == CALLERS
    assert route.call_count == 1
    assert path.read_bytes() == BILLING_FIXED.encode()
    written = [r for r in results if not r.no_change]
    assert len(written) == 1 and written[0].replacements == 1
    for result in results:
        assert result.corrected_by_fixer
        if result.no_change:
            assert any("An identical edit" in n and "already applied" in n for n in result.notes)
    called = fixer_events(memory)
    assert len(called) == CALLERS
    assert sum(event["input_tokens"] for event in called) == 120  # the one call, counted once
    assert sum(not event["cache_hit"] for event in called) == 1


def test_callers_arriving_after_the_write_are_told_it_landed(
    backend, httpx2_mock, make_engine, write
):
    # An instant answer: some callers read the file only after the first write. Their
    # old_string fails on the new content too; the engine knows which edit made it.
    path = write("billing.py", BILLING)
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))
    engine = make_engine(backend)
    results: list[object] = []
    failures: list[BaseException] = []
    start = threading.Barrier(CALLERS)

    def caller() -> None:
        start.wait()
        try:
            results.append(engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION))
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=caller) for _ in range(CALLERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert failures == [] and len(results) == CALLERS
    assert route.call_count == 1  # early callers share the call, late ones need none
    assert path.read_bytes() == BILLING_FIXED.encode()
    assert sum(not r.no_change for r in results) == 1


def test_engines_sharing_one_fixer_learn_from_each_others_writes(
    backend, httpx2_mock, make_engine, write, workspace, tmp_path
):
    from editengine.engine import EditEngine

    path = write("billing.py", BILLING)
    route = httpx2_mock.post(backend.url).mock(side_effect=slow_answer(backend, 0.2))
    fixer = make_engine(backend).fixer
    engines = [
        EditEngine(workspace, fixer=fixer, lock_dir=tmp_path / "locks") for _ in range(CALLERS)
    ]
    results: list[object] = []
    failures: list[BaseException] = []
    start = threading.Barrier(CALLERS)

    def caller(engine) -> None:
        start.wait()
        try:
            results.append(engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION))
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=caller, args=(engine,)) for engine in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert failures == [] and len(results) == CALLERS
    assert route.call_count == 1
    assert path.read_bytes() == BILLING_FIXED.encode()
    assert sum(not r.no_change for r in results) == 1


def test_the_same_edit_sent_again_is_already_applied(backend, httpx2_mock, make_engine, write):
    path = write("billing.py", BILLING)
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))
    engine = make_engine(backend)

    first = engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)
    again = engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    assert first.replacements == 1 and not first.no_change
    assert again.no_change and again.corrected_by_fixer and again.replacements == 0
    assert any("already applied" in note for note in again.notes)
    assert route.call_count == 1  # no model asked the second time
    assert path.read_bytes() == BILLING_FIXED.encode()
    # any other content takes the usual path: the fixer is asked again
    path.write_bytes(("# edited by hand\n" + BILLING_FIXED).encode())
    with pytest.raises(NoMatch):
        engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)
    assert route.call_count == 2


async def test_twenty_tasks_share_one_call_and_all_succeed(
    backend, httpx2_mock, make_engine, write
):
    path = write("billing.py", BILLING)

    async def answer(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.3)
        return backend.answer(GOOD_ANSWER)

    route = httpx2_mock.post(backend.url).mock(side_effect=answer)
    engine = make_engine(backend)

    results = await asyncio.gather(
        *(
            engine.aedit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)
            for _ in range(CALLERS)
        ),
        return_exceptions=True,
    )

    assert [r for r in results if isinstance(r, BaseException)] == []
    assert route.call_count == 1
    assert path.read_bytes() == BILLING_FIXED.encode()
    assert sum(not r.no_change for r in results) == 1


def test_concurrent_callers_share_a_failure_too(backend, httpx2_mock, make_engine, write):
    # The shared outcome is the true one: a refused request is refused for every caller,
    # once, and nobody is told it worked.
    path = write("billing.py", BILLING)

    def refused(request: httpx.Request) -> httpx.Response:
        time.sleep(0.3)
        return backend.error(400)

    route = httpx2_mock.post(backend.url).mock(side_effect=refused)
    memory = MemorySink()
    engine = make_engine(backend, telemetry=Telemetry(sinks=[memory]))
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def caller() -> None:
        start.wait()
        try:
            engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=caller) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert route.call_count == 1
    assert len(errors) == 8 and all(isinstance(error, NoMatch) for error in errors)
    assert all("HTTP 400" in str(error) for error in errors)
    assert path.read_bytes() == BILLING.encode()
    called = fixer_events(memory)
    assert len(called) == 8 and sum(not event["cache_hit"] for event in called) == 1


# ---------------------------------------------------------------------- prompt budget


def minified_file() -> tuple[str, str]:
    """310 lines of about 3,900 characters (1.2 MB) and the one statement to edit."""
    rng = random.Random(7)
    lines = []
    for _ in range(310):
        parts: list[str] = []
        while sum(map(len, parts)) < 3_900:
            k = rng.randint(0, 10**6)
            parts.append(f"var a{k}=f{k % 97}(b{k % 13},{k % 1000});")
        lines.append("".join(parts))
    target = "var total=applyDiscount(basket,{rate:0.15,cap:40});"
    cut = lines[199].index(";", 2_000) + 1  # between two statements, not inside a name
    lines[199] = lines[199][:cut] + target + lines[199][cut:]
    return "\n".join(lines) + "\n", target


def test_a_megabyte_file_of_310_lines_goes_out_under_200_kb(
    backend, httpx2_mock, make_engine, write, capsys
):
    content, target = minified_file()
    assert len(content.encode()) > 1_200_000 and content.count("\n") == 310
    path = write("bundle.js", content)
    fixed = target.replace("0.15", "0.20")
    proposed = {
        "search": target,
        "replace": fixed,
        "noChangesRequired": False,
        "explanation": "The call is applyDiscount(basket, {rate: ...}).",
    }
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(proposed))
    memory = MemorySink()

    result = make_engine(backend, telemetry=Telemetry(sinks=[memory])).edit(
        "bundle.js",
        "var total = apply_discount(basket, rate=0.15)",
        "var total = apply_discount(basket, rate=0.20)",
        instruction="Raise the discount rate to 20%.",
    )

    body = route.calls[0].request.content
    _, user = backend.prompt_sent(route.calls[0].request)
    assert len(body) < 200_000
    assert target in user  # the line to edit is shown, whatever else is not
    assert "excerpt" in user
    assert result.corrected_by_fixer
    assert path.read_text() == content.replace(target, fixed)
    (called,) = fixer_events(memory)
    assert called["windowed"] is True
    assert 0 < called["prompt_bytes"] <= called["prompt_budget_bytes"]
    assert called["prompt_tokens"] >= called["prompt_bytes"] // 4
    with capsys.disabled():
        print(
            f"\n[{backend.name}] 310-line file of {len(content.encode()):,} bytes: request body "
            f"{len(body):,} bytes; prompt {called['prompt_bytes']:,} bytes "
            f"(~{called['prompt_tokens']:,} tokens) within {called['prompt_budget_bytes']:,}"
        )


def test_one_huge_line_is_shortened_around_the_edit(
    backend, httpx2_mock, make_engine, write, capsys
):
    rng = random.Random(3)
    filler = "".join(f"x{rng.randint(0, 9999)}=1;" for _ in range(60_000))  # ~400 KB
    target = "var limit=computeLimit(user,{tier:'gold'});"
    cut = filler.index(";", 200_000) + 1  # between two statements, not inside a name
    content = filler[:cut] + target + filler[cut:] + "\n"
    path = write("one_line.js", content)
    fixed = target.replace("gold", "platinum")
    proposed = {**GOOD_ANSWER, "search": target, "replace": fixed}
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(proposed))

    result = make_engine(backend).edit(
        "one_line.js",
        "var limit = compute_limit(user, tier='gold')",
        "var limit = compute_limit(user, tier='platinum')",
    )

    _, user = backend.prompt_sent(route.calls[0].request)
    assert len(route.calls[0].request.content) < 200_000
    assert target in user and "characters not shown" in user
    assert result.corrected_by_fixer and path.read_text() == content.replace(target, fixed)
    with capsys.disabled():
        print(
            f"\n[{backend.name}] one line of {len(content.encode()):,} bytes: request body "
            f"{len(route.calls[0].request.content):,} bytes"
        )


# ---------------------------------------------------------------------- invalid answers


@pytest.mark.parametrize(
    "answer",
    [
        {"search": "x"},  # keys missing
        {**GOOD_ANSWER, "path": "settings.py"},  # a key the schema does not have
        {**GOOD_ANSWER, "noChangesRequired": "no"},  # a wrong type
    ],
    ids=["missing", "extra", "wrong_type"],
)
def test_an_invalid_answer_records_its_cost(backend, httpx2_mock, make_engine, write, answer):
    path = write("billing.py", BILLING)
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(answer))
    memory = MemorySink()

    with pytest.raises(NoMatch) as caught:
        make_engine(backend, telemetry=Telemetry(sinks=[memory])).edit(
            "billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION
        )

    assert path.read_bytes() == BILLING.encode()
    (called,) = fixer_events(memory)
    assert called["outcome"] == "invalid_answer"  # not "error", as an outage is
    assert (called["input_tokens"], called["output_tokens"]) == (120, 30)
    assert called["provider"] == backend.name and called["model"] == backend.default_model
    assert called["prompt_chars"] > len(BILLING) and called["prompt_bytes"] > len(BILLING)
    assert "The model's answer was at fault, not your edit" in str(caught.value)


def test_an_outage_is_still_an_error_with_no_tokens(backend, httpx2_mock, make_engine, write):
    write("billing.py", BILLING)
    httpx2_mock.post(backend.url).mock(return_value=backend.error(400))
    memory = MemorySink()

    with pytest.raises(NoMatch):
        make_engine(backend, telemetry=Telemetry(sinks=[memory])).edit(
            "billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION
        )

    (called,) = fixer_events(memory)
    assert called["outcome"] == "error" and called["input_tokens"] == 0


def test_a_lone_surrogate_in_the_models_replace_is_the_models_fault(
    backend, httpx2_mock, make_engine, write
):
    path = write("billing.py", BILLING)
    # A JSON escape the model may emit: "\ud800" alone decodes to a lone surrogate.
    bad = backend.answer({**GOOD_ANSWER, "replace": GOOD_REPLACE + "        # SURROGATE\n"})
    body = bad.content.replace(b"SURROGATE", b"\\ud800")
    response = httpx.Response(200, content=body, headers={"content-type": "application/json"})
    httpx2_mock.post(backend.url).mock(return_value=response)

    with pytest.raises(NoMatch) as caught:  # not BadRequest, which would blame new_string
        make_engine(backend).edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    message = str(caught.value)
    assert "lone surrogate" in message and "The edit you sent is not at fault" in message
    assert "Remove lone surrogate escapes" not in message
    assert path.read_bytes() == BILLING.encode()


def test_a_surrogate_in_the_agents_edit_does_not_crash_the_fixer(
    backend, httpx2_mock, make_engine, write
):
    path = write("billing.py", BILLING)
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))

    result = make_engine(backend).edit(
        "billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION + " # \udc80"
    )

    assert route.call_count == 1  # the request went out, the lone surrogate escaped
    _, user = backend.prompt_sent(route.calls[0].request)
    assert "# \\udc80" in user
    assert result.corrected_by_fixer and path.read_bytes() == BILLING_FIXED.encode()


# ---------------------------------------------------------------------- messages


def test_a_refusal_after_the_file_changed_shows_the_current_file(
    backend, httpx2_mock, make_engine, write
):
    path = write("billing.py", BILLING)
    header = "# Reviewed by the billing team.\n# Owner: payments.\n"

    def answer_while_someone_saves(request: httpx.Request) -> httpx.Response:
        path.write_bytes((header + BILLING).encode())
        return backend.answer({**GOOD_ANSWER, "search": "    for row in rows:\n"})

    httpx2_mock.post(backend.url).mock(side_effect=answer_while_someone_saves)

    with pytest.raises(NoMatch) as caught:
        make_engine(backend).edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    message = str(caught.value)
    assert "The file changed on disk while the LLM fixer ran" in message
    assert "this error describes its current content" in message
    # the closest region is where it is now, two lines further down than at the first read
    assert caught.value.closest and caught.value.closest[0].start_line == 8
    assert path.read_bytes() == (header + BILLING).encode()


def test_a_file_deleted_during_the_call_is_named(backend, httpx2_mock, make_engine, write):
    path = write("billing.py", BILLING)

    def answer_while_someone_deletes(request: httpx.Request) -> httpx.Response:
        path.unlink()
        return backend.answer(GOOD_ANSWER)

    httpx2_mock.post(backend.url).mock(side_effect=answer_while_someone_deletes)

    with pytest.raises(FileNotFound) as caught:
        make_engine(backend).edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    assert "deleted while the LLM fixer ran" in str(caught.value)
    assert not path.exists()


def test_api_errors_read_as_words_not_a_dict_repr(backend, httpx2_mock, make_engine, write):
    write("billing.py", BILLING)
    httpx2_mock.post(backend.url).mock(return_value=backend.error(400))

    with pytest.raises(NoMatch) as caught:
        make_engine(backend).edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    message = str(caught.value)
    assert "HTTP 400: status 400 (" in message
    assert "{'" not in message and '{"' not in message
