"""Small hand-made datasets for the evaluation tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FILE = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"

SMALL_CASES = [
    {
        "id": "exact-1",
        "category": "exact",
        "content": FILE,
        "old_string": "    return a + b",
        "new_string": "    return b + a",
        "expect": "success",
        "expected_content": FILE.replace("a + b", "b + a"),
        "instruction": "Swap the operands.",
    },
    {
        "id": "absent-1",
        "category": "absent",
        "content": FILE,
        "old_string": "def mul(a, b):\n    return a * b",
        "new_string": "def mul(a, b):\n    return b * a",
        "expect": "refuse",
        "expected_content": None,
    },
    {
        "id": "ambiguous-1",
        "category": "ambiguous",
        "content": FILE,
        "old_string": "(a, b):",
        "new_string": "(a, b, c):",
        "expect": "refuse",
        "expected_content": None,
    },
    {
        "id": "indent-1",
        "category": "indentation_shift",
        "content": FILE,
        "old_string": "return a - b",
        "new_string": "return b - a",
        "expect": "success",
        "expected_content": FILE.replace("a - b", "b - a"),
        "notes": "old is a fragment of one line: exact matching already places it",
    },
    {
        "id": "indent-2",
        "category": "indentation_shift",
        "content": FILE,
        "old_string": "def sub(a, b):\nreturn a - b",
        "new_string": "def sub(a, b):\nreturn b - a",
        "expect": "success",
        "expected_content": FILE.replace("a - b", "b - a"),
        "unknown_field": "ignored",
    },
]


# Cases only an LLM can place: old_string names what the file calls otherwise.
_ADD_FIXED = FILE.replace("return a + b", "return b + a")

LLM_CASES = [
    {
        "id": "llm-good",
        "category": "llm_wrong_identifier",
        "content": FILE,
        "old_string": "    return alpha + beta",
        "new_string": "    return beta + alpha",
        "instruction": "In add, swap the operands of the sum.",
        "expect": "success",
        "expected_content": _ADD_FIXED,
        "fixer_answers": [
            {
                "search": "    return a + b",
                "replace": "    return b + a",
                "noChangesRequired": False,
                "explanation": "The parameters are a and b.",
            }
        ],
    },
    {
        "id": "llm-bad-search",
        "category": "llm_wrong_identifier",
        "content": FILE,
        "old_string": "def add(x, y):\n    return x + y",
        "new_string": "def add(x, y):\n    return y + x",
        "instruction": "In add, swap the operands of the sum.",
        "expect": "success",
        "expected_content": _ADD_FIXED,
        "fixer_answers": [
            {"search": "def add(p, q):\n    return p + q", "replace": "nothing", "explanation": ""}
        ],
    },
    {
        "id": "llm-false-no-change",
        "category": "llm_paraphrased",
        "content": FILE,
        "old_string": "    return sum_of(a, b)",
        "new_string": "    return sum_of(b, a)",
        "instruction": "In add, swap the operands of the sum.",
        "expect": "success",
        "expected_content": _ADD_FIXED,
        "fixer_answers": [
            {"search": "", "replace": "", "noChangesRequired": True, "explanation": "done"}
        ],
    },
    {
        "id": "llm-unanswered",
        "category": "absent",
        "content": FILE,
        "old_string": "def mul(a, b):\n    return a * b",
        "new_string": "def mul(a, b):\n    return b * a",
        "expect": "refuse",
    },
]


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def small_dataset(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "small.jsonl", SMALL_CASES)


@pytest.fixture
def llm_dataset(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "llm.jsonl", LLM_CASES)
