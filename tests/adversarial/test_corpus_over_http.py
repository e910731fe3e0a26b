"""A slice of the adversarial corpus through both SDK providers over mocked HTTP.

The same answers, sent back by a fake OpenAI / Anthropic server in each SDK's wire format
(see ``tests/conftest.py``), reach the engine through the real providers: an unrequested
change is never written, a sound correction is written as intended.
"""

from __future__ import annotations

import pytest

from editengine.fixer import LLMFixer

from .runner import load_corpus, run_all

# Every kind of answer: one in BAD_STRIDE bad answers (and one of each kind), one in
# GOOD_STRIDE good ones.
BAD_STRIDE = 12
GOOD_STRIDE = 3


def _slice():
    corpus = load_corpus()
    bad = [entry for entry in corpus if not entry["good"]]
    good = [entry for entry in corpus if entry["good"]]
    picked = bad[::BAD_STRIDE] + good[::GOOD_STRIDE]
    kinds_seen = {entry["kind"] for entry in picked}
    picked += [e for e in bad if e["kind"] not in kinds_seen and not kinds_seen.add(e["kind"])]
    return picked


def _no_sleep(seconds: float) -> None:
    """Backoff waits are skipped."""


def test_the_corpus_slice_over_http(backend, httpx2_mock):
    route = httpx2_mock.post(backend.url)
    provider = backend.provider()  # one SDK client for the whole slice

    def fixer_for(entry):
        route.mock(return_value=backend.answer(entry["answer"]))
        return LLMFixer(provider, timeout=5.0, cache_size=0, sleep=_no_sleep)

    entries = _slice()
    outcomes = list(run_all(entries, fixer_for=fixer_for))

    assert route.call_count == len(entries)  # every answer came over the wire
    bad = [o for o in outcomes if not o.good]
    good = [o for o in outcomes if o.good]
    assert len(bad) >= 45 and len(good) >= 30
    assert [o.entry_id for o in bad if o.written or o.reported_success] == []
    missed = [o.entry_id for o in good if not o.as_intended]
    assert len(good) - len(missed) >= 0.95 * len(good), missed


@pytest.mark.parametrize("kind", ["flip_bool", "drop_decorator", "far_number"])
def test_one_unrequested_change_over_http_names_it(backend, httpx2_mock, kind, tmp_path):
    entry = next(e for e in load_corpus() if e["kind"] == kind)
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(entry["answer"]))
    fixer = LLMFixer(backend.provider(), timeout=5.0, cache_size=0, sleep=_no_sleep)

    (outcome,) = run_all([entry], fixer_for=lambda _: fixer)

    assert not outcome.written and outcome.error == "no_match"
