"""A refused correction says why in telemetry (``refusal_reason``), and every fixer call
carries a fingerprint of its request (``request_key``), equal for identical requests."""

from __future__ import annotations

from pathlib import Path

import pytest

from editengine._errors import NoMatch
from editengine.engine import EditEngine
from editengine.fixer._protocol import Correction
from editengine.telemetry import FixerCalled, MemorySink, Telemetry

CONTENT = "def total(items):\n    return sum(items)\n\n\ndef count(items):\n    return len(items)\n"


def fixer_events(tmp_path: Path, fixer, old: str, new: str) -> list[FixerCalled]:
    (tmp_path / "m.py").write_text(CONTENT, encoding="utf-8")
    sink = MemorySink()
    engine = EditEngine(tmp_path, fixer=fixer, telemetry=Telemetry(sinks=[sink]), journal=False)
    with pytest.raises(NoMatch):
        engine.edit("m.py", old, new)
    engine.close()
    assert (tmp_path / "m.py").read_text(encoding="utf-8") == CONTENT  # nothing written
    return [event for event in sink.events if isinstance(event, FixerCalled)]


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (Correction(search="", replace="x"), "empty_search"),
        (Correction(search="return", replace="return"), "search_equals_replace"),
        (Correction(search="    return ", replace="    yield "), "search_ambiguous"),
        (Correction(search="nowhere in the file", replace="x"), "search_no_match"),
    ],
)
def test_a_refused_correction_records_why(tmp_path, fake_fixer, answer, reason):
    events = fixer_events(
        tmp_path, fake_fixer(answer), "    return summ(items)", "    return sum(items) + 1"
    )
    assert [(e.outcome, e.refusal_reason) for e in events] == [("failed_validation", reason)]
    assert events[0].to_dict()["refusal_reason"] == reason


def test_identical_requests_share_a_request_key_and_others_do_not(tmp_path, fake_fixer):
    wrong = Correction(search="nowhere in the file", replace="x")
    fixer = fake_fixer(wrong, wrong, wrong)
    first = fixer_events(tmp_path, fixer, "    return summ(items)", "    return 1")
    again = fixer_events(tmp_path, fixer, "    return summ(items)", "    return 1")
    other = fixer_events(tmp_path, fixer, "    return lenn(items)", "    return 2")
    keys = [events[0].request_key for events in (first, again, other)]
    assert keys[0] is not None and len(keys[0]) == 16
    assert keys[0] == keys[1] != keys[2]


def test_an_accepted_correction_has_no_refusal_reason(tmp_path, fake_fixer):
    (tmp_path / "m.py").write_text(CONTENT, encoding="utf-8")
    sink = MemorySink()
    answer = Correction(search="    return sum(items)", replace="    return sum(items) + 1")
    engine = EditEngine(
        tmp_path, fixer=fake_fixer(answer), telemetry=Telemetry(sinks=[sink]), journal=False
    )
    engine.edit("m.py", "    return summ(items)", "    return sum(items) + 1")
    engine.close()
    (event,) = [e for e in sink.events if isinstance(e, FixerCalled)]
    assert (event.outcome, event.refusal_reason) == ("corrected", None)
    assert event.request_key is not None
