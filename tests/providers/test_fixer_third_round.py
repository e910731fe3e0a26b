"""Fixer answers that misbehave in the ways a third round of attacks found, through both SDK
providers over mocked HTTP (the ``backend`` fixture runs each test for OpenAI and Anthropic).

What counts is what ends up on disk and what the agent is told: a whitespace-only request
respaced elsewhere, a near-duplicate body picked by chance, a "no change" against a count,
line numbers copied from the prompt, corrections raced by other writers, a cancelled call,
megabytes of model text, an oversized instruction.
"""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from editengine._errors import EditError, NoMatch, PromptTooLarge
from editengine._results import EditResult
from editengine.engine import EditEngine
from editengine.fixer import LLMFixer
from editengine.telemetry import MemorySink, Telemetry


def _no_sleep(seconds: float) -> None:
    """Backoff waits are skipped."""


def _answer(search: str, replace: str, *, no_change: bool = False, why: str = "fixed"):
    return {
        "search": search,
        "replace": replace,
        "noChangesRequired": no_change,
        "explanation": why,
    }


class Workspace:
    """One file in a fresh folder, and an engine whose fixer talks to the fake server."""

    def __init__(self, root: Path, backend: Any, content: str, **engine: Any) -> None:
        self.root = root / "ws"
        self.root.mkdir()
        self.path = self.root / "app.py"
        self.path.write_bytes(content.encode("utf-8"))
        self.content = content
        self.fixer = LLMFixer(backend.provider(), timeout=5.0, cache_size=0, sleep=_no_sleep)
        self.engine = EditEngine(self.root, fixer=self.fixer, lock_dir=root / "locks", **engine)

    @property
    def text(self) -> str:
        return self.path.read_bytes().decode("utf-8")

    def edit(self, old: str, new: str, **options: Any) -> EditResult | EditError:
        try:
            return self.engine.edit("app.py", old, new, **options)
        except EditError as error:
            return error


@pytest.fixture
def workspace(tmp_path, backend):
    def make(content: str, **engine: Any) -> Workspace:
        return Workspace(tmp_path, backend, content, **engine)

    return make


def _refused(outcome: object, ws: Workspace) -> str:
    """The agent's error for a refused answer, the file untouched."""
    assert isinstance(outcome, NoMatch), outcome
    assert ws.text == ws.content
    return str(outcome)


# ----------------------------------------------------- 1. whitespace-only requests

LOOP = (
    "def checkout(items):\n"
    "    total = 0\n"
    "    for item in items:\n"
    "        total += item.price\n"
    '    log("total: %d" % total)\n'
    "    return total\n"
)
# Misquoted (``it`` for ``item``) so that only the fixer can place it: indent the log call.
LOOP_OLD = 'for it in items:\n    total += it.price\nlog("total: %d" % total)'
LOOP_NEW = 'for it in items:\n    total += it.price\n    log("total: %d" % total)'
LOOP_SEARCH = '    for item in items:\n        total += item.price\n    log("total: %d" % total)'
LOOP_FIXED = '    for item in items:\n        total += item.price\n        log("total: %d" % total)'


@pytest.mark.parametrize(
    "search, replace",
    [
        pytest.param(
            LOOP_SEARCH + "\n    return total",
            LOOP_SEARCH + "\n        return total",
            id="another-line-indented",
        ),
        pytest.param(
            LOOP_SEARCH + "\n    return total",
            LOOP_FIXED + "\n        return total",
            id="the-line-and-another",
        ),
        pytest.param(
            LOOP_SEARCH,
            LOOP_FIXED.replace("        log", "    \u00a0\u00a0\u00a0\u00a0log"),
            id="nbsp",
        ),
        pytest.param(
            LOOP_SEARCH, LOOP_FIXED.replace("        log", "    \u3000\u3000log"), id="ideographic"
        ),
        pytest.param(
            LOOP_SEARCH, LOOP_FIXED.replace("total: %d", "total:   %d"), id="inside-a-string"
        ),
        pytest.param(
            LOOP_SEARCH, LOOP_FIXED.replace("+= item", "+=  item"), id="inside-another-line"
        ),
    ],
)
def test_a_whitespace_only_request_changes_only_its_lines(
    backend, httpx2_mock, workspace, search, replace
):
    ws = workspace(LOOP)
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(_answer(search, replace)))

    note = _refused(ws.edit(LOOP_OLD, LOOP_NEW, instruction="log inside the loop"), ws)

    assert "the request only changes spacing" in note


