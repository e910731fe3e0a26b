"""EditEngine: read -> cascade -> (fixer -> re-check) -> confirm -> write.

Nothing slow runs under the file's lock: the file is read, matched (cascade, fixer,
approval, "did you mean" suggestions) without it; then the lock is taken, the file read
again and its hash compared with the one matched, and only an unchanged file is written,
so the text an edit matched is the text it replaces. A file that keeps changing between the
two reads is matched under the lock after a few tries, so an edit always makes progress.
Every read and write goes through :class:`~editengine.files.WorkspaceDir`: anchored to the
workspace root by folder descriptors, never through a path string that a swapped folder
could redirect. The flow is written once as small synchronous stages; the
sync and async entry points differ only in how they call the fixer, the confirm callback
and the stages (directly, or awaited / in a worker thread).

Why one long module: the stages of one edit, and the sync and async entry points that run
them, read best together; the values they hand on (``jobs``), the fixer's judgement
(``fixing``), the results and telemetry (``reporting``) and the write itself (the engine's
:class:`~editengine.journal._writer.FileWriter`: lock, read, last look, journal record) live
in their own modules.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from editengine._edits import ConfirmRequest, Decision, EditSpec
from editengine._errors import (
    BadRequest,
    EditError,
    EditRejected,
    FileNotFound,
    MatchError,
    NoMatch,
    StaleFile,
)
from editengine._read_tracker import ReadTracker
from editengine._results import EditResult, TextEdit
from editengine._state import EditObserver
from editengine.diagnostics import SyntaxCheck, forgiving, guard_edit, guard_mode
from editengine.diagnostics._lsp import DEFAULT_LSP_TIMEOUT, LanguageServers
from editengine.engine import _fixing as fixing
from editengine.engine import _judging as judging
from editengine.engine import _patching as patching
from editengine.engine._callbacks import (
    EditedCallback,
    arun_hooks,
    notify,
    observers_of,
    resolve_sync,
    run_hooks,
)
from editengine.engine._jobs import (
    Job,
    NeedsFix,
    Plan,
    edit_job,
    multi_edit_job,
    multi_failed,
)
from editengine.engine._landed import SHARED_LANDED, landed_plan
from editengine.engine._parts import ConfirmCallback, EditCascade, PatchParts
from editengine.engine._reporting import (
    diff_of,
    record_failure,
    record_file,
    record_success,
    result_of,
    summary_of,
)
from editengine.files import (
    FileSnapshot,
    PathLocks,
    Target,
    Workspace,
    WorkspaceDir,
    suggest_paths,
)
from editengine.files._locking import DEFAULT_LOCK_TIMEOUT
from editengine.fixer._protocol import Correction, Fixer
from editengine.journal import Journal, JournalEntry, UndoResult
from editengine.journal import _undo as _undo
from editengine.journal._writer import FileWriter
from editengine.matching._cascade import DEFAULT_CASCADE
from editengine.matching._refusals import overwrite_required
from editengine.patch import PatchResult
from editengine.telemetry._recorder import Telemetry
from editengine.verdict import RelatednessGuard

logger = logging.getLogger("editengine")

DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024
# How long close() waits for telemetry sinks to take the events already recorded.
CLOSE_FLUSH_SECONDS = 5.0
# Matches made without the lock before one is made under it (the file kept changing).
_UNLOCKED_TRIES = 3


_Engine = TypeVar("_Engine", bound="EngineCore")


class EngineCore:
    """The edit pipeline of :class:`~editengine.EditEngine`, without the tool-call adapter
    that class adds on top; its parameters are documented there."""

    def __init__(
        self,
        root: str | os.PathLike[str] = ".",
        *,
        fixer: Fixer | None = None,
        telemetry: EditObserver | Sequence[EditObserver] | None = None,
        cascade: EditCascade | None = None,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        confirm: ConfirmCallback | None = None,
        on_edited: Sequence[EditedCallback] | EditedCallback = (),
        read_tracker: ReadTracker | None = None,
        autocorrect_paths: bool = False,
        lock_dir: str | os.PathLike[str] | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        fixer_guard: RelatednessGuard | None = None,
        journal: Journal | bool = True,
        syntax_guard: str = "refuse",
        lsp: Mapping[str, Sequence[str]] | None = None,
        lsp_timeout: float = DEFAULT_LSP_TIMEOUT,
        lsp_severities: Sequence[str] = ("error",),
    ) -> None:
        if cascade is None:
            cascade = DEFAULT_CASCADE
        self.workspace = Workspace(root)
        self.root = self.workspace.root
        self.files = WorkspaceDir(self.workspace.real_root)
        self.files.sweep()  # temp files of writes killed mid-way, in the root folder
        self.fixer = fixer
        self.cascade = cascade
        self.confirm = confirm
        self.on_edited: tuple[EditedCallback, ...] = (
            (on_edited,) if callable(on_edited) else tuple(on_edited)
        )
        self.autocorrect_paths = autocorrect_paths
        self.fixer_guard = fixer_guard or RelatednessGuard()
        self._observers = observers_of(telemetry)
        self._locks = PathLocks(lock_dir, timeout=lock_timeout)
        # Every write goes through it: lock, read again, last look, write, journal record.
        self._writer = FileWriter(
            workspace=self.workspace,
            files=self.files,
            locks=self._locks,
            # The undo journal of this workspace, shared with every process that edits it.
            journal=Journal(self.root) if journal is True else journal if journal else None,
            read_tracker=read_tracker,
            max_file_bytes=max_file_bytes,
        )
        # A patch (or undo) cut short by a crash: every file of it all old or all new again.
        _undo.recover_interrupted(self._writer)
        self._landed = SHARED_LANDED
        self.syntax_guard = guard_mode(syntax_guard)
        # Language servers start on the first edit of a file of their language, and stay.
        self.language_servers: LanguageServers | None = (
            LanguageServers(self.root, lsp, timeout=lsp_timeout, severities=lsp_severities)
            if lsp
            else None
        )

    # ------------------------------------------------------------------ parts

    @property
    def journal(self) -> Journal | None:
        """The undo journal every write is recorded in (``None``: writes are not)."""
        return self._writer.journal

    @journal.setter
    def journal(self, journal: Journal | None) -> None:
        self._writer.journal = journal

    @property
    def read_tracker(self) -> ReadTracker | None:
        """What the caller has read; an edit of a file not read as it is now is refused."""
        return self._writer.read_tracker

    @read_tracker.setter
    def read_tracker(self, tracker: ReadTracker | None) -> None:
        self._writer.read_tracker = tracker

    @property
    def max_file_bytes(self) -> int:
        """The largest file an edit reads."""
        return self._writer.max_file_bytes

    @max_file_bytes.setter
    def max_file_bytes(self, limit: int) -> None:
        self._writer.max_file_bytes = limit

    # ------------------------------------------------------------------ lifetime

    def close(self) -> None:
        """Release the fixer's resources (its provider's clients) and hand the telemetry
        already recorded to its sinks (waiting up to :data:`CLOSE_FLUSH_SECONDS`); the
        engine stays usable."""
        close = getattr(self.fixer, "close", None)
        if callable(close):
            close()
        if self.language_servers is not None:
            self.language_servers.close()
        self._flush_telemetry()

    async def aclose(self) -> None:
        """Async twin of :meth:`close`: awaits the fixer's ``aclose`` when it has one."""
        aclose = getattr(self.fixer, "aclose", None)
        if callable(aclose):
            await aclose()
            if self.language_servers is not None:
                await asyncio.to_thread(self.language_servers.close)
            await asyncio.to_thread(self._flush_telemetry)
        else:
            await asyncio.to_thread(self.close)

    def _flush_telemetry(self) -> None:
        for observer in self._observers:
            if isinstance(observer, Telemetry):
                observer.flush(timeout=CLOSE_FLUSH_SECONDS)

    def __enter__(self: _Engine) -> _Engine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self: _Engine) -> _Engine:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ public API

    def edit(
        self,
        file_path: str | os.PathLike[str],
        old_string: str,
        new_string: str,
        *,
        instruction: str | None = None,
        replace_all: bool = False,
        expected_replacements: int | None = None,
        match_mode: str = "auto",
        dry_run: bool = False,
        expected_hash: str | None = None,
        overwrite: bool = False,
    ) -> EditResult:
        """Replace ``old_string`` with ``new_string`` in the file."""
        job = edit_job(
            file_path, old_string, new_string, instruction=instruction,
            replace_all=replace_all, expected_replacements=expected_replacements,
            match_mode=match_mode, dry_run=dry_run, expected_hash=expected_hash,
            overwrite=overwrite,
            check_match_mode=self._check_match_mode,
        )  # fmt: skip
        return self._observed(job)

    async def aedit(
        self,
        file_path: str | os.PathLike[str],
        old_string: str,
        new_string: str,
        *,
        instruction: str | None = None,
        replace_all: bool = False,
        expected_replacements: int | None = None,
        match_mode: str = "auto",
        dry_run: bool = False,
        expected_hash: str | None = None,
        overwrite: bool = False,
    ) -> EditResult:
        """Async twin of :meth:`edit`: file work in a thread, the fixer awaited."""
        job = edit_job(
            file_path, old_string, new_string, instruction=instruction,
            replace_all=replace_all, expected_replacements=expected_replacements,
            match_mode=match_mode, dry_run=dry_run, expected_hash=expected_hash,
            overwrite=overwrite,
            check_match_mode=self._check_match_mode,
        )  # fmt: skip
        return await self._aobserved(job)

    def multi_edit(
        self,
        file_path: str | os.PathLike[str],
        edits: Sequence[EditSpec | Mapping[str, Any]],
        *,
        instruction: str | None = None,
        dry_run: bool = False,
        expected_hash: str | None = None,
    ) -> EditResult:
        """Apply ``edits`` in order, all or nothing, with one write and one combined diff."""
        job = multi_edit_job(
            file_path, edits, instruction=instruction, dry_run=dry_run,
            expected_hash=expected_hash, check_match_mode=self._check_match_mode,
        )  # fmt: skip
        return self._observed(job)

    async def amulti_edit(
        self,
        file_path: str | os.PathLike[str],
        edits: Sequence[EditSpec | Mapping[str, Any]],
        *,
        instruction: str | None = None,
        dry_run: bool = False,
        expected_hash: str | None = None,
    ) -> EditResult:
        """Async twin of :meth:`multi_edit`."""
        job = multi_edit_job(
            file_path, edits, instruction=instruction, dry_run=dry_run,
            expected_hash=expected_hash, check_match_mode=self._check_match_mode,
        )  # fmt: skip
        return await self._aobserved(job)

    def apply_patch(
        self,
        patch: str,
        *,
        format: str = "auto",
        instruction: str | None = None,
        dry_run: bool = False,
    ) -> PatchResult:
        """Apply a multi-file patch (``search_replace`` | ``udiff`` | ``apply_patch`` |
        ``auto``) all or nothing; see ``docs/patch.md``."""
        return patching.apply_patch(
            self._patch_parts(), patch, format=format, instruction=instruction, dry_run=dry_run
        )

    async def aapply_patch(
        self,
        patch: str,
        *,
        format: str = "auto",
        instruction: str | None = None,
        dry_run: bool = False,
    ) -> PatchResult:
        """Async twin of :meth:`apply_patch` (the work runs in a thread)."""
        return await asyncio.to_thread(
            self.apply_patch, patch, format=format, instruction=instruction, dry_run=dry_run
        )

    def read_file(self, file_path: str | os.PathLike[str]) -> str:
        """The file's text; recorded in the read tracker (when there is one) as seen."""
        target = self.workspace.resolve(file_path)
        snapshot = self._read(target)
        if not snapshot.exists:
            raise self._not_found(target)
        if self.read_tracker is not None and snapshot.sha256 is not None:
            self.read_tracker.record(os.fspath(target.real), snapshot.sha256)
        return snapshot.text

    def undo(self, path: str | os.PathLike[str] | None = None, *, steps: int = 1) -> UndoResult:
        """Undo the newest ``steps`` writes (of ``path``, or anywhere in the workspace) from
        the journal; :class:`StaleFile` if a file changed since. See ``journal/_undo.py``."""
        return _undo.reverse(self._writer, path=path, steps=steps)

    def redo(self, path: str | os.PathLike[str] | None = None, *, steps: int = 1) -> UndoResult:
        """Reverse the newest ``steps`` undos, while their files are as the undo left them."""
        return _undo.reverse(self._writer, path=path, steps=steps, redo=True)

    def journal_entries(self, path: str | os.PathLike[str] | None = None) -> list[JournalEntry]:
        """The journaled writes (of ``path``), oldest first."""
        return _undo.list_entries(self._writer, path=path)

    # ------------------------------------------------------------------ drivers

    def _observed(self, job: Job) -> EditResult:
        notify(self._observers, "edit_started", job.state)
        started = time.perf_counter()
        try:
            result = self._drive(job)
            result = self._with_server_diagnostics(result)
        except BaseException as error:
            record_failure(job.state, error)
            raise
        else:
            record_success(job.state, result)
        finally:
            job.state.duration_ms = (time.perf_counter() - started) * 1000
            notify(self._observers, "edit_finished", job.state)
        if _written(result):
            run_hooks(self.on_edited, result)
        return result

    async def _aobserved(self, job: Job) -> EditResult:
        await self._anotify("edit_started", job)
        started = time.perf_counter()
        try:
            result = await self._adrive(job)
            if self.language_servers is not None:
                result = await asyncio.to_thread(self._with_server_diagnostics, result)
        except BaseException as error:
            record_failure(job.state, error)
            if isinstance(error, asyncio.CancelledError):
                job.state.outcome = job.state.error_code = "cancelled"
            raise
        else:
            record_success(job.state, result)
        finally:
            job.state.duration_ms = (time.perf_counter() - started) * 1000
            await self._anotify("edit_finished", job)
        if _written(result):
            await arun_hooks(self.on_edited, result)
        return result

    async def _anotify(self, event: str, job: Job) -> None:
        """Observers, for an async caller: a ``Telemetry`` only queues its events (served by
        its own worker), anything else runs in a worker thread, so the loop never waits."""
        if all(isinstance(observer, Telemetry) for observer in self._observers):
            notify(self._observers, event, job.state)
        else:
            await asyncio.to_thread(notify, self._observers, event, job.state)

    def _drive(self, job: Job) -> EditResult:
        job.raise_if_invalid()
        step = self._begin(job)
        if isinstance(step, NeedsFix):
            assert self.fixer is not None
            correction = fixing.ask(self.fixer, job, step)
            step = self._after_fix(job, step, correction)
        if isinstance(step, Plan):
            decision = Decision.of(resolve_sync(self._ask_confirm(step), "confirm"))
            step = self._commit(job, step, decision)
        return step

    async def _adrive(self, job: Job) -> EditResult:
        job.raise_if_invalid()
        step = await asyncio.to_thread(self._begin, job)
        if isinstance(step, NeedsFix):
            assert self.fixer is not None
            correction = await fixing.aask(self.fixer, job, step)
            step = await asyncio.to_thread(self._after_fix, job, step, correction)
        if isinstance(step, Plan):
            answer = self._ask_confirm(step)
            if inspect.isawaitable(answer):
                answer = await answer
            step = await asyncio.to_thread(self._commit, job, step, Decision.of(answer))
        return step

    # ------------------------------------------------------------------ stages

    def _begin(self, job: Job) -> EditResult | Plan | NeedsFix:
        """Guard, read, check freshness, match; write at once when nothing waits.

        The match runs without the lock; the write happens under it only if the file still
        has the hash that was matched. After a few changed files, the match runs locked.
        """
        target = self._target(job)
        mark = len(job.state.attempts)
        for _ in range(_UNLOCKED_TRIES):
            del job.state.attempts[mark:]  # a retry's trace replaces the last one
            snapshot = self._read(target)
            step = self._prepare(job, target, snapshot)
            if not isinstance(step, Plan) or not self._writes_now(job, step):
                return self._settle(job, step)
            with self._writer.hold(target):
                if self._read(target).sha256 == snapshot.sha256:
                    return self._write(job, step)
        del job.state.attempts[mark:]
        with self._writer.hold(target):
            snapshot = self._read(target)
            step = self._prepare(job, target, snapshot)
            if not isinstance(step, Plan) or not self._writes_now(job, step):
                return self._settle(job, step)
            return self._write(job, step)

    def _prepare(self, job: Job, target: Target, snapshot: FileSnapshot) -> Plan | NeedsFix:
        """The plan (or the fixer's request) for ``snapshot``; no lock needed."""
        record_file(job.state, target, snapshot)
        self._check_fresh(job, target, snapshot)
        if not snapshot.exists and not job.creates:
            raise self._not_found(target)
        self._check_overwrite(job, target, snapshot)
        try:
            computed = self._compute(job, snapshot.text)
        except NoMatch as error:
            if self.fixer is None or job.operation != "edit":
                raise
            step = fixing.fix_request(job, target, snapshot, error)
            applied = self._landed.landed(job, step, snapshot.sha256)
            if applied is not None:  # an identical edit's correction made this content
                return landed_plan(job, step, snapshot, applied, self._plan)
            return step
        return self._plan(target, snapshot, computed)

    def _after_fix(self, job: Job, step: NeedsFix, correction: Correction) -> EditResult | Plan:
        """Re-read; check the correction against what the file holds now; write if unchanged."""
        target = step.target
        current = self._read(target)
        if not current.exists:
            fixing.set_outcome(job, "failed_validation", "the file was deleted", "file_deleted")
            error = self._not_found(target)
            error.add_note_for_agent("It was deleted while the LLM fixer ran; nothing was written.")
            raise error
        if current.sha256 != step.snapshot.sha256:
            record_file(job.state, target, current)
        # Checked whether or not the file changed since the first read: that read (made
        # without the lock) may already have seen an identical request's corrected write.
        applied = self._landed.landed(job, step, current.sha256)
        if applied is not None:
            return self._write(job, landed_plan(job, step, current, applied, self._plan))
        spec = job.specs[0]
        verdict = judging.judge_correction(
            spec, step, current, correction, run=self._runner(spec), guard=self.fixer_guard
        )
        try:
            accepted = fixing.settle(job, correction, verdict)
        except EditError:
            landed = self._landed_under_lock(job, step)
            if landed is None:
                raise
            return landed
        if accepted.by_fixer:
            plan = self._plan(
                target,
                current,
                accepted.edit,
                corrected_by_fixer=True,
                fixer_explanation=accepted.explanation,
            )
        else:
            plan = self._plan(target, current, accepted.edit)
        if self._waits_for_confirm(job, plan):
            return plan
        if not self._writes_now(job, plan):
            return self._write(job, plan)  # writes nothing: dry run or no change
        return self._locked_fix_write(job, step, plan, correction)

    def _landed_under_lock(self, job: Job, step: NeedsFix) -> EditResult | None:
        """The no-change result when an identical request's correction made the file's
        content. Read under the lock: a read without it can fall between that request's
        write and the record of it."""
        target = step.target
        with self._writer.hold(target):
            current = self._read(target)
            applied = self._landed.landed(job, step, current.sha256)
            if applied is None:
                return None
            return self._write(job, landed_plan(job, step, current, applied, self._plan))

    def _locked_fix_write(
        self, job: Job, step: NeedsFix, plan: Plan, correction: Correction
    ) -> EditResult:
        """:meth:`_locked_write` for a corrected plan. An identical request may have written
        this very correction meanwhile (its callers share one fixer call): then the file
        holds its result and this one is a no-change success. The written hash is recorded
        before the lock is released, so a caller waiting on the lock always finds it."""
        target = plan.target
        with self._writer.hold(target):
            current = self._read(target)
            if current.sha256 != plan.snapshot.sha256:
                applied = self._landed.landed(job, step, current.sha256)
                if applied is not None:
                    return self._write(job, landed_plan(job, step, current, applied, self._plan))
                replaced = self._replaced_under_lock(job, step, current, correction)
                if replaced is None:
                    raise StaleFile(
                        f"{target.display} changed on disk while the correction was checked; "
                        "nothing was written.",
                        path=target.display,
                        hint="Read the file again and redo the edit against its current content.",
                    )
                plan = replaced
            result = self._write(job, plan)
            if plan.corrected_by_fixer and _written(result) and result.hash_after is not None:
                self._landed.record(job, step, result.hash_after, correction)
            return result

    def _replaced_under_lock(
        self, job: Job, step: NeedsFix, current: FileSnapshot, correction: Correction
    ) -> Plan | None:
        """The correction placed and checked again on ``current`` (lock held), when another
        write landed while it was checked: a valid answer is not wasted on a file that
        changed elsewhere. No model is asked; ``None`` when it no longer holds."""
        spec = job.specs[0]
        verdict = judging.judge_correction(
            spec, step, current, correction, run=self._runner(spec), guard=self.fixer_guard
        )
        decision = verdict.decision
        if not isinstance(decision, judging.Accepted) or decision.edit.no_change:
            return None
        job.notes.append(
            "The file changed on disk while the correction was checked; it was placed and "
            "checked again on the current content, then written."
        )
        return self._plan(
            step.target,
            current,
            decision.edit,
            corrected_by_fixer=decision.by_fixer,
            fixer_explanation=decision.explanation,
        )

    def _commit(self, job: Job, plan: Plan, decision: Decision) -> EditResult:
        """After approval: write, if the file still holds what the approved diff was made from."""
        if decision.action == "reject":
            why = f" ({decision.reason})" if decision.reason else ""
            raise EditRejected(
                f"The edit of {plan.target.display} was rejected{why}; nothing was written.",
                hint="Ask the user what to change, or propose a different edit.",
            )
        target = plan.target
        if decision.action == "modify" and decision.content is not None:
            content = decision.content
            computed = replace(
                plan.computed, new_content=content, no_change=content == plan.snapshot.text
            )
            # The user's own content is never refused; what it introduces is reported.
            check = (
                SyntaxCheck()
                if computed.no_change or self.syntax_guard == "off"
                else guard_edit(
                    plan.snapshot.text, content, target.display,
                    mode="report", tier="user", forgiven=False,
                )
            )  # fmt: skip
            plan = replace(
                plan,
                computed=computed,
                diff=diff_of(target, plan.snapshot, content),
                modified_by_user=True,
                diagnostics=check.introduced,
                diagnostics_note=check.note,
            )
        return self._locked_write(job, plan, "while the edit waited for approval")

    def _locked_write(self, job: Job, plan: Plan, meanwhile: str) -> EditResult:
        """Take the lock; write ``plan`` if the file still has the hash it was made from."""
        target = plan.target
        with self._writer.hold(target):
            self._writer.check_unchanged(target, plan.snapshot, meanwhile)
            return self._write(job, plan)

    def _settle(self, job: Job, step: Plan | NeedsFix) -> EditResult | Plan | NeedsFix:
        """A step that writes nothing now: the fixer's request, a plan awaiting approval,
        or the result of a dry run / an edit that changes nothing."""
        if isinstance(step, Plan) and not self._waits_for_confirm(job, step):
            return self._write(job, step)  # writes nothing: dry run or no change
        return step

    def _writes_now(self, job: Job, plan: Plan) -> bool:
        """Whether ``plan`` is to be written now (not a dry run, a change, no approval due)."""
        return not (job.dry_run or plan.computed.no_change or self._waits_for_confirm(job, plan))

    def _write(self, job: Job, plan: Plan) -> EditResult:
        """Write ``plan`` (lock held) unless it is a dry run or changes nothing."""
        target, snapshot, computed = plan.target, plan.snapshot, plan.computed
        if computed.no_change:
            return result_of(job, plan, hash_after=snapshot.sha256)
        # Checked for a dry run too: a preview says what the real edit would do.
        try:
            data = computed.new_content.encode("utf-8")
        except UnicodeEncodeError as error:
            raise BadRequest(
                "new_string contains characters that cannot be written as UTF-8 "
                f"({error.reason} at position {error.start}); nothing was written.",
                hint="Remove lone surrogate escapes (such as \\ud800) from new_string.",
            ) from error
        if job.dry_run:
            return result_of(job, plan, hash_after=None)
        hash_after, notes = self._writer.replace(
            target,
            snapshot,
            data,
            strategy=computed.strategy,
            operation=job.operation,
            summary=summary_of(plan, dry_run=False),
        )
        job.notes.extend(notes)
        return result_of(job, plan, hash_after=hash_after)

    # ------------------------------------------------------------------ stage helpers

    def _check_match_mode(self, match_mode: str) -> None:
        tiers_for = getattr(self.cascade, "tiers_for", None)
        if tiers_for is not None:
            tiers_for(match_mode)  # raises BadRequest naming the valid modes

    def _target(self, job: Job) -> Target:
        target = self.workspace.resolve(job.file_path)  # type: ignore[arg-type]  # the caller's value as given: resolve refuses a non-path with BadRequest
        job.state.file_path = target.display
        if job.creates or self.files.exists(target.real, display=target.display):
            return target
        if not self.autocorrect_paths:
            return target  # the read under the lock raises FileNotFound with suggestions
        _, same_name = suggest_paths(self.workspace.real_root, target.display)
        if len(same_name) != 1:
            return target
        corrected = self.workspace.resolve(same_name[0])
        job.notes.append(
            f"{target.display} does not exist; edited {corrected.display}, the only file "
            "with that name in the workspace."
        )
        job.state.file_path = corrected.display
        return corrected

    def _read(self, target: Target) -> FileSnapshot:
        return self._writer.read(target)

    def _not_found(self, target: Target) -> FileNotFound:
        suggestions, _ = suggest_paths(self.workspace.real_root, target.display)
        hint = "Check the path, or use an empty old_string to create the file."
        if suggestions:
            hint = f"Did you mean: {', '.join(suggestions)}?"
        return FileNotFound(
            f"{target.display} does not exist in the workspace.",
            path=target.display,
            suggestions=suggestions,
            hint=hint,
        )

    def _check_fresh(self, job: Job, target: Target, snapshot: FileSnapshot) -> None:
        if job.expected_hash is not None and job.expected_hash.lower() != snapshot.sha256:
            state = "does not exist" if not snapshot.exists else f"has hash {snapshot.sha256}"
            raise StaleFile(
                f"{target.display} {state}, not the expected {job.expected_hash}; "
                "nothing was written.",
                path=target.display,
                hint="The file changed since you read it: read it again and redo the edit.",
            )
        if self.read_tracker is not None:
            self.read_tracker.check(os.fspath(target.real), snapshot.sha256, display=target.display)

    def _check_overwrite(self, job: Job, target: Target, snapshot: FileSnapshot) -> None:
        """An empty old_string replaces a file with content only when asked to: by
        ``overwrite``, or by an ``expected_hash`` (checked already) naming the content."""
        if not job.creates or not snapshot.exists or not snapshot.text.strip():
            return
        if job.specs[0].overwrite or job.expected_hash is not None:
            return
        raise overwrite_required(target.display, snapshot.sha256)

    def _compute(self, job: Job, text: str) -> TextEdit:
        if job.operation == "edit":
            spec = job.specs[0]
            return self._cascade_pass(job, text, spec.old_string, spec.new_string, spec)
        content = text
        replacements = 0
        strategies: list[str] = []
        for index, spec in enumerate(job.specs, 1):
            try:
                step = self._cascade_pass(job, content, spec.old_string, spec.new_string, spec)
            except EditError as error:
                raise multi_failed(index, len(job.specs), error) from error
            content = step.new_content
            replacements += step.replacements
            if step.strategy not in strategies:
                strategies.append(step.strategy)
        return TextEdit(
            new_content=content,
            replacements=replacements,
            strategy="+".join(strategies),
            no_change=content == text,
            note="the edits leave the file as it was" if content == text else None,
            edits=len(job.specs),
        )

    def _runner(self, spec: EditSpec) -> judging.RunCascade:
        """The cascade under ``spec``'s rules, as a pure function of (text, old, new)."""

        def run(text: str, old: str, new: str) -> TextEdit:
            # The whole file is replaced only after _check_overwrite let it through; a
            # cascade that knows nothing of overwriting is asked only when there is
            # nothing to overwrite.
            whole = {"overwrite": True} if old == "" and text.strip() else {}
            return self.cascade.edit(
                text,
                old,
                new,
                replace_all=spec.replace_all,
                expected_replacements=spec.expected_replacements,
                match_mode=spec.match_mode,
                **whole,
            )

        return run

    def _cascade_pass(self, job: Job, text: str, old: str, new: str, spec: EditSpec) -> TextEdit:
        """One cascade run with ``spec``'s rules; its trace goes to telemetry either way."""
        try:
            edit = self._runner(spec)(text, old, new)
        except MatchError as error:
            job.state.attempts.extend(error.trace)
            raise
        job.state.attempts.extend(edit.trace)
        return edit

    def _plan(
        self, target: Target, snapshot: FileSnapshot, computed: TextEdit, **extra: Any
    ) -> Plan:
        check = self._syntax_check(
            target, snapshot, computed, corrected_by_fixer=bool(extra.get("corrected_by_fixer"))
        )
        return Plan(
            target,
            snapshot,
            computed,
            diff_of(target, snapshot, computed.new_content),
            diagnostics=check.introduced,
            diagnostics_note=check.note,
            **extra,
        )

    def _syntax_check(
        self,
        target: Target,
        snapshot: FileSnapshot,
        computed: TextEdit,
        *,
        corrected_by_fixer: bool = False,
    ) -> SyntaxCheck:
        """The syntax problems ``computed`` introduces; :class:`SyntaxBroken` when a forgiving
        placement breaks the region it touched and the guard refuses (docs/diagnostics.md)."""
        if computed.no_change or self.syntax_guard == "off":
            return SyntaxCheck()
        return guard_edit(
            snapshot.text,
            computed.new_content,
            target.display,
            mode=self.syntax_guard,
            tier="fixer" if corrected_by_fixer else computed.strategy,
            forgiven=forgiving(computed.strategy, corrected_by_fixer=corrected_by_fixer),
        )

    def _with_server_diagnostics(self, result: EditResult) -> EditResult:
        """``result`` with what the language servers said of the written file (never fails
        an edit: a server that crashes, hangs or is missing leaves a note instead)."""
        servers = self.language_servers
        if servers is None or not _written(result):
            return result
        report = servers.diagnose(result.absolute_path, result.old_text, result.new_text)
        if report is None:
            return result
        notes = [note for note in (result.diagnostics_note, report.note) if note]
        return replace(
            result,
            diagnostics=result.diagnostics + report.introduced,
            diagnostics_note="; ".join(notes) or None,
        )

    def _patch_parts(self) -> PatchParts:
        """What a patch uses of this engine: its writer and its policies as they are now
        (a front end may set ``confirm`` or ``fixer`` after construction)."""
        return PatchParts(
            writer=self._writer,
            root=self.root,
            fixer=self.fixer,
            fixer_guard=self.fixer_guard,
            cascade=self.cascade,
            confirm=self.confirm,
            syntax_guard=self.syntax_guard,
            on_edited=self.on_edited,
            observers=self._observers,
            server_diagnostics=self._with_server_diagnostics,
        )

    def _waits_for_confirm(self, job: Job, plan: Plan) -> bool:
        return self.confirm is not None and not job.dry_run and not plan.computed.no_change

    def _ask_confirm(self, plan: Plan) -> Any:
        assert self.confirm is not None
        request = ConfirmRequest(
            file_path=plan.target.display,
            absolute_path=os.fspath(plan.target.absolute),
            diff=plan.diff.text,
            summary=summary_of(plan, dry_run=False, preview=True),
            old_text=plan.snapshot.text,
            new_text=plan.computed.new_content,
            created=not plan.snapshot.exists,
        )
        return self.confirm(request)


def _written(result: EditResult) -> bool:
    return not result.dry_run and not result.no_change
