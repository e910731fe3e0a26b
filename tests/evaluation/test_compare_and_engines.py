"""--compare, --engine-cmd and the batch-command executor."""

import json
import sys

import pytest

from editengine import DEFAULT_CASCADE
from editengine.cli import main
from editengine.errors import EngineCommandFailed
from editengine.evaluation.dataset import EvalCase, read_dataset
from editengine.evaluation.executors import (
    BatchCommandExecutor,
    EngineConfig,
    TextExecutor,
    ablations,
)

BATCH = [sys.executable, "-m", "editengine", "batch"]


def test_compare_runs_exact_only_and_the_cascade_side_by_side(small_dataset, tmp_path, capsys):
    report = tmp_path / "r.json"
    assert main(["eval", str(small_dataset), "--compare", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert "compare: success %" in out
    labels = [run["config"]["label"] for run in json.loads(report.read_text())["runs"]]
    assert labels == [c.label for c in ablations()]
    assert labels[0] == "exact-only" and labels[-1] == "cascade"


def test_ablations_drop_each_tier_in_turn():
    configs = ablations()
    exact_only = configs[0]
    assert exact_only.cascade().tier_names == ("exact",)
    for config in configs[1:-1]:
        (dropped,) = config.without
        assert dropped not in config.cascade().tier_names
        assert len(config.cascade().tier_names) == len(DEFAULT_CASCADE.tier_names) - 1
    assert configs[-1].cascade().tier_names == DEFAULT_CASCADE.tier_names


def test_engine_cmd_with_our_own_batch_command_matches_the_cascade(small_dataset, tmp_path, capsys):
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