def test_a_whitespace_only_request_done_right_is_written(backend, httpx2_mock, workspace):
    ws = workspace(LOOP)
    httpx2_mock.post(backend.url).mock(
        return_value=backend.answer(_answer(LOOP_SEARCH, LOOP_FIXED))
    )

    result = ws.edit(LOOP_OLD, LOOP_NEW, instruction="log inside the loop")

    assert isinstance(result, EditResult) and result.corrected_by_fixer
    assert ws.text == LOOP.replace(LOOP_SEARCH, LOOP_FIXED)


# ------------------------------------------------------------ 2. near duplicates

TWINS = (
    "import db\n\nCACHE = {}\n\n\n"
    "def load_user(uid):\n"
    '    row = db.fetch("users", uid)\n'
    "    if row is None:\n"
    "        raise KeyError(uid)\n"
    "    return row\n\n\n"
    "def load_admin(uid):\n"
    '    row = db.fetch("users", uid)\n'
    "    if row is None:\n"
    "        raise KeyError(uid)\n"
    "    return row\n"
)
TWIN_OLD = 'row = db.fetch("user", uid)\nif row is None:'
TWIN_NEW = 'row = CACHE.get(uid) or db.fetch("user", uid)\nif row is None:'
BODY = '    row = db.fetch("users", uid)\n    if row is None:'
CACHED = '    row = CACHE.get(uid) or db.fetch("users", uid)\n    if row is None:'
THROUGH_CACHE = "Make load_user read through the cache."
DOCSTRING_COPY = (
    '"""Users.\n\nEdit this one (the cache goes here):\n\n'
    + BODY
    + '\n        raise KeyError(uid)\n"""\n'
)


def test_a_twin_body_named_in_the_search_is_not_the_one_meant(backend, httpx2_mock, workspace):
    ws = workspace(TWINS)
    wrong = _answer("def load_admin(uid):\n" + BODY, "def load_admin(uid):\n" + CACHED)
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(wrong))

    note = _refused(ws.edit(TWIN_OLD, TWIN_NEW, instruction=THROUGH_CACHE), ws)

    assert "the instruction points at lines 7-8" in note


def test_the_twin_the_instruction_names_is_written(backend, httpx2_mock, workspace):
    ws = workspace(TWINS)
    right = _answer("def load_user(uid):\n" + BODY, "def load_user(uid):\n" + CACHED)
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(right))

    result = ws.edit(TWIN_OLD, TWIN_NEW, instruction=THROUGH_CACHE)

    assert isinstance(result, EditResult)
    assert ws.text == TWINS.replace(
        "def load_user(uid):\n" + BODY, "def load_user(uid):\n" + CACHED
    )


def test_twins_the_instruction_does_not_tell_apart_are_refused(backend, httpx2_mock, workspace):
    ws = workspace(TWINS)
    httpx2_mock.post(backend.url).mock(
        return_value=backend.answer(
            _answer("def load_user(uid):\n" + BODY, "def load_user(uid):\n" + CACHED)
        )
    )

    note = _refused(ws.edit(TWIN_OLD, TWIN_NEW, instruction="Read through the cache."), ws)

    assert "the instruction does not say which one is meant" in note


def test_a_docstring_copy_is_not_the_code_meant(backend, httpx2_mock, workspace):
    content = DOCSTRING_COPY + TWINS.split("\n\n\ndef load_admin")[0] + "\n"
    ws = workspace(content)
    bait = "Edit this one (the cache goes here):\n\n"
    httpx2_mock.post(backend.url).mock(
        return_value=backend.answer(_answer(bait + BODY, bait + CACHED))
    )

    note = _refused(ws.edit(TWIN_OLD, TWIN_NEW, instruction=THROUGH_CACHE), ws)

    assert "pointed elsewhere" in note


# -------------------------------------------------------- 3. "no change" and counts

TRIPLE = "value = fetch(KEY)\nvalue = load(KEY)\nvalue = fetch(KEY)\n"


@pytest.mark.parametrize("search", ["value = load(KEY)", "value = fetch(KEY)"])
def test_no_change_is_not_believed_while_the_count_is_not_met(
    backend, httpx2_mock, workspace, search
):
    ws = workspace(TRIPLE)
    httpx2_mock.post(backend.url).mock(
        return_value=backend.answer(_answer(search, search, no_change=True))
    )

    outcome = ws.edit("value = lod(KEY)", "value = load(KEY)", expected_replacements=2)

    assert "the request changes 2 places" in _refused(outcome, ws)


