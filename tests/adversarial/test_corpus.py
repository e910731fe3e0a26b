"""The fixer guard over the adversarial corpus, through EditEngine on real files.

A scripted model gives each answer of ``corpus.json`` (built by ``build_corpus.py`` from
``base_cases.py``): no answer that makes a change nobody asked for may change a file, and the
sound corrections must be written exactly as intended (a guard that refuses everything
fails here).
"""

from __future__ import annotations

import pytest

from editengine import edit_text
from editengine._errors import NoMatch

from .base_cases import BASE_CASES
from .build_corpus import build, render
from .runner import CORPUS_PATH, load_corpus, run_all

# Every kind of unrequested change the corpus must hold.
BAD_KINDS = {
    "flip_bool", "change_number", "swap_operands", "string_literal", "drop_line",
    "drop_decorator", "drop_return", "duplicate_line", "reorder_lines", "add_line",
    "delete_instead", "respace_only", "paste_new", "other_name", "far_dropped",
    "far_number", "far_added", "false_no_change", "mid_word",
}  # fmt: skip
GOOD_KINDS = {
    "as_quoted", "more_before", "more_after", "more_around", "only_changed_lines",
    "unindented_quote",
}  # fmt: skip


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


@pytest.fixture(scope="module")
def outcomes(corpus):
    return list(run_all(corpus))


def test_the_committed_corpus_is_what_the_script_builds():
    assert CORPUS_PATH.read_text(encoding="utf-8") == render(build()), (
        "corpus.json is stale: run python tests/adversarial/build_corpus.py"
    )


def test_the_corpus_is_large_and_varied(corpus):
    bad = [entry for entry in corpus if not entry["good"]]
    good = [entry for entry in corpus if entry["good"]]
    assert len(bad) >= 300 and len(good) >= 50
    assert len(BASE_CASES) >= 20
    assert len({base.language for base in BASE_CASES}) >= 6
    assert {entry["kind"] for entry in bad} >= BAD_KINDS
    assert {entry["kind"] for entry in good} >= GOOD_KINDS
    assert any(base.replace_all for base in BASE_CASES)


@pytest.mark.parametrize("base", BASE_CASES, ids=lambda base: base.name)
def test_every_base_case_needs_the_fixer(base):
    # No tier of the cascade places old_string: only a fixer answer can reach the file.
    with pytest.raises(NoMatch):
        edit_text(base.content, base.old, base.new, replace_all=base.replace_all)
    count = base.content.count(base.search)
    assert count > 1 if base.replace_all else count == 1


def test_no_unrequested_change_is_ever_written(outcomes):
    bad = [outcome for outcome in outcomes if not outcome.good]
    assert all(outcome.fixer_asked for outcome in bad)
    assert [o.entry_id for o in bad if o.written] == []
    assert [o.entry_id for o in bad if o.reported_success] == []
    assert {o.error for o in bad} == {"no_match"}


def test_sound_corrections_are_written_exactly_as_intended(outcomes):
    good = [outcome for outcome in outcomes if outcome.good]
    assert all(outcome.fixer_asked for outcome in good)
    missed = [o.entry_id for o in good if not o.as_intended]
    assert len(good) - len(missed) >= 0.95 * len(good), missed
    # Every base case's own correction, as a model would quote it, is written.
    assert [o.entry_id for o in good if o.kind == "as_quoted" and not o.as_intended] == []
    # A refused sound correction leaves the file as it was.
    assert all(not o.written for o in good if not o.as_intended)
