"""Run the hand-written corpus's answers (``attack_cases.py``) through EditEngine.

Each answer is given by a scripted model, for its scenario's edit, on a fresh copy of the
scenario's file; what counts is what ends up on disk.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from attack_cases import BY_NAME, Answer  # noqa: E402  # after sys.path names this folder

from editengine._errors import EditError  # noqa: E402  # after sys.path names this folder
from editengine.engine import EditEngine  # noqa: E402  # after sys.path names this folder
from editengine.fixer import LLMFixer  # noqa: E402  # after sys.path names this folder
from editengine.providers import ScriptedProvider  # noqa: E402  # after sys.path names this folder


@dataclass(frozen=True)
class Result:
    answer: Answer
    after: str
    error: str | None
    asked: bool

    @property
    def untouched(self) -> bool:
        return self.after == BY_NAME[self.answer.scenario].content

    @property
    def as_intended(self) -> bool:
        return self.after == BY_NAME[self.answer.scenario].expected


def run(answer: Answer, root: Path) -> Result:
    scenario = BY_NAME[answer.scenario]
    workspace = root / "ws"
    path = workspace / scenario.path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(scenario.content.encode("utf-8"))
    provider = ScriptedProvider([answer.payload()])
    engine = EditEngine(workspace, fixer=LLMFixer(provider, cache_size=0), lock_dir=root / "locks")
    error = None
    try:
        engine.edit(
            scenario.path,
            scenario.old if answer.old is None else answer.old,
            scenario.new if answer.new is None else answer.new,
            instruction=scenario.instruction,
        )
    except EditError as failure:
        error = failure.code
    return Result(answer, path.read_bytes().decode("utf-8"), error, bool(provider.requests))


def run_every(answers: list[Answer]) -> Iterator[Result]:
    with tempfile.TemporaryDirectory(prefix="attack-corpus-") as scratch:
        for number, answer in enumerate(answers):
            yield run(answer, Path(scratch) / str(number))