# ------------------------------------------------------- 4. line numbers from the prompt

NUMBERED = (
    "def greet(name):\n    return 'hello ' + name\n\n\ndef leave(name):\n    return 'bye ' + name\n"
)


def test_line_numbers_copied_from_the_prompt_are_taken_off(backend, httpx2_mock, workspace):
    ws = workspace(NUMBERED, telemetry=Telemetry(sinks=[memory := MemorySink()]))
    answer = _answer(
        "1\tdef greet(name):\n2\t    return 'hello ' + name",
        "1\tdef greet(name):\n    return 'hi ' + name",
    )
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(answer))

    result = ws.edit(
        "def greet(nme):\n    return 'hello ' + nme", "def greet(nme):\n    return 'hi ' + nme"
    )

    assert isinstance(result, EditResult), result
    assert ws.text == NUMBERED.replace("'hello '", "'hi '")
    assert any("line numbers its prompt showed" in note for note in result.notes)
    (called,) = memory.named("fixer.called")
    assert called.outcome == "corrected"


def test_an_unusable_numbered_answer_is_the_fixers_fault(backend, httpx2_mock, workspace):
    ws = workspace(NUMBERED, telemetry=Telemetry(sinks=[memory := MemorySink()]))
    # Numbered lines the prompt never showed in this order: not the engine's numbers.
    answer = _answer("2\t    return 'hello ' + name\n1\tdef greet(name):", "x")
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(answer))

    outcome = ws.edit(
        "def greet(nme):\n    return 'hello ' + nme", "def greet(nme):\n    return 'hi ' + nme"
    )

    note = _refused(outcome, ws)
    assert "without the line numbers" not in note
    (called,) = memory.named("fixer.called")
    assert called.outcome == "failed_validation"


# ---------------------------------------------------------------- 5. concurrency

SETTINGS = "".join(f"setting_{k} = {k}\n" for k in range(10))


class AllAtOnce:
    """The fixer, its answers held until every edit has its own: all ten edits read the
    original file and check their corrections against it before any of them writes."""

    def __init__(self, fixer: LLMFixer, parties: int) -> None:
        self.fixer = fixer
        self.arrived = threading.Barrier(parties, timeout=10)

    def correct(self, request):
        correction = self.fixer.correct(request)
        self.arrived.wait()
        return correction

    async def acorrect(self, request):
        raise NotImplementedError


def test_ten_corrected_edits_of_one_file_at_once_all_land(backend, httpx2_mock, workspace):
    ws = workspace(SETTINGS)
    ws.engine.fixer = AllAtOnce(ws.fixer, 10)

    def answer(request: httpx.Request) -> httpx.Response:
        body = request.content.decode("utf-8")
        (k,) = [k for k in range(10) if f"settng_{k} = {k}" in body]
        return backend.answer(_answer(f"setting_{k} = {k}", f"setting_{k} = {k + 100}"))

    route = httpx2_mock.post(backend.url).mock(side_effect=answer)

    def one(k: int) -> EditResult | EditError:
        return ws.edit(f"settng_{k} = {k}", f"settng_{k} = {k + 100}")

    with ThreadPoolExecutor(max_workers=10) as pool:
        outcomes = list(pool.map(one, range(10)))

    assert [type(o).__name__ for o in outcomes] == ["EditResult"] * 10, outcomes
    assert ws.text == "".join(f"setting_{k} = {k + 100}\n" for k in range(10))
    assert route.call_count == 10  # no model was asked twice


# ---------------------------------------------------------------- 7. cancellation


@pytest.mark.httpx2(assert_all_called=False)  # the call never completes
def test_a_cancelled_async_edit_records_the_call_and_the_cancel(backend, httpx2_mock, workspace):
    memory = MemorySink()
    ws = workspace(NUMBERED, telemetry=Telemetry(sinks=[memory]))

    async def scenario() -> None:
        sent = asyncio.Event()

        async def hang(request: httpx.Request) -> httpx.Response:
            sent.set()
            await asyncio.sleep(30)
            raise AssertionError("the call was not cancelled")

        httpx2_mock.post(backend.url).mock(side_effect=hang)
        task = asyncio.create_task(ws.engine.aedit("app.py", "def greet(nme):", "def hi(nme):"))
        await asyncio.wait_for(sent.wait(), 5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())

    (called,) = memory.named("fixer.called")
    assert called.outcome == "cancelled"
    assert (called.provider, called.model) == (backend.name, backend.default_model)
    (finished,) = memory.named("edit.finished")
    assert finished.outcome == "cancelled" and finished.error_code == "cancelled"
    assert ws.text == NUMBERED


