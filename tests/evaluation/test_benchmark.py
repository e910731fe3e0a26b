"""The bundled benchmark: reproducible from its script, well formed, controls pass."""

import gzip
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from rapidfuzz.distance import Levenshtein

from editengine import edit_text
from editengine._resources import benchmark_path
from editengine.evaluation._dataset import read_dataset
from editengine.evaluation._executors import EngineConfig
from editengine.evaluation._runner import run_cases
from editengine.evaluation._scoring import Outcome

BUILDER = Path(__file__).resolve().parents[2] / "fixtures" / "build_benchmark.py"


@pytest.fixture(scope="module")
def cases():
    return read_dataset(benchmark_path())


@pytest.fixture(scope="module")
def raw_cases():
    """The records as stored, with fields the loader does not keep (``intended_content``)."""
    with gzip.open(benchmark_path(), "rt", encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def test_builder_regenerates_the_committed_file_byte_for_byte(tmp_path):
    out = tmp_path / "benchmark.jsonl.gz"
    subprocess.run([sys.executable, str(BUILDER), "--out", str(out)], check=True)
    assert out.read_bytes() == benchmark_path().read_bytes()


def test_a_held_out_set_is_cut_from_another_tree_with_another_seed(tmp_path):
    sources = BUILDER.parent / "sources"
    tree = tmp_path / "project"
    for name in ("python/h11_connection.py", "python/cachetools_init.py", "go/client.go",
                 "go/proxy.go", "c/gun.c", "javascript/ssri_index.js"):  # fmt: skip
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_bytes((sources / name).read_bytes())
    (tree / ".git").mkdir()
    (tree / ".git" / "skipped.py").write_text("x = 1\n" * 500)  # hidden: never a source
    out = tmp_path / "held-out.jsonl"
    command = [sys.executable, str(BUILDER), "--from", str(tree), "--seed", "3", "--out"]
    subprocess.run([*command, str(out)], check=True, capture_output=True)
    held_out = list(read_dataset(out))
    assert len(held_out) >= 800 and len({c.category for c in held_out}) >= 15
    assert {c.file_name for c in held_out} >= {"python/h11_connection.py", "go/client.go"}
    assert not any(".git" in (c.file_name or "") for c in held_out)
    assert out.read_bytes() != benchmark_path().read_bytes()
    # The same tree and seed give the same cases.
    again = tmp_path / "again.jsonl"
    subprocess.run([*command, str(again)], check=True, capture_output=True)
    assert again.read_bytes() == out.read_bytes()


def test_size_and_balance(cases):
    """The category generators' 42 cases each (12 large files), then the cross product's
    cells and the refusal cells (tests/evaluation/test_cross_product_dataset.py checks
    those)."""
    assert len(cases) >= 2000
    legacy = Counter(c.category for c in cases if not c.id.startswith(("x-", "s-", "u-")))
    assert len(legacy) == 20
    assert set(legacy.values()) == {42, 12}, legacy
    per_category = Counter(c.category for c in cases)
    assert len(per_category) >= 25
    assert max(per_category.values()) <= 3 * min(per_category.values()) + 120


def test_languages_and_file_styles_are_varied(cases):
    suffixes = Counter(Path(c.file_name or "").suffix for c in cases)
    for suffix in (".py", ".js", ".ts", ".go", ".rs", ".c", ".yml", ".json", ".md"):
        assert suffixes[suffix] >= 10, suffix
    assert sum("\r\n" in c.content for c in cases) >= 50
    assert sum(c.content.startswith("\ufeff") for c in cases) >= 10
    assert sum(not c.content.endswith("\n") for c in cases) >= 10
    assert sum("\n\t" in c.content for c in cases) >= 100


def _crlf_only(text: str) -> bool:
    return "\r\n" in text and "\n" not in text.replace("\r\n", "")


def test_every_case_is_consistent(cases):
    for case in cases:
        if case.expect == "refuse":
            assert case.expected_content is None, case.id
            continue
        assert case.expected_content is not None, case.id
        if case.category != "already_applied":
            assert case.expected_content != case.content, case.id
        if _crlf_only(case.content):
            # A CRLF file stays CRLF-only.
            assert _crlf_only(case.expected_content), case.id
        assert case.expected_content.startswith("\ufeff") == case.content.startswith("\ufeff")


def test_intended_content_is_the_careful_humans_file(raw_cases):
    knowable_refusals = 0
    for case in raw_cases:
        intended = case.get("intended_content")
        if case["expect"] == "success":
            assert intended == case["expected_content"], case["id"]
        elif case["category"].startswith("llm_"):
            # The scripted answer is bad, yet the right edit is known.
            assert intended is not None and intended != case["content"], case["id"]
            knowable_refusals += 1
        elif case["category"] in ("ambiguous", "absent") or case["category"].startswith("near"):
            assert intended is None, case["id"]
    assert knowable_refusals >= 5


def test_mistaken_old_strings_really_break_exact_matching(raw_cases):
    tolerant = {"exact", "replace_all", "crlf", "ambiguous"}
    for case in raw_cases:
        kind = case.get("mistake", case["category"])  # large files name their mistake
        lf_old = case["old_string"].replace("\r\n", "\n")
        if kind in tolerant:
            continue
        if kind == "near_duplicate_trap" and case["expect"] == "success":
            continue  # the quote names one of two near-identical blocks exactly
        if kind == "already_applied" and lf_old in case["new_string"]:
            continue  # new contains old: after the first application old is still there
        if kind == "markdown_fence" and "around new" in case["notes"]:
            continue  # the fence wraps new_string only: old is quoted as the file has it
        if kind == "crlf_in_new":
            continue  # the mistake is in new_string only: old is quoted as the file has it
        assert lf_old not in case["content"].replace("\r\n", "\n"), case["id"]


def test_llm_only_mistakes_are_not_typos(cases):
    """A wrong name or a paraphrase is 3+ character edits from every line of the file: a
    typo-tolerant matcher (2 edits per line) must not be able to take it for a real line."""
    checked = 0
    for case in cases:
        if not case.category.startswith("llm_"):
            continue
        file_lines = [x.strip() for x in case.content.lstrip("\ufeff").splitlines()]
        present = set(file_lines)
        mistaken = [x.strip() for x in case.old_string.split("\n") if x.strip() not in present]
        assert mistaken, case.id
        for line in mistaken:
            nearest = min(Levenshtein.distance(line, other) for other in file_lines)
            assert nearest >= 3, (case.id, line)
        checked += 1
    assert checked >= 60


_WORD_EDGE = re.compile(r"^\w+|\w+$")


def test_quoted_fragments_start_and_end_at_token_boundaries(cases):
    """Models quote whole tokens: a one-line quote never starts or ends inside a word."""
    checked = 0
    for case in cases:
        old = case.old_string.strip()
        if "\n" in old or not old or case.category.startswith("llm_") or case.request == "retry":
            continue  # a retry's file was edited: its quote may now stand inside the new text
        if case.category == "double_escaped":
            continue  # a block escaped twice is one line whose edges are escape sequences
        for edge in _WORD_EDGE.findall(old):
            pattern = rf"(?<!\w){re.escape(edge)}(?!\w)"
            assert re.search(pattern, case.content), (case.id, edge)
        checked += 1
    assert checked >= 20


def test_ambiguous_cases_fit_several_places_equally(cases):
    for case in cases:
        if case.category != "ambiguous" or case.id.startswith("s-"):
            continue  # the refusal cells' quotes carry other mistakes: checked where cut
        content = case.content.lstrip("\ufeff").replace("\r\n", "\n")
        old = case.old_string
        verbatim = _bounded_occurrences(content, old)
        if verbatim:
            assert len(verbatim) >= 2 and content.count(old) == len(verbatim), case.id
            continue
        # Indentation off: the stripped lines fit several runs of the file, none exactly.
        lines = [x.strip() for x in content.split("\n")]
        want = [x.strip() for x in old.split("\n")]
        runs = [i for i in range(len(lines)) if lines[i : i + len(want)] == want]
        assert len(runs) >= 2, case.id
        blocks = {"\n".join(content.split("\n")[i : i + len(want)]) for i in runs}
        assert len(blocks) == 1, case.id  # identical copies: no place fits better


def _bounded_occurrences(content: str, old: str) -> list[int]:
    found, at = [], content.find(old)
    while at != -1:
        end = at + len(old)
        head = at == 0 or not (_is_word(content[at - 1]) and _is_word(old[0]))
        tail = end == len(content) or not (_is_word(content[end]) and _is_word(old[-1]))
        if head and tail:
            found.append(at)
        at = content.find(old, at + 1)
    return found


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


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

ASCII = {
    "\u201c": '"',
    "\u201d": '"',
    "\u2018": "'",
    "\u2019": "'",
    "\u2013": "-",
    "\u2014": "--",
    "\u00a0": " ",
}
# Elision markers as models write them: `...`, `[...]`, `<!-- ... -->`, `# ... existing code
# ...`, `// ... rest of the function ...`, `/* ... */`, `# rest of the code unchanged`.
MARKER = re.compile(r"^(?:\.\.\.|\[\.\.\.\]|<!-- \.\.\. -->|(?:#|//|/\*)\s*(?:\.\.\.|rest of).*)$")


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
    present = {line.strip() for line in content.split("\n")}
    k = next(
        i
        for i, line in enumerate(old)
        if MARKER.match(line.strip()) and line.strip() not in present
    )
    head, tail = "\n".join(old[:k]), "\n".join(old[k + 1 :])
    start = content.index(head)
    end = content.index(tail, start + len(head))
    gap = content[start + len(head) + 1 : end - 1]
    new = case.new_string.split("\n")
    new = [gap if line == old[k] else line for line in new]
    return content[start : end + len(tail)], "\n".join(new)


def _untypo(case) -> str:
    """old with its misspelt line replaced by the file line that puts the block back
    together (one character substituted, dropped, added or two swapped: at most 2 edits)."""
    content = case.content.lstrip("\ufeff").replace("\r\n", "\n")
    file_lines = content.split("\n")
    old = case.old_string.split("\n")
    (k,) = [i for i, line in enumerate(old) if line not in file_lines]
    near = {x for x in file_lines if Levenshtein.distance(x, old[k], score_cutoff=2) <= 2}
    blocks = {"\n".join([*old[:k], x, *old[k + 1 :]]) for x in near}
    (block,) = [b for b in blocks if f"\n{b}\n" in f"\n{content}\n"]  # whole lines
    return block


def _recovered(case) -> tuple[str, str] | None:
    if case.category == "one_char_typo":
        return _untypo(case), case.new_string
    if case.category == "over_escaped":
        return _unescape(case.old_string), _unescape(case.new_string)
    if case.category == "unicode_punctuation":
        return _asciify(case.old_string), _asciify(case.new_string)
    if case.category == "elision":
        return _expand_elision(case)
    if case.category.startswith("llm_") and case.expect == "success":
        answer = case.fixer_answers[0]
        return answer.search, answer.replace
    return None


def test_reference_recovery_gives_the_expected_file(cases):
    checked = 0
    for case in cases:
        recovered = _recovered(case) if case.request != "retry" else None
        if recovered is None:
            continue
        old, new = recovered
        edited = edit_text(
            case.content,
            old,
            new,
            replace_all=case.replace_all,
            expected_replacements=case.expected_replacements,
        )
        assert edited.new_content == case.expected_content, case.id
        checked += 1
    assert checked >= 150
