"""Telemetry from real edits: every path of an edit through EditEngine, then the report.

The events come from the engine as it runs (no hand-built EditState): exact and fuzzy hits,
ambiguity, no match, the fixer (success, timeout, cache hit), dry runs and multi-edits.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import editengine
from editengine import DEFAULT_CASCADE
from editengine._errors import AmbiguousMatch, NoMatch
from editengine.cli import main
from editengine.engine import EditEngine
from editengine.fixer import LLMFixer
from editengine.providers import CallbackProvider, ScriptedProvider
from editengine.telemetry import JsonlSink, MemorySink, Telemetry

from ..telemetry.test_events import FIELDS
from .conftest import BILLING, BILLING_FIXED, GOOD_ANSWER, INSTRUCTION, WRONG_NEW, WRONG_OLD

# A one-character typo ("exprss") in one line of a four-line block: block_anchor's case.
SHIPPING = """def shipping_cost(order):
    weight = sum(item.weight for item in order.items)
    base = 4.99 if weight < 2 else 9.99
    express = order.express and 5.0 or 0.0
    return round(base + express, 2)
"""
TYPO_OLD = """    weight = sum(item.weight for item in order.items)
    base = 4.99 if weight < 2 else 9.99
    express = order.exprss and 5.0 or 0.0
    return round(base + express, 2)
