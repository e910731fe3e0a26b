"""The offline providers: scripted, replay (record, then replay offline) and callback."""

from __future__ import annotations

import json

import pytest

from editengine._errors import BadRequest, ProviderError
from editengine.fixer import CORRECTION_SCHEMA, LLMFixer
from editengine.providers import (
    CallbackProvider,
    Provider,
    ProviderReply,
    ReplayProvider,
    ScriptedProvider,
    request_key,
)

from .conftest import GOOD_ANSWER, make_request


def test_offline_providers_satisfy_the_protocol(tmp_path):
    cassette = tmp_path / "c.jsonl"
    cassette.write_text("")
    for provider in (
        ScriptedProvider(),
        CallbackProvider(lambda request: GOOD_ANSWER),
        ReplayProvider(cassette),
    ):
        assert isinstance(provider, Provider)


# ---------------------------------------------------------------------- scripted


def test_scripted_answers_in_order_and_records_requests():
    provider = ScriptedProvider([{"n": 1}])
    provider.enqueue({"n": 2}, ProviderReply(data={"n": 3}, model="x", provider="y"))

    answers = [
        provider.complete_json(f"sys {n}", f"user {n}", {"type": "object"}, timeout=n).data["n"]
        for n in (1, 2, 3)
    ]

    assert answers == [1, 2, 3]
    assert [request.user for request in provider.requests] == ["user 1", "user 2", "user 3"]
    assert [request.timeout for request in provider.requests] == [1, 2, 3]
    assert provider.remaining == 0


def test_scripted_raises_queued_exceptions():
    provider = ScriptedProvider([ProviderError("boom", transient=True)])

    with pytest.raises(ProviderError, match="boom"):
        provider.complete_json("s", "u", {}, timeout=1)
    assert len(provider.requests) == 1


def test_scripted_says_when_it_runs_dry():
    with pytest.raises(ProviderError, match="enqueue"):
        ScriptedProvider().complete_json("s", "u", {}, timeout=1)


async def test_scripted_async():
    provider = ScriptedProvider([{"ok": True}])

    reply = await provider.acomplete_json("s", "u", {}, timeout=1)

    assert reply.data == {"ok": True} and reply.provider == "scripted"


# ---------------------------------------------------------------------- callback


def test_callback_sees_the_request():
    seen = []

    def answer(request):
        seen.append(request)
        return {"echo": request.user}

    reply = CallbackProvider(answer, model="rules-v1").complete_json(
        "sys", "hello", {"type": "object"}, timeout=3
    )

    assert reply.data == {"echo": "hello"} and reply.model == "rules-v1"
    assert seen[0].system == "sys" and seen[0].timeout == 3


async def test_callback_async_accepts_sync_and_async_functions():
    async def async_answer(request):
        return {"kind": "async"}

    sync_reply = await CallbackProvider(lambda r: {"kind": "sync"}).acomplete_json(
        "s", "u", {}, timeout=1
    )
    async_reply = await CallbackProvider(async_answer).acomplete_json("s", "u", {}, timeout=1)

    assert (sync_reply.data["kind"], async_reply.data["kind"]) == ("sync", "async")


def test_callback_sync_accepts_an_async_function():
    async def async_answer(request):
        return {"kind": "async"}

    assert CallbackProvider(async_answer).complete_json("s", "u", {}, timeout=1).data == {
        "kind": "async"
    }


# ---------------------------------------------------------------------- replay


