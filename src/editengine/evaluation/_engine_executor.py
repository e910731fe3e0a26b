"""Each case through the real :class:`~editengine.engine.EditEngine`, on a real file.

The case's file is written byte for byte into a fresh temporary workspace
(:func:`~editengine.evaluation._workspace.case_workspace`), edited there by an engine with
the run's cascade and the case's fixer, and read back byte for byte: ``new_content`` is
what the engine left on disk, whatever it reported, so a failed edit that still touched the
file scores WRONG. The fixer's cost comes from the engine's own telemetry (``fixer.called``
events in a :class:`~editengine.telemetry.MemorySink`).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from editengine._errors import EditError
from editengine.engine import EditEngine
from editengine.evaluation._dataset import EvalCase
from editengine.evaluation._llm import FixerSource, NoFixer
from editengine.evaluation._scoring import CaseResult
from editengine.evaluation._workspace import (
    case_workspace,
    memory_backed_dir,
    read_exact,
    relative_name,
)
from editengine.telemetry import FixerCalled, JsonlSink, MemorySink, Telemetry


class EngineExecutor:
    """Runs cases through ``EditEngine(root=<case workspace>, fixer=..., cascade=...)``.

    ``fixers`` picks each case's fixer (default: none). Workspaces are made under
    ``base_dir`` (default: :func:`memory_backed_dir`, else the system temp directory). Lock
    files go to a private directory there, removed by :meth:`close`, not to the user's
    lock directory. ``telemetry_path`` also appends the engine's telemetry events to that
    JSON Lines file (for ``editengine report``).
    """

    def __init__(
        self,
        *,
        cascade: Any = None,
        fixers: FixerSource | None = None,
        base_dir: Path | None = None,
        telemetry_path: str | None = None,
        syntax_guard: str = "off",
    ) -> None:
        self.cascade = cascade
        self.syntax_guard = syntax_guard
        self.fixers = fixers or NoFixer()
        self.base_dir = base_dir if base_dir is not None else memory_backed_dir()
        self.telemetry_path = telemetry_path
        self._memory = MemorySink()
        sinks: list[Any] = [self._memory]
        if telemetry_path is not None:  # safe for several processes appending to one file
            sinks.append(JsonlSink(telemetry_path))
        self._telemetry = Telemetry(sinks=sinks)
        self._lock_dir: str | None = None

    def run(self, case: EvalCase) -> CaseResult:
        fixer = self.fixers.for_case(case)
        with case_workspace(case, base_dir=self.base_dir) as (root, file):
            engine = EditEngine(
                root, fixer=fixer, telemetry=self._telemetry, cascade=self.cascade,
                lock_dir=self._locks(), journal=False,  # a throwaway workspace: no undo
                syntax_guard=self.syntax_guard,
            )  # fmt: skip
            self._memory.events.clear()
            started = time.perf_counter()
            ok, strategy, code, error, corrected = True, None, None, None, False
            try:
                result = engine.edit(
                    relative_name(case).as_posix(), case.old_string, case.new_string,
                    instruction=case.instruction, replace_all=case.replace_all,
                    expected_replacements=case.expected_replacements,
                    match_mode=case.match_mode,
                )  # fmt: skip
                strategy, corrected = result.strategy, result.corrected_by_fixer
            except EditError as err:
                ok, code, error = False, err.code, str(err)
            except Exception as err:  # a crash is a finding to report, not a reason to stop
                ok, code, error = False, "internal_error", f"{type(err).__name__}: {err}"
            elapsed_ms = (time.perf_counter() - started) * 1000
            after = _read_back(file)
        return CaseResult(
            ok=ok,
            new_content=after,
            strategy=strategy,
            error_code=code,
            error=error,
            elapsed_ms=elapsed_ms,
            corrected_by_fixer=corrected,
            **_fixer_figures(self._memory),
        )

    def sibling(self) -> EngineExecutor:
        """Another executor with this one's cascade and fixers (so their cache is shared),
        for another thread: each executor has its own telemetry sink and lock directory."""
        return EngineExecutor(
            cascade=self.cascade,
            fixers=self.fixers,
            base_dir=self.base_dir,
            telemetry_path=self.telemetry_path,
        )

    def _locks(self) -> str:
        if self._lock_dir is None:
            self._lock_dir = tempfile.mkdtemp(prefix="editengine-eval-locks-", dir=self.base_dir)
        return self._lock_dir

    def close(self) -> None:
        self._telemetry.close()
        if self._lock_dir is not None:
            shutil.rmtree(self._lock_dir, ignore_errors=True)
            self._lock_dir = None


def _read_back(file: Path) -> str:
    """The file as the engine left it; a vanished or undecodable file reads as changed."""
    try:
        return read_exact(file)
    except FileNotFoundError:
        return "<the file was deleted>"
    except UnicodeDecodeError:
        return file.read_bytes().decode("utf-8", "replace")


def _fixer_figures(memory: MemorySink) -> dict[str, Any]:
    calls = [e for e in memory.events if isinstance(e, FixerCalled)]
    return {
        "fixer_calls": len(calls),
        "input_tokens": sum(e.input_tokens for e in calls),
        "output_tokens": sum(e.output_tokens for e in calls),
        "cache_hits": sum(1 for e in calls if e.cache_hit),
    }
