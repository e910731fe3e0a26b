"""``editengine eval --llm ...``: the engine executor with no, scripted and replayed fixers."""

import json

import pytest

from editengine.cli import main
from editengine.evaluation._dataset import read_dataset
from editengine.evaluation._engine_executor import EngineExecutor
from editengine.evaluation._llm import (
    OFFLINE_FIXER_TIMEOUT,
    REAL_FIXER_TIMEOUT,
    SharedFixer,
    fixer_source,
    parse_llm,
)
from editengine.fixer import LLMFixer
from editengine.providers import CallbackProvider, ProviderReply, ReplayProvider

from .conftest import LLM_CASES, write_jsonl


def _run(args, tmp_path):
    report = tmp_path / "report.json"
    status = main(["eval", *args, "--json", str(report)])
    (run,) = json.loads(report.read_text())["runs"]
    return status, run, {c["id"]: c for c in run["cases"]}


def test_default_is_the_engine_without_a_fixer(llm_dataset, tmp_path, capsys):
    status, run, cases = _run([str(llm_dataset)], tmp_path)
    assert status == 0
    assert run["config"]["kind"] == "engine" and run["config"]["llm"] == "none"
    assert {i: c["outcome"] for i, c in cases.items()} == {
        "llm-good": "refused",
        "llm-bad-search": "refused",
        "llm-false-no-change": "refused",
        "llm-unanswered": "success",
    }
    assert run["categories"]["TOTAL"]["fixer_calls"] == 0


def test_scripted_answers_correct_the_good_case_and_never_make_a_wrong_one(
    llm_dataset, tmp_path, capsys
):
    status, run, cases = _run([str(llm_dataset), "--llm", "scripted"], tmp_path)
    assert status == 0
    assert run["config"]["label"] == "cascade+scripted"
    assert cases["llm-good"]["outcome"] == "success"
    assert cases["llm-good"]["corrected_by_fixer"] is True
    assert cases["llm-good"]["input_tokens"] > 0
    for bad in ("llm-bad-search", "llm-false-no-change"):
        assert cases[bad]["outcome"] == "refused"
        assert cases[bad]["error_code"] == "no_match"
    # Nothing scripted for it: the fixer fails cleanly and the refusal stands.
    assert cases["llm-unanswered"]["outcome"] == "success"
    total = run["categories"]["TOTAL"]
    assert (total["success"], total["refused"], total["wrong"]) == (2, 2, 0)
    assert (total["fixer_calls"], total["corrected_by_fixer"]) == (4, 1)
    table = capsys.readouterr().out
    assert "cascade+scripted: 4 cases" in table and "fixer calls" in table


def test_show_failures_prints_diffs_of_engine_runs(llm_dataset, capsys):
    assert main(["eval", str(llm_dataset), "--llm", "scripted", "--show-failures", "5"]) == 0
    out = capsys.readouterr().out
    assert "--- llm-bad-search [llm_wrong_identifier] REFUSED" in out
    assert "-    return b + a" in out  # expected, missing from the actual file
    assert "+    return a + b" in out
    assert "The LLM fixer proposed a correction" in out


def _answer_by_old_string(request):
    """A stand-in for a real model: answers from the case whose old_string is in the prompt."""
    for record in LLM_CASES:
        if record["old_string"] in request.user and record.get("fixer_answers"):
            return ProviderReply(
                data=record["fixer_answers"][0], input_tokens=321, output_tokens=12,
                model="stand-in", provider="callback",
            )  # fmt: skip
    raise AssertionError("unexpected request")


def test_a_cassette_recorded_once_replays_offline(llm_dataset, tmp_path, capsys):
    cassette = tmp_path / "fixer.cassette.jsonl"
    calls = []

    def real_model(request):
        calls.append(request)
        return _answer_by_old_string(request)

    recorder = ReplayProvider(cassette, record_with=CallbackProvider(real_model))
    executor = EngineExecutor(fixers=SharedFixer(LLMFixer(recorder)))
    cases = [c for c in read_dataset(llm_dataset) if c.fixer_answers]
    try:
        recorded = [executor.run(case) for case in cases]
    finally:
        executor.close()
    assert len(calls) == recorder.recorded == 3
    assert len(cassette.read_text().splitlines()) == 3

    status, run, replayed = _run([str(llm_dataset), "--llm", f"replay:{cassette}"], tmp_path)
    assert status == 0
    assert len(calls) == 3  # the stand-in model was never asked again
    assert run["config"]["label"] == "cascade+replay"
    for case, result in zip(cases, recorded, strict=True):
        assert replayed[case.id]["ok"] == result.ok
        assert replayed[case.id]["corrected_by_fixer"] == result.corrected_by_fixer
    assert replayed["llm-good"]["outcome"] == "success"
    assert replayed["llm-good"]["input_tokens"] == 321  # the recorded cost, not an estimate
    # Not in the cassette: a clean fixer failure, so the refusal stands.
    assert replayed["llm-unanswered"]["outcome"] == "success"
    assert replayed["llm-unanswered"]["fixer_calls"] == 1


