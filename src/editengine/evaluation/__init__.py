"""Offline evaluation: datasets of edit cases, engines to run them through, and scoring.

The pieces, each in its own module: ``dataset`` (JSON Lines cases), ``scoring`` (SUCCESS /
REFUSED / WRONG), ``executors`` (engines behind one protocol and their configurations),
``engine_executor`` (the real ``EditEngine`` on a real file per case), ``llm`` (which fixer a
run gives the engine), ``workspace`` (a case as a file), ``runner`` (serial or worker
processes), ``tables`` (terminal tables; the HTML page is :mod:`editengine.reports`),
``peers`` (peer conformance), and the
benchmark's cross product: ``edit_kinds`` (what an edit changes), ``mistakes`` (how a model
misquotes it) and ``cross_product`` (one request of a cell, cut from a file).
"""

from __future__ import annotations

from editengine._public import publish
from editengine.evaluation._dataset import EvalCase, FixerAnswer, load_cases, read_dataset
from editengine.evaluation._engine_executor import EngineExecutor
from editengine.evaluation._executors import (
    EXECUTOR_KINDS,
    BatchCommandExecutor,
    CaseExecutor,
    EngineConfig,
    TextExecutor,
    ablations,
    build_executor,
    with_fixer,
)
from editengine.evaluation._llm import FixerSource, ScriptedFixers, SharedFixer, fixer_source
from editengine.evaluation._runner import CaseRecord, RunResult, run_cases
from editengine.evaluation._scoring import CaseResult, Outcome, score
from editengine.evaluation._tables import Tally, by_category, summary
from editengine.evaluation._workspace import case_workspace

__all__ = [
    "EXECUTOR_KINDS",
    "BatchCommandExecutor",
    "CaseExecutor",
    "CaseRecord",
    "CaseResult",
    "EngineConfig",
    "EngineExecutor",
    "EvalCase",
    "FixerAnswer",
    "FixerSource",
    "Outcome",
    "RunResult",
    "ScriptedFixers",
    "SharedFixer",
    "Tally",
    "TextExecutor",
    "ablations",
    "build_executor",
    "by_category",
    "case_workspace",
    "fixer_source",
    "load_cases",
    "read_dataset",
    "run_cases",
    "score",
    "summary",
    "with_fixer",
]


publish(globals())  # public names show this package, not their private module