"""
TYPO_NEW = TYPO_OLD.replace("exprss", "express").replace("9.99", "12.99")
SHIPPING_FIXED = SHIPPING.replace("9.99", "12.99")

FUZZY_THRESHOLDS = {
    tier.name: tier.threshold for tier in DEFAULT_CASCADE.tiers if getattr(tier, "fuzzy", False)
}
ALL_TIERS = DEFAULT_CASCADE.tier_names
DEADLINE = 0.2


class Recorder:
    """An engine with telemetry into memory, over a workspace."""

    def __init__(self, workspace: Path, tmp_path: Path, *, fixer=None, sinks=()) -> None:
        self.memory = MemorySink()
        self.telemetry = Telemetry(sinks=[self.memory, *sinks])
        self.engine = EditEngine(
            workspace,
            fixer=fixer,
            telemetry=self.telemetry,
            lock_dir=tmp_path / "locks",
        )

    def events(self) -> list[dict]:
        self.telemetry.flush()  # the other sinks are served by a worker thread
        return [event.to_dict() for event in self.memory.events]

    def named(self, name: str) -> list[dict]:
        return [event for event in self.events() if event["event"] == name]


@pytest.fixture
def recorder(workspace, tmp_path):
    def make(**options) -> Recorder:
        return Recorder(workspace, tmp_path, **options)

    return make


def check_fields(events: list[dict]) -> None:
    """Every event has exactly its documented fields, one edit id, started first."""
    assert events[0]["event"] == "edit.started" and events[-1]["event"] == "edit.finished"
    assert len({event["edit_id"] for event in events}) == 1
    for event in events:
        assert set(event) == FIELDS[event["event"]], event["event"]
        assert event["v"] == 1 and event["engine_version"] == editengine.__version__


def tiers(events: list[dict]) -> list[tuple]:
    return [
        (e["tier"], e["outcome"], e["pass"], e["position"])
        for e in events
        if e["event"] == "tier.tried"
    ]


def scripted_fixer(*answers, **options) -> LLMFixer:
    return LLMFixer(ScriptedProvider(answers, model="scripted-1"), **options)


# ---------------------------------------------------------------------- the cascade's paths


def test_an_exact_hit(recorder, write):
    write("ship.py", SHIPPING)
    rec = recorder()

    rec.engine.edit("ship.py", "9.99", "12.99")

    events = rec.events()
    check_fields(events)
    assert tiers(events) == [("exact", "matched", "original", 0)]
    started, tier, finished = events
    assert (started["old_chars"], started["new_chars"], started["dry_run"]) == (4, 5, False)
    assert tier["candidates"] == 1 and tier["threshold"] is None
    assert finished["outcome"] == "success" and finished["strategy"] == "exact"
    assert finished["replacements"] == 1 and finished["error_code"] is None
    assert finished["file_lines"] == 5 and finished["file_bytes"] == len(SHIPPING.encode())
    assert finished["tiers_tried"] == 1 and finished["fixer_outcome"] is None


def test_a_fuzzy_hit_records_similarity_and_threshold(recorder, write):
    path = write("ship.py", SHIPPING)
    rec = recorder()

    rec.engine.edit("ship.py", TYPO_OLD, TYPO_NEW)

    assert path.read_text() == SHIPPING_FIXED
    events = rec.events()
    check_fields(events)
    tried = rec.named("tier.tried")
    assert [t["tier"] for t in tried] == list(ALL_TIERS)
    assert [t["position"] for t in tried] == list(range(len(ALL_TIERS)))
    assert all(t["outcome"] == "no_candidates" for t in tried[:-1])
    anchor = tried[-1]
    assert (anchor["tier"], anchor["outcome"], anchor["candidates"]) == (
        "block_anchor",
        "matched",
        1,
    )
    assert anchor["threshold"] == FUZZY_THRESHOLDS["block_anchor"]
    assert anchor["threshold"] <= anchor["best_similarity"] < 1.0
    assert all(t["threshold"] is None for t in tried if t["tier"] not in FUZZY_THRESHOLDS)
    finished = events[-1]
    assert finished["strategy"] == "block_anchor" and finished["outcome"] == "success"
    assert finished["tiers_tried"] == len(ALL_TIERS)
    assert finished["tier_ms"] == pytest.approx(sum(t["elapsed_ms"] for t in tried), abs=0.01)


def test_an_ambiguity(recorder, write):
    write("twice.py", "x = 1\ny = 2\nx = 1\n")
    rec = recorder()

    with pytest.raises(AmbiguousMatch):
        rec.engine.edit("twice.py", "x = 1", "x = 3")

    events = rec.events()
    check_fields(events)
    assert tiers(events) == [("exact", "ambiguous", "original", 0)]
    assert rec.named("tier.tried")[0]["candidates"] == 2
    finished = events[-1]
    assert (finished["outcome"], finished["error_code"], finished["strategy"]) == (
        "error",
        "ambiguous",
        None,
    )


def test_no_match_without_a_fixer(recorder, write):
    write("billing.py", BILLING)
    rec = recorder()

    with pytest.raises(NoMatch):
        rec.engine.edit("billing.py", WRONG_OLD, WRONG_NEW)

    events = rec.events()
    check_fields(events)
    assert [t[0] for t in tiers(events)] == list(ALL_TIERS)
    assert all(t[2] == "original" for t in tiers(events))
    assert rec.named("fixer.called") == []
    assert events[-1]["error_code"] == "no_match" and events[-1]["fixer_outcome"] is None


def test_a_dry_run(recorder, write):
    path = write("ship.py", SHIPPING)
    rec = recorder()

    rec.engine.edit("ship.py", "9.99", "12.99", dry_run=True)

    assert path.read_text() == SHIPPING
    events = rec.events()
    check_fields(events)
    assert events[0]["dry_run"] is True and events[-1]["dry_run"] is True
    assert events[-1]["outcome"] == "success" and events[-1]["replacements"] == 1


def test_a_multi_edit(recorder, write):
    path = write("ship.py", SHIPPING)
    rec = recorder()

    rec.engine.multi_edit(
        "ship.py",
        [
            {"old_string": "4.99", "new_string": "3.99"},
            {"old_string": TYPO_OLD.replace("4.99", "3.99"), "new_string": TYPO_NEW},
        ],
        instruction="Cheaper light parcels; fix the express typo.",
    )

    assert "3.99" not in path.read_text()  # the second edit rewrote the line again
    events = rec.events()
    check_fields(events)
    assert events[0]["operation"] == "multi_edit" and events[0]["instruction_given"] is True
    tried = tiers(events)
    # Each edit's cascade run starts again at position 0.
    assert tried[0] == ("exact", "matched", "original", 0)
    assert tried[1:] == [
        (name, "no_candidates" if name != "block_anchor" else "matched", "original", position)
        for position, name in enumerate(ALL_TIERS)
    ]
    finished = events[-1]
    assert finished["operation"] == "multi_edit" and finished["strategy"] == "exact+block_anchor"
    assert finished["replacements"] == 2 and finished["tiers_tried"] == 1 + len(ALL_TIERS)


# ---------------------------------------------------------------------- the fixer's paths


def test_a_fixer_success_splits_the_passes(recorder, write):
    write("billing.py", BILLING)
    rec = recorder(fixer=scripted_fixer(GOOD_ANSWER, timeout=7.5))

    result = rec.engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    assert result.corrected_by_fixer
    events = rec.events()
    check_fields(events)
    names = [e["event"] for e in events]
    assert names.index("fixer.called") == len(names) - 2  # after every tier.tried
    tried = tiers(events)
    original = [t for t in tried if t[2] == "original"]
    fixer_pass = [t for t in tried if t[2] == "fixer"]
    assert [t[0] for t in original] == list(ALL_TIERS)
    assert fixer_pass == [("exact", "matched", "fixer", 0)]
    (called,) = rec.named("fixer.called")
    assert (called["provider"], called["model"], called["outcome"]) == (
        "scripted",
        "scripted-1",
        "corrected",
    )
    assert called["deadline_ms"] == 7500.0 and called["cache_hit"] is False
    assert called["windowed"] is False and called["prompt_chars"] > len(BILLING)
    finished = events[-1]
    assert finished["corrected_by_fixer"] is True and finished["fixer_outcome"] == "corrected"
    assert finished["strategy"] == "exact" and finished["tiers_tried"] == len(ALL_TIERS) + 1


def test_a_file_changed_during_the_fixer_keeps_the_rerun_in_the_original_pass(recorder, write):
    path = write("billing.py", BILLING)
    changed = "# edited meanwhile\n" + BILLING

    def answer(request):
        path.write_text(changed)
        return GOOD_ANSWER

    rec = recorder(fixer=LLMFixer(CallbackProvider(answer)))

    rec.engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    assert path.read_text() == "# edited meanwhile\n" + BILLING_FIXED
    tried = tiers(rec.events())
    n = len(ALL_TIERS)
    # first read, the re-read file (each a cascade run from position 0), then the correction
    assert [t[3] for t in tried[: 2 * n]] == list(range(n)) * 2
    assert {t[2] for t in tried[: 2 * n]} == {"original"}
    assert tried[2 * n :] == [("exact", "matched", "fixer", 0)]


def test_an_unused_correction_is_not_counted_as_a_rescue(recorder, write):
    path = write("billing.py", BILLING)

    def answer(request):
        path.write_text(BILLING + WRONG_OLD)  # now the agent's own old_string is in the file
        return GOOD_ANSWER

    rec = recorder(fixer=LLMFixer(CallbackProvider(answer)))

    result = rec.engine.edit("billing.py", WRONG_OLD, "# gone\n", instruction=INSTRUCTION)

    assert not result.corrected_by_fixer and path.read_text() == BILLING + "# gone\n"
    finished = rec.events()[-1]
    assert finished["outcome"] == "success" and finished["corrected_by_fixer"] is False
    assert {t[2] for t in tiers(rec.events())} == {"original"}  # the correction never ran


def test_a_fixer_timeout(recorder, write, release):
    path = write("billing.py", BILLING)

    def hang(request):
        release.wait(10)
        return GOOD_ANSWER

    rec = recorder(fixer=LLMFixer(CallbackProvider(hang, model="slow-1"), timeout=DEADLINE))

    with pytest.raises(NoMatch, match="could not correct it"):
        rec.engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    assert path.read_text() == BILLING
    events = rec.events()
    check_fields(events)
    (called,) = rec.named("fixer.called")
    assert called["outcome"] == "timeout"
    assert (called["provider"], called["model"]) == ("callback", "slow-1")
    assert called["deadline_ms"] == DEADLINE * 1000
    assert DEADLINE * 1000 <= called["latency_ms"] < DEADLINE * 1000 + 500
    assert all(t[2] == "original" for t in tiers(events))
    finished = events[-1]
    assert finished["error_code"] == "no_match" and finished["fixer_outcome"] == "timeout"
    assert finished["corrected_by_fixer"] is False


def test_a_fixer_cache_hit(recorder, write):
    path = write("billing.py", BILLING)
    provider = ScriptedProvider([GOOD_ANSWER], model="scripted-1")
    rec = recorder(fixer=LLMFixer(provider))

    rec.engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)
    path.write_text(BILLING)
    rec.engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    assert len(provider.requests) == 1 and path.read_text() == BILLING_FIXED
    first, second = rec.named("fixer.called")
    assert first["cache_hit"] is False and second["cache_hit"] is True
    assert (second["input_tokens"], second["output_tokens"]) == (0, 0)
    assert second["outcome"] == "corrected"
    assert second["latency_ms"] < first["latency_ms"] + 50


def test_a_refused_correction(recorder, write):
    write("billing.py", BILLING)
    far = {**GOOD_ANSWER, "search": "def with_tax(amount):\n", "replace": ""}
    rec = recorder(fixer=scripted_fixer(far))

    with pytest.raises(NoMatch, match="pointed elsewhere"):
        rec.engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)

    (called,) = rec.named("fixer.called")
    assert called["outcome"] == "failed_validation"
    assert [t[2] for t in tiers(rec.events())][
        -1
    ] == "fixer"  # the correction was placed, then refused
    assert rec.events()[-1]["corrected_by_fixer"] is False


# ---------------------------------------------------------------------- privacy and safety

SECRET_DIR = "clients/zebra-merger"
SECRET_FILE = "plan_quokka.py"
SECRET_TEXT = "ACQUISITION_TARGET = 'Quokka Industries'\nBID_EUR = 41_000_000\n"


def run_every_path(engine: EditEngine, write) -> None:
    """One edit down each path, on files whose text and names are distinctive."""
    path = write(f"{SECRET_DIR}/{SECRET_FILE}", SECRET_TEXT + SHIPPING)
    engine.edit(str(path), "BID_EUR = 41_000_000", "BID_EUR = 43_500_000")  # exact
    engine.edit(str(path), TYPO_OLD, TYPO_NEW, dry_run=True)  # fuzzy, dry run
    with pytest.raises(NoMatch):
        engine.edit(str(path), "QUOKKA_SECRET_OLD = 1", "QUOKKA_SECRET_NEW = 2")  # fixer refused
    write(f"{SECRET_DIR}/twice.py", "quokka_token = 1\nquokka_token = 1\n")
    with pytest.raises(AmbiguousMatch):
        engine.edit(f"{SECRET_DIR}/twice.py", "quokka_token = 1", "quokka_token = 2")
    write(f"{SECRET_DIR}/billing.py", BILLING)
    engine.edit(f"{SECRET_DIR}/billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)
    engine.multi_edit(
        str(path), [{"old_string": "Quokka Industries", "new_string": "Quokka Holdings"}]
    )


def test_no_content_reaches_the_jsonl_file(workspace, tmp_path, write):
    out = tmp_path / "telemetry.jsonl"
    answers = [
        {**GOOD_ANSWER, "search": "QUOKKA_NOWHERE", "replace": "QUOKKA_EVIL"},
        GOOD_ANSWER,
    ]
    with Telemetry(sinks=[JsonlSink(out)]) as telemetry:
        engine = EditEngine(
            workspace,
            fixer=scripted_fixer(*answers),
            telemetry=telemetry,
            lock_dir=tmp_path / "locks",
        )
        run_every_path(engine, write)

    written = out.read_text()
    events = [json.loads(line) for line in written.splitlines()]
    assert {e["event"] for e in events} == set(FIELDS)
    assert sum(e["event"] == "edit.finished" for e in events) == 6
    for secret in (
        "zebra",
        "quokka",
        "Quokka",
        "QUOKKA",
        "ACQUISITION_TARGET",
        "41_000_000",
        "43_500_000",
        "exprss",
        "shipping_cost",
        "subtotal",
        "item.quantity",
        INSTRUCTION,
        GOOD_ANSWER["explanation"],
        str(workspace),
    ):
        assert secret not in written, secret


class Exploding:
    def emit(self, event) -> None:
        raise RuntimeError("disk full")

    def close(self) -> None:
        raise RuntimeError("still full")


def test_a_raising_sink_does_not_fail_the_edit(recorder, write, caplog):
    path = write("ship.py", SHIPPING)
    rec = recorder(sinks=[Exploding()])

    result = rec.engine.edit("ship.py", "9.99", "12.99")
    with pytest.raises(AmbiguousMatch):  # a failing edit still fails for its own reason
        rec.engine.edit("ship.py", "    ", "\t")

    assert result.replacements == 1 and "12.99" in path.read_text()
    assert [e["event"] for e in rec.events()].count("edit.finished") == 2  # others still served
    assert "telemetry sink" in caplog.text


# ---------------------------------------------------------------------- the report


def test_the_report_on_real_edits(workspace, tmp_path, write, capsys):
    out = tmp_path / "telemetry.jsonl"
    far = {**GOOD_ANSWER, "search": "def with_tax(amount):\n", "replace": ""}
    fixer = scripted_fixer(GOOD_ANSWER, far, timeout=12.0)
    with Telemetry(sinks=[JsonlSink(out)]) as telemetry:
        engine = EditEngine(
            workspace, fixer=fixer, telemetry=telemetry, lock_dir=tmp_path / "locks"
        )
        ship = write("ship.py", SHIPPING)
        for _ in range(3):  # exact x3
            ship.write_text(SHIPPING)
            engine.edit("ship.py", "9.99", "12.99")
        for _ in range(2):  # block_anchor x2 (one a dry run)
            ship.write_text(SHIPPING)
            engine.edit("ship.py", TYPO_OLD, TYPO_NEW, dry_run=_ == 1)
        write("twice.py", "x = 1\nx = 1\n")
        with pytest.raises(AmbiguousMatch):
            engine.edit("twice.py", "x = 1", "x = 2")
        billing = write("billing.py", BILLING)
        engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)  # corrected
        billing.write_text(BILLING)
        engine.edit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)  # cache hit
        other = WRONG_OLD.replace("result", "acc")
        with pytest.raises(NoMatch):  # refused (pointed elsewhere)
            engine.edit("billing.py", other, WRONG_NEW, instruction=INSTRUCTION)

    report_path = tmp_path / "report.json"
    assert main(["report", str(out), "--json", str(report_path)]) == 0
    report = json.loads(report_path.read_text())

    edits = report["edits"]
    assert (edits["started"], edits["finished"]) == (9, 9)
    assert (edits["success"], edits["errors"], edits["ambiguous"]) == (7, 2, 1)
    assert edits["dry_run"] == 1 and edits["corrected_by_fixer"] == 2
    assert edits["success_rate"] == pytest.approx(7 / 9)
    assert {row["error_code"]: row["count"] for row in report["errors"]} == {
        "ambiguous": 1,
        "no_match": 1,
    }
    mix = {row["strategy"]: row["count"] for row in report["strategies"]}
    assert mix == {"exact": 5, "block_anchor": 2}  # two fixer corrections placed by exact
    fixer = report["fixer"]
    assert fixer["calls"] == 3 and fixer["call_rate"] == pytest.approx(3 / 9)
    assert fixer["outcomes"]["corrected"] == 2 and fixer["outcomes"]["failed_validation"] == 1
    assert fixer["cache_hits"] == 1 and fixer["rescued_edits"] == 2
    assert fixer["deadline_ms"] == 12_000.0
    by_tier = {(row["tier"], row["pass"]): row for row in report["tiers"]}
    assert by_tier[("exact", "original")]["tries"] == 9
    assert by_tier[("exact", "original")]["wins"] == 3
    assert by_tier[("exact", "fixer")]["tries"] == 3 and by_tier[("exact", "fixer")]["wins"] == 3
    anchor = by_tier[("block_anchor", "original")]
    assert anchor["wins"] == 2
    assert anchor["similarity"]["threshold"] == FUZZY_THRESHOLDS["block_anchor"]
    assert anchor["similarity"]["threshold_source"] == "recorded"
    # the tables render from the same file
    assert main(["report", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "block_anchor" in printed and "recorded" in printed