def test_a_case_missing_from_the_cassette_is_refused_not_crashed(tmp_path, capsys):
    cassette = tmp_path / "empty.jsonl"
    cassette.write_text("", encoding="utf-8")
    dataset = write_jsonl(tmp_path / "one.jsonl", [LLM_CASES[0]])
    status, _, cases = _run([str(dataset), "--llm", f"replay:{cassette}"], tmp_path)
    assert status == 0
    assert cases["llm-good"]["outcome"] == "refused"
    assert cases["llm-good"]["error_code"] == "no_match"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--llm", "gpt"], "is not one of"),
        (["--llm", "replay:"], "needs a cassette path"),
        (["--llm", "replay:/nonexistent/cassette.jsonl"], "does not exist"),
        (["--llm", "scripted", "--executor", "text"], "needs --executor engine"),
        (["--record", "c.jsonl"], "--record needs a real provider"),
        (["--llm", "scripted", "--record", "c.jsonl"], "--record needs a real provider"),
        (["--llm", "scripted", "--model", "m"], "--model applies to a real provider"),
        (["--llm", "scripted", "--fixer-timeout", "0"], "must be positive"),
    ],
)
def test_bad_llm_options_exit_2_before_running(small_dataset, args, message, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    assert main(["eval", str(small_dataset), *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err.replace("\n", " ")
    assert "TOTAL" not in captured.out


def test_a_real_provider_without_its_key_exits_2_naming_the_variable(
    small_dataset, capsys, monkeypatch
):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["eval", str(small_dataset), "--llm", "anthropic"]) == 2
    err = capsys.readouterr().err.replace("\n", " ")
    assert "provider_config" in err and "ANTHROPIC_API_KEY" in err


def test_recording_wraps_the_real_provider_in_a_cassette(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")  # built, never called
    source = fixer_source("openai", model="gpt-test", record=str(tmp_path / "c.jsonl"))
    assert isinstance(source, SharedFixer)
    provider = source.fixer.provider
    assert isinstance(provider, ReplayProvider)
    assert provider.model == "gpt-test"
    assert source.fixer.timeout == REAL_FIXER_TIMEOUT


def test_offline_fixers_get_a_short_timeout_unless_told_otherwise(tmp_path):
    from editengine.evaluation._dataset import EvalCase

    case = EvalCase(id="c", content="a\n", old_string="b", new_string="c")
    assert fixer_source("scripted").for_case(case).timeout == OFFLINE_FIXER_TIMEOUT
    assert fixer_source("scripted", timeout=0.5).for_case(case).timeout == 0.5
    assert fixer_source("none").for_case(case) is None


def test_llm_values_parse():
    assert parse_llm("none").kind == "none"
    assert parse_llm(" Scripted ").kind == "scripted"
    choice = parse_llm("replay:runs/a b.jsonl")
    assert (choice.kind, choice.cassette, choice.offline) == ("replay", "runs/a b.jsonl", True)
    assert parse_llm("anthropic").offline is False


def test_a_real_llm_run_uses_threads_sharing_one_fixer_and_its_cassette(
    llm_dataset, tmp_path, monkeypatch
):
    import threading

    from editengine.evaluation import _llm as llm_module

    asked_from = []

    def stand_in(request):
        asked_from.append(threading.current_thread().name)
        return _answer_by_old_string(request)

    monkeypatch.setattr(
        llm_module, "make_provider", lambda kind, model=None: CallbackProvider(stand_in)
    )
    cassette = tmp_path / "threads.cassette.jsonl"
    # A second copy of every case: the shared fixer's cache answers it without a call.
    cases = list(read_dataset(llm_dataset))
    doubled = write_jsonl(
        tmp_path / "doubled.jsonl",
        [
            {**json.loads(line), "id": f"{json.loads(line)['id']}-{copy}"}
            for copy in (1, 2)
            for line in llm_dataset.read_text().splitlines()
            if line.strip()
        ],
    )
    args = [str(doubled), "--llm", "openai", "--workers", "2", "--record", str(cassette)]
    status, run, by_id = _run(args, tmp_path)
    serial_status, _, serial = _run([*args[:-4], "--workers", "1"], tmp_path)
    assert status == serial_status == 0
    answered = [c.id for c in cases if c.fixer_answers]
    # Threads of this process, not worker processes: the stand-in saw every request.
    assert asked_from and all(name != "MainThread" for name in asked_from[: len(answered)])
    assert len(cassette.read_text().splitlines()) == len(answered)
    # One fixer for all threads: a repeated request is answered from its cache.
    assert sum(c["cache_hits"] for c in run["cases"]) >= 1
    assert {k: v["outcome"] for k, v in by_id.items()} == {
        k: v["outcome"] for k, v in serial.items()
    }
