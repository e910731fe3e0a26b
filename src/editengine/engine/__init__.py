"""EditEngine: search/replace edits on the files of a workspace (see ``docs/engine.md``).

- :mod:`~editengine.engine.core` — the engine: guard, lock, read, match, write;
- :mod:`~editengine.engine.jobs` — a validated call and the values its stages hand on;
- :mod:`~editengine.engine.fixing` — the LLM fixer step and the checks on its answer;
- :mod:`~editengine.engine.relatedness` — is a fixer correction the requested edit, where meant;
- :mod:`~editengine.engine.edit_equivalence` — the requested edit carried onto a corrected search;
- :mod:`~editengine.engine.reporting` — summaries, results and telemetry outcomes;
- :mod:`~editengine.engine.callbacks` — observers, ``on_edited`` hooks, sync/async callbacks.

The states of one edit (``core`` drives them; every arrow that writes holds the file's lock
and re-checks the file's hash first)::

    Job ──guard, read──▶ cascade ──match──▶ Plan ──confirm?──▶ write ──▶ EditResult
                            │                 ▲
                       NoMatch, fixer         │ Accepted
                            ▼                 │
                        NeedsFix ──ask──▶ Correction ──re-read──▶ judge_correction ──▶ Verdict
                            │                                                  │
                   fixer failed: NoMatch + note                     Refused: NoMatch + note

``fixing.judge_correction`` is pure: from the request, the file as it is now and the
model's answer it returns a :class:`~editengine.engine.fixing.Verdict` (accepted text, or a
refusal and its reason, with the traces of the cascade runs it made). ``fixing.settle``
records that verdict on the job — traces, the fixer's outcome, notes — and the engine
turns an accepted text into a Plan.
"""

from editengine.edits import ConfirmRequest, Decision, EditSpec
from editengine.engine.core import DEFAULT_MAX_FILE_BYTES, EditEngine
from editengine.engine.relatedness import RelatednessGuard
from editengine.results import EditResult

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "ConfirmRequest",
    "Decision",
    "EditEngine",
    "EditResult",
    "EditSpec",
    "RelatednessGuard",
]
