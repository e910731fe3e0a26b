"""The engine pipeline's own contracts: closing, each refusal word for word, the retries and the
checks between the match and the write."""

from __future__ import annotations

import asyncio


class _ClosableFixer:
    def __init__(self) -> None:
        self.closed: list[str] = []

    def fix(self, request):  # pragma: no cover - never asked in these tests
        raise AssertionError("not asked")

    async def afix(self, request):  # pragma: no cover - never asked in these tests
        raise AssertionError("not asked")

    def close(self) -> None:
        self.closed.append("close")


class _AsyncClosableFixer(_ClosableFixer):
    async def aclose(self) -> None:
        self.closed.append("aclose")


def test_closing_an_engine_closes_its_fixer_and_the_engine_still_edits(make_engine, write):
    path = write("a.txt", "one\n")
    fixer = _ClosableFixer()
    with make_engine(fixer=fixer) as engine:
        pass
    assert fixer.closed == ["close"]
    engine.edit("a.txt", "one", "two")
    assert path.read_text() == "two\n"


def test_an_async_close_awaits_the_fixer_s_aclose_when_it_has_one(make_engine):
    fixer = _AsyncClosableFixer()

    async def use() -> None:
        async with make_engine(fixer=fixer):
            pass

    asyncio.run(use())
    assert fixer.closed == ["aclose"]


def test_an_async_close_falls_back_to_the_fixer_s_close(make_engine):
    fixer = _ClosableFixer()

    async def use() -> None:
        async with make_engine(fixer=fixer):
            pass

    asyncio.run(use())
    assert fixer.closed == ["close"]
