"""The peers' own patch-format tests pass, or are listed with their reason in
docs/peer-deviations.md (skipped when ../shared/peer-cases/formats is absent)."""

from __future__ import annotations

import pytest

from editengine.evaluation import _format_peers as format_peers
from editengine.evaluation._peers import deviations_path

DIRECTORY = format_peers.format_cases_dir()
CASES = format_peers.load(DIRECTORY) if DIRECTORY is not None else []
DEVIATIONS = format_peers.read_deviations(deviations_path())

pytestmark = pytest.mark.skipif(DIRECTORY is None, reason="no ../shared/peer-cases/formats")


@pytest.mark.parametrize(("file", "case"), CASES, ids=[case["id"] for _, case in CASES])
def test_peer_case_passes_or_is_a_documented_deviation(file: str, case: dict) -> None:
    run = format_peers.run_case(file, case)
    if run.id in DEVIATIONS:
        assert not run.passed, f"{run.id} passes now: remove it from docs/peer-deviations.md"
        assert DEVIATIONS[run.id].startswith("Deliberate")
        return
    assert run.passed, f"{run.id} ({case.get('notes', '')}): we answered {run.outcome}"


def test_every_listed_deviation_is_a_real_case() -> None:
    ids = {case["id"] for _, case in CASES}
    assert set(DEVIATIONS) <= ids
    assert len(DEVIATIONS) <= 9
