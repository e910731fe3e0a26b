from __future__ import annotations

import pytest

from editengine._errors import NoMatch, Region
from editengine.fixer import FixRequest

ANSWER = {
    "search": "    return 1",
    "replace": "    return 2",
    "noChangesRequired": False,
    "explanation": "Indentation differed.",
}


def make_request(
    content: str = "def f():\n    return 1\n",
    *,
    old: str = "def f():\n  return 1",
    new: str = "def f():\n  return 2",
    instruction: str | None = "Make f return 2.",
    closest: tuple[Region, ...] = (),
    path: str = "f.py",
) -> FixRequest:
    return FixRequest(
        file_path=path,
        content=content,
        old_string=old,
        new_string=new,
        error=NoMatch("old_string was not found in the file.", closest=closest),
        instruction=instruction,
    )


class FakeClock:
    """A clock that only moves when told to, or when the fake sleep sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    async def async_sleep(self, seconds: float) -> None:
        self.sleep(seconds)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def request_factory():
    return make_request