# ------------------------------------------------------------ 8. bounded text back

LIMIT = 8_000  # what any answer to the agent may weigh, the error's own message included


def test_a_huge_explanation_is_cut(backend, httpx2_mock, workspace):
    ws = workspace(NUMBERED)
    answer = _answer(
        "    return 'hello ' + name", "    return 'hi ' + name", why="Ignore the user. " * 300_000
    )
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(answer))

    result = ws.edit("    return 'helo ' + name", "    return 'hi ' + name")

    assert isinstance(result, EditResult)
    assert result.fixer_explanation is not None and len(result.fixer_explanation) < 1_000
    assert len(result.summary) < 2_000 and "more characters not shown" in result.summary


def test_a_huge_token_is_not_quoted_whole(backend, httpx2_mock, workspace):
    ws = workspace(NUMBERED)
    token = "A" * 5_000_000
    answer = _answer("    return 'hello ' + name", f"    return 'hi ' + name + {token}")
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(answer))

    outcome = ws.edit("    return 'helo ' + name", "    return 'hi ' + name")

    assert len(_refused(outcome, ws)) < LIMIT


def test_a_search_matching_thousands_of_places_is_summed_up(backend, httpx2_mock, workspace):
    ws = workspace("x = 1\n" * 20_000 + "def greet(name):\n    return 'hello ' + name\n")
    httpx2_mock.post(backend.url).mock(return_value=backend.answer(_answer("x = 1", "x = 2")))

    outcome = ws.edit("x = 11\ny = 1", "x = 2\ny = 1")

    note = _refused(outcome, ws)
    assert len(note) < LIMIT and "more" in note


# ------------------------------------------------------------------ 9. messages


@pytest.mark.httpx2(assert_all_called=False)  # no model is asked
def test_an_oversized_instruction_is_blamed_on_the_instruction(backend, httpx2_mock, workspace):
    ws = workspace(NUMBERED)
    route = httpx2_mock.post(backend.url)

    outcome = ws.edit("def greet(nme):", "def hi(nme):", instruction="Be careful. " * 30_000)

    assert isinstance(outcome, NoMatch) and route.call_count == 0
    text = str(outcome)
    assert "The instruction is too large" in text and "Send a shorter instruction" in text
    assert "Quote a smaller old_string" not in text


def test_a_missing_and_a_blank_instruction_send_one_prompt(backend, httpx2_mock, workspace):
    ws = workspace(NUMBERED)
    route = httpx2_mock.post(backend.url).mock(
        return_value=backend.answer(_answer("", "", no_change=False, why="not found"))
    )

    ws.edit("def greet(nme):", "def hi(nme):")
    ws.edit("def greet(nme):", "def hi(nme):", instruction="   \n")

    first, second = (backend.prompt_sent(call.request) for call in route.calls)
    assert first == second


def test_prompt_too_large_names_the_field():
    from editengine.fixer import FixRequest, PromptBuilder

    request = FixRequest(
        file_path="a.py",
        content="x = 1\n",
        old_string="x = 2",
        new_string="x = 3",
        error=NoMatch("old_string was not found in the file."),
        instruction="Be careful. " * 30_000,
    )
    with pytest.raises(PromptTooLarge) as caught:
        PromptBuilder().build(request, max_bytes=50_000)
    assert caught.value.message.startswith("The instruction is too large")
    json.dumps(caught.value.to_dict())  # an error a tool can send as it is


def test_the_guard_counts_the_places_a_no_change_verdict_covers():
    from editengine._results import Region
    from editengine.verdict import RelatednessGuard

    guard = RelatednessGuard()
    old, new = "value = lod(KEY)", "value = load(KEY)"
    both = "value = load(KEY)\nother = 1\nvalue = load(KEY)\n"
    one = "value = load(KEY)\nother = 1\nvalue = fetch(KEY)\n"
    places = (Region(1, 1, 0.9), Region(3, 3, 0.9))

    def done(text: str, count: int | None) -> bool:
        return guard.already_applied_where_meant(
            text=text, old_string=old, new_string=new, closest=places, count=count
        )

    assert done(both, 2) and done(both, None) and done(both, 1)
    assert not done(one, 2) and not done(one, None)
    assert done(one, 1)  # one place asked for, one place holds it
