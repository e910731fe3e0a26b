"""The bundled benchmark: reproducible from its script, well formed, controls pass."""

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from editengine import edit_text
from editengine._resources import benchmark_path
from editengine.evaluation.dataset import read_dataset
from editengine.evaluation.executors import EngineConfig
from editengine.evaluation.runner import run_cases
from editengine.evaluation.scoring import Outcome

BUILDER = Path(__file__).resolve().parents[2] / "fixtures" / "build_benchmark.py"


@pytest.fixture(scope="module")
def cases():
    return read_dataset(benchmark_path())


def test_builder_regenerates_the_committed_file_byte_for_byte(tmp_path):
    out = tmp_path / "benchmark.jsonl.gz"
    subprocess.run([sys.executable, str(BUILDER), "--out", str(out)], check=True)
    assert out.read_bytes() == benchmark_path().read_bytes()


def test_size_and_balance(cases):
    per_category = Counter(c.category for c in cases)
    assert len(cases) >= 800
    assert len(per_category) >= 15
    assert min(per_category.values()) >= 10
    assert max(per_category.values()) <= 3 * min(per_category.values()) + 20


def test_languages_and_file_styles_are_varied(cases):
    suffixes = Counter(Path(c.file_name or "").suffix for c in cases)
    for suffix in (".py", ".js", ".ts", ".go", ".rs", ".c", ".yml", ".json", ".md"):
        assert suffixes[suffix] >= 10, suffix
    assert sum("\r\n" in c.content for c in cases) >= 50
    assert sum(c.content.startswith("\ufeff") for c in cases) >= 10
    assert sum(not c.content.endswith("\n") for c in cases) >= 10
    assert sum("\n\t" in c.content for c in cases) >= 100


def test_every_case_is_consistent(cases):
    for case in cases:
        if case.expect == "refuse":
            assert case.expected_content is None, case.id
            continue
        assert case.expected_content is not None, case.id
        if case.category != "already_applied":
            assert case.expected_content != case.content, case.id
        if "\r\n" in case.content:
            # A CRLF file stays CRLF-only.
            assert "\n" not in case.expected_content.replace("\r\n", ""), case.id
        assert case.expected_content.startswith("\ufeff") == case.content.startswith("\ufeff")


def test_mistaken_old_strings_really_break_exact_matching(cases):
    tolerant = {"exact", "replace_all", "crlf", "ambiguous"}
    for case in cases:
        if case.category in tolerant:
            continue
        lf_old = case.old_string.replace("\r\n", "\n")
        assert lf_old not in case.content.replace("\r\n", "\n"), case.id


def test_llm_only_cases_carry_scripted_answers(cases):
    for case in cases:
        if case.category.startswith("llm_"):
            assert case.fixer_answers, case.id


def test_controls_pass_with_the_exact_tier_alone(cases):
    """Exact copies are placed by any cascade: a failure means a bad expected_content."""
    controls = [c for c in cases if c.category in ("exact", "crlf", "replace_all")]
    run = run_cases(controls, EngineConfig("exact-only", tiers=("exact",)))
    failures = [r.case.id for r in run.records if r.outcome is not Outcome.SUCCESS]
    assert failures == []


# A reference recovery per category: undo the category's mistake by hand, apply the edit
# exactly, and the result must be expected_content. This checks the dataset, not the engine.

ASCII = {"\u201c": '"', "\u201d": '"', "\u2019": "'", "\u2013": "-", "\u2014": "--", "\u00a0": " "}
MARKERS = ("# ... existing code ...", "// ...", "...")


def _unescape(text: str) -> str:
    for escaped, plain in (("\\n", "\n"), ("\\t", "\t"), ('\\"', '"'), ("\\'", "'")):
        text = text.replace(escaped, plain)
    return text


def _asciify(text: str) -> str:
    for fancy, plain in ASCII.items():
        text = text.replace(fancy, plain)
    return text


def _expand_elision(case) -> tuple[str, str]:
    content = case.content.lstrip("\ufeff").replace("\r\n", "\n")
    old = case.old_string.split("\n")
    k = next(i for i, line in enumerate(old) if line.strip() in MARKERS)
    head, tail = "\n".join(old[:k]), "\n".join(old[k + 1 :])
    start = content.index(head)
    end = content.index(tail, start + len(head))
    gap = content[start + len(head) + 1 : end - 1]
    new = case.new_string.split("\n")
    new = [gap if line == old[k] else line for line in new]
    return content[start : end + len(tail)], "\n".join(new)


def _recovered(case) -> tuple[str, str] | None:
    if case.category == "over_escaped":
        return _unescape(case.old_string), _unescape(case.new_string)
    if case.category == "unicode_punctuation":
        return _asciify(case.old_string), case.new_string
    if case.category == "elision":
        return _expand_elision(case)
    if case.category.startswith("llm_") and case.expect == "success":
        answer = case.fixer_answers[0]
        return answer.search, answer.replace
    return None


def test_reference_recovery_gives_the_expected_file(cases):
    checked = 0
    for case in cases:
        recovered = _recovered(case)
        if recovered is None:
            continue
        old, new = recovered
        assert edit_text(case.content, old, new).new_content == case.expected_content, case.id
        checked += 1
    assert checked >= 150
