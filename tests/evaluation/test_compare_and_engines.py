"""--compare, --engine-cmd and the batch-command executor."""

import json
import sys

import pytest

from editengine import DEFAULT_CASCADE
from editengine._errors import EngineCommandFailed
from editengine.cli import main
from editengine.evaluation._dataset import EvalCase, read_dataset
from editengine.evaluation._executors import (
    BatchCommandExecutor,
    EngineConfig,
    TextExecutor,
    ablations,
)

BATCH = [sys.executable, "-m", "editengine", "batch"]


def test_compare_runs_the_ablations_and_the_fixer_column_side_by_side(
    llm_dataset, tmp_path, capsys
):
    report = tmp_path / "r.json"
    assert main(["eval", str(llm_dataset), "--compare", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert "compare: each configuration against cascade" in out
    assert "cascade+scripted" in out
    data = json.loads(report.read_text())
    runs = {run["config"]["label"]: run for run in data["runs"]}
    labels = [run["config"]["label"] for run in data["runs"]]
    assert labels == [c.label for c in ablations()]
    assert labels[0] == "exact-only" and labels[-2:] == ["cascade", "cascade+scripted"]
    assert runs["cascade+scripted"]["config"] == {
        "label": "cascade+scripted",
        "kind": "engine",
        "tiers": list(DEFAULT_CASCADE.tier_names),
        "llm": "scripted",
    }
    # Only the fixer column calls the fixer, and only it places the LLM-only edit.
    assert runs["cascade"]["categories"]["TOTAL"]["fixer_calls"] == 0
    assert runs["cascade+scripted"]["categories"]["TOTAL"]["fixer_calls"] == 4
    outcome = {label: {c["id"]: c["outcome"] for c in run["cases"]} for label, run in runs.items()}
    assert outcome["cascade"]["llm-good"] == "refused"
    assert outcome["cascade+scripted"]["llm-good"] == "success"
    # The ablation table is in the JSON report too.
    compare = data["compare"]
    assert compare["labels"] == labels
    assert compare["categories"]["TOTAL"]["cascade+scripted"]["success_pct"] == 50.0
    assert compare["categories"]["TOTAL"]["cascade"]["success_pct"] == 25.0
    assert data["main"] == "cascade"


def test_compare_with_an_llm_makes_the_fixer_column_the_main_run(llm_dataset, tmp_path, capsys):
    report = tmp_path / "r.json"
    args = ["eval", str(llm_dataset), "--compare", "--llm", "scripted", "--json", str(report)]
    assert main(args) == 0
    data = json.loads(report.read_text())
    assert data["main"] == "cascade+scripted"
    assert "cascade+scripted: 4 cases" in capsys.readouterr().out  # the detailed table
    assert [r["config"]["label"] for r in data["runs"]][-1] == "cascade+scripted"


def test_ablations_drop_each_tier_in_turn_then_add_the_fixer():
    configs = ablations()
    exact_only = configs[0]
    assert exact_only.cascade().tier_names == ("exact",)
    for config in configs[1:-2]:
        (dropped,) = config.without
        assert dropped not in config.cascade().tier_names
        assert len(config.cascade().tier_names) == len(DEFAULT_CASCADE.tier_names) - 1
    full, fixer = configs[-2:]
    assert full.cascade().tier_names == DEFAULT_CASCADE.tier_names
    assert (full.llm, fixer.llm, fixer.kind) == ("none", "scripted", "engine")
    assert {c.kind for c in ablations(kind="engine")} == {"engine"}


def test_engine_cmd_with_our_own_batch_command_matches_the_engine(small_dataset, tmp_path, capsys):
    report = tmp_path / "r.json"
    command = " ".join(BATCH)
    status = main(
        ["eval", str(small_dataset), "--engine-cmd", f"self={command}", "--json", str(report)]
    )
    assert status == 0
    runs = json.loads(report.read_text())["runs"]
    assert [r["config"]["label"] for r in runs] == ["cascade", "self"]
    ours, theirs = ({c["id"]: c["outcome"] for c in r["cases"]} for r in runs)
    assert ours == theirs
    assert runs[1]["config"]["command"] == BATCH
    assert "self" in capsys.readouterr().out


def test_batch_executor_returns_the_same_files_as_edit_text(small_dataset):
    cases = read_dataset(small_dataset)
    direct = TextExecutor()
    with BatchCommandExecutor("self", BATCH) as external:
        for case in cases:
            a, b = direct.run(case), external.run(case)
            assert (a.ok, a.new_content, a.strategy, a.error_code) == (
                b.ok,
                b.new_content,
                b.strategy,
                b.error_code,
            )


CASE = EvalCase(id="x", content="a\n", old_string="a", new_string="b", expected_content="b\n")


def test_engine_that_exits_is_reported_with_its_stderr():
    command = [sys.executable, "-c", "import sys; sys.stderr.write('boom'); sys.exit(3)"]
    with BatchCommandExecutor("dies", command) as engine, pytest.raises(EngineCommandFailed) as e:
        engine.run(CASE)
    assert "exited before answering" in str(e.value)
    assert "boom" in str(e.value)


def test_engine_answering_another_id_is_rejected():
    script = (
        "import sys, json\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps({'id': 'other', 'ok': False}), flush=True)\n"
    )
    engine = BatchCommandExecutor("liar", [sys.executable, "-c", script])
    with engine, pytest.raises(EngineCommandFailed, match="answered id 'other'"):
        engine.run(CASE)


def test_engine_that_hangs_times_out():
    script = "import sys, time\nsys.stdin.readline()\ntime.sleep(30)\n"
    engine = BatchCommandExecutor("slow", [sys.executable, "-c", script], timeout_s=0.5)
    with pytest.raises(EngineCommandFailed, match="no answer"):
        engine.run(CASE)
    engine.close()


def test_missing_engine_program_is_a_typed_error():
    with pytest.raises(EngineCommandFailed, match="cannot start"):
        BatchCommandExecutor("ghost", ["/nonexistent/engine"]).run(CASE)


def test_malformed_engine_cmd_exits_2(small_dataset, capsys):
    assert main(["eval", str(small_dataset), "--engine-cmd", "no-equals-sign"]) == 2
    assert "NAME=COMMAND" in capsys.readouterr().err


def test_unknown_tier_in_a_config_is_refused():
    with pytest.raises(ValueError, match="unknown tier"):
        EngineConfig("x", tiers=("nope",)).cascade()
