"""Run corpus answers through :class:`~editengine.engine.EditEngine` on real files.

Each answer is given by a fixer over a provider that answers it (``ScriptedProvider`` by
default; the HTTP tests pass the SDK providers instead), for the base case's edit, on a fresh
copy of the base case's file. What counts is what ends up on disk.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from base_cases import BASE_CASES, BaseCase  # noqa: E402  # after sys.path names this folder

from editengine._errors import EditError  # noqa: E402  # after sys.path names this folder
from editengine.engine import EditEngine  # noqa: E402  # after sys.path names this folder
from editengine.fixer import LLMFixer  # noqa: E402  # after sys.path names this folder
from editengine.providers import ScriptedProvider  # noqa: E402  # after sys.path names this folder

CORPUS_PATH = HERE / "corpus.json"
BASES: dict[str, BaseCase] = {base.name: base for base in BASE_CASES}


@dataclass(frozen=True)
class Outcome:
    """What one answer did to the file."""

    entry_id: str
    kind: str
    good: bool
    written: bool  # the file changed
    as_intended: bool  # the file is exactly what the agent meant to get
    reported_success: bool  # the engine returned a result rather than raising
    fixer_asked: bool
    error: str | None


def load_corpus(path: Path = CORPUS_PATH) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))


def intended(base: BaseCase) -> str:
    count = -1 if base.replace_all else 1
    return base.content.replace(base.search, base.replace, count)


def run_entry(
    entry: dict[str, Any],
    root: Path,
    *,
    fixer_for: Callable[[dict[str, Any]], Any] | None = None,
) -> Outcome:
    """``entry``'s answer through the engine on a fresh copy of its base file under ``root``."""
    base = BASES[entry["base"]]
    workspace = root / "ws"
    workspace.mkdir(parents=True, exist_ok=True)
    path = workspace / base.path
    path.write_bytes(base.content.encode("utf-8"))  # a fresh copy for every answer
    fixer = (
        fixer_for(entry)
        if fixer_for is not None
        else LLMFixer(ScriptedProvider([entry["answer"]]), cache_size=0)
    )
    engine = EditEngine(workspace, fixer=fixer, lock_dir=root / "locks")
    error: str | None = None
    reported = False
    try:
        engine.edit(
            base.path,
            entry.get("old", base.old),
            entry.get("new", base.new),
            instruction=base.instruction,
            replace_all=base.replace_all,
        )
        reported = True
    except EditError as failure:
        error = failure.code
    after = path.read_bytes().decode("utf-8")
    asked = bool(getattr(getattr(fixer, "provider", None), "requests", [None]))
    return Outcome(
        entry_id=entry["id"],
        kind=entry["kind"],
        good=bool(entry["good"]),
        written=after != base.content,
        as_intended=after == intended(base),
        reported_success=reported,
        fixer_asked=asked,
        error=error,
    )


def run_all(
    entries: Iterable[dict[str, Any]],
    *,
    fixer_for: Callable[[dict[str, Any]], Any] | None = None,
) -> Iterator[Outcome]:
    with tempfile.TemporaryDirectory(prefix="guard-corpus-") as scratch:
        for entry in entries:
            yield run_entry(entry, Path(scratch), fixer_for=fixer_for)
