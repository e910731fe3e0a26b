"""`editengine batch`: the JSON Lines protocol, driven as a harness in another language would."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

COMMAND = [sys.executable, "-m", "editengine", "batch"]


@pytest.fixture
def batch():
    process = subprocess.Popen(
        COMMAND,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    yield process
    process.kill()
    process.wait()


def ask(process, line: str) -> dict:
    process.stdin.write(line + "\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())


def test_each_answer_is_flushed_before_the_next_request(batch):
    request = {"id": "a", "content": "x = 1\n", "old_string": "x = 1", "new_string": "x = 2"}
    answer = ask(batch, json.dumps(request))
    assert answer["id"] == "a" and answer["ok"] is True
    assert answer["new_content"] == "x = 2\n" and answer["strategy"] == "exact"
    assert answer["error"] is None and answer["error_code"] is None
    assert isinstance(answer["elapsed_ms"], float)
    second = ask(batch, json.dumps({**request, "id": "b", "old_string": "nope"}))
    assert second["id"] == "b" and second["ok"] is False and second["error_code"] == "no_match"


def run_batch(lines: list[str]) -> list[dict]:
    completed = subprocess.run(
        COMMAND, input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
    )
    return [json.loads(line) for line in completed.stdout.splitlines()]


def test_one_answer_per_line_in_order_and_malformed_lines_do_not_stop_the_run():
    good = {"content": "a b", "old_string": "a", "new_string": "c"}
    answers = run_batch(
        [
            json.dumps({**good, "id": "1"}),
            "{not json",
            json.dumps({"id": "3", "content": "a"}),
            "",
            json.dumps(["a list"]),
            json.dumps({**good, "id": "6", "replace_all": True, "future_field": 1}),
            json.dumps({**good, "id": "7", "expected_replacements": "two"}),
            json.dumps({**good, "id": "8", "match_mode": "nonsense"}),
        ]
    )
    assert [a["id"] for a in answers] == ["1", None, "3", None, None, "6", "7", "8"]
    assert [a["ok"] for a in answers] == [True, False, False, False, False, True, False, False]
    assert [a["error_code"] for a in answers[1:5]] == ["bad_request"] * 4
    assert answers[5]["new_content"] == "c b"
    assert answers[6]["error_code"] == "bad_request"
    assert answers[7]["error_code"] == "bad_request"
    for answer in answers:
        assert set(answer) == {
            "id", "ok", "new_content", "strategy", "error", "error_code", "elapsed_ms",
            "diagnostics",
        }  # fmt: skip
        assert answer["diagnostics"] == []  # no path: no language, no syntax check


def test_refusals_carry_their_codes():
    answers = run_batch(
        [
            json.dumps({"id": "amb", "content": "x\nx\n", "old_string": "x", "new_string": "y"}),
            json.dumps(
                {
                    "id": "count",
                    "content": "x\nx\n",
                    "old_string": "x",
                    "new_string": "y",
                    "expected_replacements": 3,
                }
            ),
        ]
    )
    assert [a["error_code"] for a in answers] == ["ambiguous", "count_mismatch"]
    assert "line 1, line 2" in answers[0]["error"]


def test_unicode_and_crlf_round_trip_through_json():
    request = {
        "id": "u",
        "content": "s = “é”\r\n",
        "old_string": "s = “é”",
        "new_string": "s = “ü”",
    }
    (answer,) = run_batch([json.dumps(request, ensure_ascii=False)])
    assert answer["new_content"] == "s = “ü”\r\n"


def test_an_empty_old_string_replaces_content_only_with_overwrite_or_its_hash(batch):
    content = "keep = 1\n"
    lost = {"id": 1, "content": content, "old_string": "", "new_string": "gone\n"}
    refused = ask(batch, json.dumps(lost))
    assert refused["ok"] is False and refused["error_code"] == "overwrite_required"
    assert "overwrite=true" in refused["error"]
    assert ask(batch, json.dumps({**lost, "overwrite": True}))["new_content"] == "gone\n"
    digest = hashlib.sha256(content.encode()).hexdigest()
    by_hash = ask(batch, json.dumps({**lost, "expected_hash": digest}))
    assert by_hash["ok"] is True and by_hash["new_content"] == "gone\n"
    stale = ask(batch, json.dumps({**lost, "expected_hash": "0" * 64}))
    assert stale["ok"] is False and stale["error_code"] == "stale_file"
    not_a_flag = ask(batch, json.dumps({**lost, "overwrite": "yes"}))
    assert not_a_flag["error_code"] == "bad_request"
