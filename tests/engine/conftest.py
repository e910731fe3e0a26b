"""Shared fixtures: a temp workspace, an engine on it, a fake fixer, a recording observer."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from editengine._state import EditState
from editengine.engine import EditEngine
from editengine.fixer._protocol import Correction, FixRequest


@pytest.fixture
def lock_dir(tmp_path: Path) -> Path:
    return tmp_path / "locks"


@pytest.fixture
def make_engine(workspace: Path, lock_dir: Path) -> Callable[..., EditEngine]:
    def make(**options: object) -> EditEngine:
        options.setdefault("lock_dir", lock_dir)
        return EditEngine(workspace, **options)  # type: ignore[arg-type]  # passed on as given

    return make


@pytest.fixture
def engine(make_engine: Callable[..., EditEngine]) -> EditEngine:
    return make_engine()


@pytest.fixture
def write(workspace: Path) -> Callable[[str, bytes | str], Path]:
    """Create ``workspace/relative`` with exactly these bytes (str is UTF-8 encoded as is)."""

    def write(relative: str, content: bytes | str) -> Path:
        path = workspace / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return path

    return write


def listing(directory: Path) -> list[str]:
    """Every entry under ``directory`` (to prove no temp file or folder was left behind)."""
    return sorted(
        os.path.relpath(os.path.join(folder, name), directory)
        for folder, dirs, files in os.walk(directory)
        for name in [*dirs, *files]
    )


@pytest.fixture
def tree() -> Callable[[Path], list[str]]:
    return listing


class FakeFixer:
    """A scripted :class:`~editengine.fixer._protocol.Fixer`: answers (or raises) in order.

    ``during`` runs inside each call, to act while the fixer "thinks" (e.g. change the file).
    """

    def __init__(
        self,
        *answers: Correction | BaseException,
        during: Callable[[FixRequest], None] | None = None,
    ) -> None:
        self.answers = list(answers)
        self.requests: list[FixRequest] = []
        self.async_calls = 0
        self.during = during

    def correct(self, request: FixRequest) -> Correction:
        self.requests.append(request)
        if self.during is not None:
            self.during(request)
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    async def acorrect(self, request: FixRequest) -> Correction:
        self.async_calls += 1
        return self.correct(request)


@pytest.fixture
def fake_fixer() -> type[FakeFixer]:
    return FakeFixer


class RecordingObserver:
    def __init__(self) -> None:
        self.events: list[tuple[str, EditState]] = []
        self.snapshots: list[tuple[str, str | None, str]] = []

    def edit_started(self, state: EditState) -> None:
        self.events.append(("started", state))
        self.snapshots.append(("started", state.outcome, state.file_path))

    def edit_finished(self, state: EditState) -> None:
        self.events.append(("finished", state))
        self.snapshots.append(("finished", state.outcome, state.file_path))


@pytest.fixture
def observer() -> Iterator[RecordingObserver]:
    yield RecordingObserver()
