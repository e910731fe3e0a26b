"""Corrections this engine just wrote, so concurrent identical edits learn the truth.

Twenty callers sending the same failing edit at once share one fixer call (the fixer's
single flight) and get the same correction. The first to take the file's lock writes it;
the others then find the file changed while the fixer ran, their old_string still wrong
and the correction's search gone — and would be told ``NoMatch`` although the edit they
asked for landed. A caller that reads the file only after that write would even pay for a
second call, and be refused. So the engine remembers, per file and request, the hash its
corrected write produced: a caller with the same request that finds exactly that content
(when it first reads the file, or when it re-reads it after the fixer) is told the truth —
the change is already there — and no model is asked.

Only an exact hash match counts: any other change to the file takes the usual path
(cascade, fixer, re-check), so nothing is ever reported applied that is not on disk.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from editengine._results import TextEdit
from editengine._state import FixerCall
from editengine.engine import _fixing as fixing
from editengine.engine._jobs import Job, NeedsFix, Plan
from editengine.engine._judging import model_prose
from editengine.files import FileSnapshot
from editengine.fixer._protocol import Correction

MakePlan = Callable[..., Plan]


@dataclass(frozen=True)
class _Landed:
    hash_after: str
    correction: Correction


class LandedCorrections:
    """A small LRU: (file, request) -> the hash its last corrected write produced."""

    def __init__(self, maxsize: int = 64) -> None:
        self.maxsize = maxsize
        self._entries: OrderedDict[str, _Landed] = OrderedDict()
        self._lock = threading.Lock()

    def record(self, job: Job, step: NeedsFix, hash_after: str, correction: Correction) -> None:
        key = _key(job, step)
        with self._lock:
            self._entries[key] = _Landed(hash_after, correction)
            self._entries.move_to_end(key)
            while len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)

    def landed(self, job: Job, step: NeedsFix, current_sha256: str | None) -> Correction | None:
        """The correction an identical request wrote, if the file holds exactly its result."""
        with self._lock:
            entry = self._entries.get(_key(job, step))
        if entry is None or entry.hash_after != current_sha256:
            return None
        return entry.correction


# One for the process: the key names the file by its real path, so engines on the same
# files (each with its own lock-holding writes) learn from one another's corrected writes.
SHARED_LANDED = LandedCorrections(maxsize=256)


def landed_plan(
    job: Job, step: NeedsFix, current: FileSnapshot, correction: Correction, make_plan: MakePlan
) -> Plan:
    """A no-change plan on ``current``: the requested change is there already."""
    fixing.mark_fixer_pass(job)
    if job.state.fixer is None:  # found on the first read: no model was asked
        job.state.fixer = FixerCall(
            provider=correction.provider, model=correction.model, cache_hit=True
        )
    job.state.fixer.outcome = "no_change"
    job.state.fixer.note = "an identical edit applied this correction already"
    job.notes.append(
        "An identical edit (sent at the same time, or just before) already applied this "
        "change through the LLM fixer; the file holds exactly its result, so nothing was "
        "written."
    )
    computed = TextEdit(current.text, 0, "already_applied", no_change=True)
    return make_plan(
        step.target,
        current,
        computed,
        corrected_by_fixer=True,
        fixer_explanation=model_prose(correction.explanation),
    )


def _key(job: Job, step: NeedsFix) -> str:
    request = step.request
    payload = json.dumps(
        [
            str(step.target.real),
            request.old_string,
            request.new_string,
            request.instruction,
            request.replace_all,
            request.expected_replacements,
            job.dry_run,
        ],
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()
