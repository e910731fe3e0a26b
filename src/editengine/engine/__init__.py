"""EditEngine: search/replace edits on the files of a workspace (see ``docs/engine.md``).

- :mod:`~editengine.engine._edit_engine` — ``EditEngine``: the pipeline, answering tool calls
  through a :class:`~editengine.tools.ToolCalls` composed over it;
- :mod:`~editengine.engine._core` — the pipeline (``EngineCore``): guard, lock, read, match,
  write;
- :mod:`~editengine.engine._jobs` — a validated call and the values its stages hand on;
- :mod:`~editengine.engine._fixing` — the LLM fixer step: ask, settle, record;
- :mod:`~editengine.engine._judging` — a correction judged against the file as it is now
  (the checks themselves, pure, are the package :mod:`editengine.verdict`);
- :mod:`~editengine.engine._reporting` — summaries, results and telemetry outcomes;
- :mod:`~editengine.engine._callbacks` — observers, ``on_edited`` hooks, sync/async callbacks.

The states of one edit (``_core`` drives them; every arrow that writes holds the file's lock
and re-checks the file's hash first)::

    Job ──guard, read──▶ cascade ──match──▶ Plan ──confirm?──▶ write ──▶ EditResult
                            │                 ▲
                       NoMatch, fixer         │ Accepted
                            ▼                 │
                        NeedsFix ──ask──▶ Correction ──re-read──▶ judge_correction ──▶ Verdict
                            │                                                  │
                   fixer failed: NoMatch + note                     Refused: NoMatch + note

``judging.judge_correction`` is pure: from the request, the file as it is now and the
model's answer it returns a :class:`~editengine.engine._judging.Verdict` (accepted text, or a
refusal and its reason, with the traces of the cascade runs it made). ``fixing.settle``
records that verdict on the job — traces, the fixer's outcome, notes — and the engine
turns an accepted text into a Plan.
"""

from editengine._edits import ConfirmRequest, Decision, EditSpec
from editengine._public import publish
from editengine._results import EditResult
from editengine.engine._core import DEFAULT_MAX_FILE_BYTES
from editengine.engine._edit_engine import EditEngine
from editengine.verdict import RelatednessGuard

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "ConfirmRequest",
    "Decision",
    "EditEngine",
    "EditResult",
    "EditSpec",
    "RelatednessGuard",
]


publish(globals())  # public names show this package, not their private module
