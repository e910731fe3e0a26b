"""Peer conformance and the deviations table."""

import pytest

from editengine.evaluation import _peers as peers
from editengine.evaluation._dataset import EvalCase, load_cases
from editengine.evaluation._executors import EngineConfig
from editengine.evaluation._runner import run_cases

DOC = """# Deviations

Intro text that must survive a refresh.

<!-- deviations:start -->
| case | peer expects | our outcome | reason |
|---|---|---|---|
| `gone` | success | refused (no_match) | Passes now, so the row should disappear. |
| `kept` | success | refused (no_match) | A reason someone wrote \\| with a pipe. |
<!-- deviations:end -->

Footer.
"""


def _case(case_id: str, old: str) -> EvalCase:
    return EvalCase(
        id=case_id,
        content="x = 1\n",
        old_string=old,
        new_string="x = 2",
        expected_content="x = 2\n",
        category="peer",
    )


def test_read_deviations_parses_ids_and_reasons(tmp_path):
    path = tmp_path / "dev.md"
    path.write_text(DOC, encoding="utf-8")
    assert peers.read_deviations(path) == {
        "gone": "Passes now, so the row should disappear.",
        "kept": "A reason someone wrote | with a pipe.",
    }


def test_refresh_keeps_reasons_drops_passing_cases_and_adds_new_ones(tmp_path):
    path = tmp_path / "dev.md"
    path.write_text(DOC, encoding="utf-8")
    cases = [_case("gone", "x = 1"), _case("kept", "y = 1"), _case("new", "z = 1")]
    run = run_cases(cases, EngineConfig("cascade"))
    peers.refresh_deviations(path, [run])
    text = path.read_text(encoding="utf-8")
    assert "Intro text that must survive a refresh." in text and "Footer." in text
    found = peers.read_deviations(path)
    assert set(found) == {"kept", "new"}
    assert found["kept"] == "A reason someone wrote | with a pipe."
    assert found["new"] == peers.PENDING
    assert peers.unlisted_failures(run, found) == []


def test_unlisted_failures_are_reported():
    run = run_cases([_case("a", "nothing here")], EngineConfig("cascade"))
    assert [r.case.id for r in peers.unlisted_failures(run, {})] == ["a"]
    assert peers.unlisted_failures(run, {"a": "documented"}) == []


def test_every_peer_case_passes_or_is_a_documented_deviation():
    directory = peers.peer_cases_dir()
    if directory is None:
        pytest.skip("../shared/peer-cases is not present next to the repository")
    cases = load_cases(peers.peer_files(directory))
    assert cases, "peer-cases folder holds no cases"
    run = run_cases(cases, EngineConfig("cascade"))
    documented = peers.read_deviations(peers.deviations_path())
    unlisted = [r.case.id for r in peers.unlisted_failures(run, documented)]
    assert unlisted == [], (
        "failing peer cases missing from docs/peer-deviations.md "
        "(run `editengine eval --peers --write-deviations` and give each a reason): "
        + ", ".join(unlisted)
    )