def test_record_then_replay_offline(tmp_path, backend, httpx2_mock):
    cassette = tmp_path / "cassettes" / "fixer.jsonl"
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))

    recorder = ReplayProvider(cassette, record_with=backend.provider())
    recorded = LLMFixer(recorder).correct(make_request())

    assert route.call_count == 1 and recorder.recorded == 1
    lines = cassette.read_text().splitlines()
    assert len(lines) == 1
    entry = json.loads(lines[0])
    assert entry["data"] == GOOD_ANSWER and entry["provider"] == backend.name

    route.mock(return_value=backend.error(500))  # the network would fail now
    replayer = ReplayProvider(cassette)  # no recorder: offline only
    replayed = LLMFixer(replayer).correct(make_request())

    assert route.call_count == 1  # replaying made no HTTP call
    assert (replayed.search, replayed.replace) == (recorded.search, recorded.replace)
    assert (replayed.provider, replayed.model) == (backend.name, backend.default_model)
    assert (replayed.input_tokens, replayed.output_tokens) == (120, 30)
    assert replayer.hits == 1


async def test_record_mode_async_appends_only_new_requests(tmp_path):
    cassette = tmp_path / "c.jsonl"
    real = ScriptedProvider([{"n": 1}, {"n": 2}])
    provider = ReplayProvider(cassette, record_with=real)

    await provider.acomplete_json("s", "a", {}, timeout=1)
    await provider.acomplete_json("s", "a", {}, timeout=1)  # replayed, not asked again
    await provider.acomplete_json("s", "b", {}, timeout=1)

    assert len(real.requests) == 2
    assert len(cassette.read_text().splitlines()) == 2
    assert len(ReplayProvider(cassette)) == 2


def test_replay_keys_on_system_user_and_schema(tmp_path):
    cassette = tmp_path / "c.jsonl"
    key = request_key("s", "u", CORRECTION_SCHEMA)
    cassette.write_text(json.dumps({"key": key, "data": {"x": 1}}) + "\n\n")
    provider = ReplayProvider(cassette)

    assert provider.complete_json("s", "u", CORRECTION_SCHEMA, timeout=1).data == {"x": 1}
    for system, user, schema in [("s2", "u", CORRECTION_SCHEMA), ("s", "u", {"type": "object"})]:
        with pytest.raises(ProviderError, match="no recording"):
            provider.complete_json(system, user, schema, timeout=1)


def test_errors_are_not_recorded(tmp_path):
    cassette = tmp_path / "c.jsonl"
    provider = ReplayProvider(
        cassette, record_with=ScriptedProvider([ProviderError("503", transient=True)])
    )

    with pytest.raises(ProviderError):
        provider.complete_json("s", "u", {}, timeout=1)

    assert not cassette.exists() or cassette.read_text() == ""


def test_a_missing_cassette_without_a_recorder_is_refused(tmp_path):
    with pytest.raises(BadRequest, match="does not exist"):
        ReplayProvider(tmp_path / "nope.jsonl")


def test_a_corrupt_cassette_names_the_line(tmp_path):
    cassette = tmp_path / "c.jsonl"
    cassette.write_text(json.dumps({"key": "k", "data": {}}) + "\n{not json\n")

    with pytest.raises(BadRequest, match="Line 2"):
        ReplayProvider(cassette)


def test_recording_after_a_hand_edited_last_line_keeps_records_apart(tmp_path):
    cassette = tmp_path / "c.jsonl"
    key = request_key("s", "a", {})
    cassette.write_text(json.dumps({"key": key, "data": {"n": 0}}))  # no final newline
    provider = ReplayProvider(cassette, record_with=ScriptedProvider([{"n": 1}]))

    provider.complete_json("s", "b", {}, timeout=1)

    replay = ReplayProvider(cassette)
    assert len(replay) == 2
    assert replay.complete_json("s", "a", {}, timeout=1).data == {"n": 0}
    assert replay.complete_json("s", "b", {}, timeout=1).data == {"n": 1}


async def test_a_recording_cassette_closes_its_real_provider(tmp_path):
    closed = []

    class Recorder(ScriptedProvider):
        def close(self) -> None:
            closed.append("sync")

        async def aclose(self) -> None:
            closed.append("async")

    replay = ReplayProvider(tmp_path / "c.jsonl", record_with=Recorder())
    replay.close()
    await replay.aclose()

    assert closed == ["sync", "async"]
