"""EditEngine: read -> cascade -> (fixer -> re-check) -> confirm -> write.

Every stage that touches the file runs under the file's lock and re-reads it, so the text an
edit matched is the text it replaces. The two steps that may take long — the LLM fixer and
the user's approval — run without the lock; the file is re-read (and its hash compared)
when the lock is taken again. The flow is written once as small synchronous stages; the
sync and async entry points differ only in how they call the fixer, the confirm callback
and the stages (directly, or awaited / in a worker thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import os
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from editengine import tools as _tools
from editengine.edits import ConfirmRequest, Decision, EditResult, EditSpec
from editengine.engine import fixing
from editengine.engine.callbacks import (
    EditedCallback,
    arun_hooks,
    notify,
    observers_of,
    resolve_sync,
    run_hooks,
)
from editengine.engine.jobs import (
    Computed,
    Job,
    NeedsFix,
    Plan,
    edit_job,
    multi_edit_job,
    multi_failed,
)
from editengine.engine.relatedness import RelatednessGuard
from editengine.engine.reporting import (
    diff_of,
    record_failure,
    record_file,
    record_success,
    result_of,
    summary_of,
)
from editengine.errors import (
    BadRequest,
    EditError,
    EditRejected,
    FileNotFound,
    MatchError,
    NoMatch,
    PathOutsideWorkspace,
    StaleFile,
    WriteFailed,
)
from editengine.files import (
    FileSnapshot,
    PathLocks,
    Target,
    Workspace,
    atomic_write,
    read_snapshot,
    sha256_hex,
    suggest_paths,
)
from editengine.files.locking import DEFAULT_LOCK_TIMEOUT
from editengine.fixer.protocol import Correction, Fixer
from editengine.patch import PatchResult
from editengine.read_tracker import ReadTracker
from editengine.results import TextEdit, TierAttempt
from editengine.state import EditObserver

logger = logging.getLogger("editengine")

ConfirmAnswer = bool | str | Decision | None
ConfirmCallback = Callable[[ConfirmRequest], ConfirmAnswer | Awaitable[ConfirmAnswer]]

DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024


class EditEngine:
    """Search/replace edits on the files under ``root``; see ``docs/engine.md``.

    >>> engine = EditEngine("/path/to/project")          # doctest: +SKIP
    >>> engine.edit("src/app.py", "x = 1", "x = 2").summary  # doctest: +SKIP
    'Replaced 1 occurrence in src/app.py (exact match)'
    """

    def __init__(
        self,
        root: str | os.PathLike[str] = ".",
        *,
        fixer: Fixer | None = None,
        telemetry: EditObserver | Sequence[EditObserver] | None = None,
        cascade: Any = None,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        confirm: ConfirmCallback | None = None,
        on_edited: Sequence[EditedCallback] | EditedCallback = (),
        read_tracker: ReadTracker | None = None,
        autocorrect_paths: bool = False,
        lock_dir: str | os.PathLike[str] | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        fixer_guard: RelatednessGuard | None = None,
    ) -> None:
        if cascade is None:
            from editengine import DEFAULT_CASCADE  # late: editengine/__init__ may import us

            cascade = DEFAULT_CASCADE
        self.workspace = Workspace(root)
        self.root = self.workspace.root
        self.fixer = fixer
        self.cascade = cascade
        self.max_file_bytes = max_file_bytes
        self.confirm = confirm
        self.on_edited: tuple[EditedCallback, ...] = (
            (on_edited,) if callable(on_edited) else tuple(on_edited)
        )
        self.read_tracker = read_tracker
        self.autocorrect_paths = autocorrect_paths
        self.fixer_guard = fixer_guard or RelatednessGuard()
        self._observers = observers_of(telemetry)
        self._locks = PathLocks(lock_dir, timeout=lock_timeout)
        self._fuzzy_thresholds = _fuzzy_thresholds(cascade)

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
    ) -> EditResult:
        """Replace ``old_string`` with ``new_string`` in the file."""
        job = edit_job(
            file_path, old_string, new_string, instruction=instruction,
            replace_all=replace_all, expected_replacements=expected_replacements,
            match_mode=match_mode, dry_run=dry_run, expected_hash=expected_hash,
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
    ) -> EditResult:
        """Async twin of :meth:`edit`: file work in a thread, the fixer awaited."""
        job = edit_job(
            file_path, old_string, new_string, instruction=instruction,
            replace_all=replace_all, expected_replacements=expected_replacements,
            match_mode=match_mode, dry_run=dry_run, expected_hash=expected_hash,
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
        from editengine.engine import patching

        return patching.apply_patch(
            self, patch, format=format, instruction=instruction, dry_run=dry_run
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

    def handle_tool_call(self, name: str, arguments: Mapping[str, Any] | str) -> str:
        """Run an ``edit`` / ``multiedit`` tool call; the text the model should read back.

        Never raises: a malformed call answers ``Error [bad_request]: ...``.
        """
        if _tools.is_patch_tool(name):
            return _tools.run_patch_tool(self.apply_patch, arguments)
        try:
            call = _tools.parse_tool_call(name, arguments)
            if call.tool == _tools.EDIT_TOOL:
                spec = call.edits[0]
                result = self.edit(
                    call.file_path, spec.old_string, spec.new_string,
                    instruction=spec.instruction, replace_all=spec.replace_all,
                    expected_replacements=spec.expected_replacements,
                    match_mode=spec.match_mode,
                )  # fmt: skip
            else:
                result = self.multi_edit(call.file_path, call.edits, instruction=call.instruction)
        except EditError as error:
            return _tools.format_error(error)
        except Exception as error:  # a tool loop must get an answer, not a crash
            return _internal_error(error)
        return _tools.format_result(result)

    async def ahandle_tool_call(self, name: str, arguments: Mapping[str, Any] | str) -> str:
        """Async twin of :meth:`handle_tool_call`."""
        if _tools.is_patch_tool(name):
            return await asyncio.to_thread(_tools.run_patch_tool, self.apply_patch, arguments)
        try:
            call = _tools.parse_tool_call(name, arguments)
            if call.tool == _tools.EDIT_TOOL:
                spec = call.edits[0]
                result = await self.aedit(
                    call.file_path, spec.old_string, spec.new_string,
                    instruction=spec.instruction, replace_all=spec.replace_all,
                    expected_replacements=spec.expected_replacements,
                    match_mode=spec.match_mode,
                )  # fmt: skip
            else:
                result = await self.amulti_edit(
                    call.file_path, call.edits, instruction=call.instruction
                )
        except EditError as error:
            return _tools.format_error(error)
        except Exception as error:
            return _internal_error(error)
        return _tools.format_result(result)

    # ------------------------------------------------------------------ drivers

    def _observed(self, job: Job) -> EditResult:
        notify(self._observers, "edit_started", job.state)
        started = time.perf_counter()
        try:
            result = self._drive(job)
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
        notify(self._observers, "edit_started", job.state)
        started = time.perf_counter()
        try:
            result = await self._adrive(job)
        except BaseException as error:
            record_failure(job.state, error)
            raise
        else:
            record_success(job.state, result)
        finally:
            job.state.duration_ms = (time.perf_counter() - started) * 1000
            notify(self._observers, "edit_finished", job.state)
        if _written(result):
            await arun_hooks(self.on_edited, result)
        return result

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

    # ------------------------------------------------------------------ stages (locked)

    def _begin(self, job: Job) -> EditResult | Plan | NeedsFix:
        """Guard, lock, read, check freshness, match; write at once when nothing waits."""
        target = self._target(job)
        with self._locks.hold(target.real, display=target.display):
            snapshot = self._read(target)
            record_file(job.state, target, snapshot)
            self._check_fresh(job, target, snapshot)
            if not snapshot.exists and not job.creates:
                raise self._not_found(target)
            try:
                computed = self._compute(job, snapshot.text)
            except NoMatch as error:
                if self.fixer is None or job.operation != "edit":
                    raise
                return fixing.fix_request(job, target, snapshot, error)
            plan = self._plan(target, snapshot, computed)
            if self._waits_for_confirm(job, plan):
                return plan
            return self._write(job, plan)

    def _after_fix(self, job: Job, step: NeedsFix, correction: Correction) -> EditResult | Plan:
        """Re-read under the lock; check the correction against what the file holds now."""
        target = step.target
        with self._locks.hold(target.real, display=target.display):
            current = self._read(target)
            if not current.exists:
                fixing.set_outcome(job, "failed_validation", "the file was deleted")
                raise self._not_found(target)
            if current.sha256 != step.snapshot.sha256:
                record_file(job.state, target, current)
            spec = job.specs[0]
            plan = fixing.check_correction(
                job,
                step,
                current,
                correction,
                match=lambda text, old, new: self._cascade_pass(job, text, old, new, spec),
                make_plan=self._plan,
                guard=self.fixer_guard,
            )
            if self._waits_for_confirm(job, plan):
                return plan
            return self._write(job, plan)

    def _commit(self, job: Job, plan: Plan, decision: Decision) -> EditResult:
        """After approval: write, if the file still holds what the approved diff was made from."""
        if decision.action == "reject":
            why = f" ({decision.reason})" if decision.reason else ""
            raise EditRejected(
                f"The edit of {plan.target.display} was rejected{why}; nothing was written.",
                hint="Ask the user what to change, or propose a different edit.",
            )
        target = plan.target
        with self._locks.hold(target.real, display=target.display):
            current = self._read(target)
            if current.sha256 != plan.snapshot.sha256:
                raise StaleFile(
                    f"{target.display} changed on disk while the edit waited for approval; "
                    "nothing was written.",
                    path=target.display,
                    hint="Read the file again and redo the edit against its current content.",
                )
            if decision.action == "modify" and decision.content is not None:
                content = decision.content
                computed = replace(
                    plan.computed, new_content=content, no_change=content == current.text
                )
                plan = replace(
                    plan,
                    computed=computed,
                    diff=diff_of(target, plan.snapshot, content),
                    modified_by_user=True,
                )
            return self._write(job, plan)

    def _write(self, job: Job, plan: Plan) -> EditResult:
        """Write ``plan`` (lock held) unless it is a dry run or changes nothing."""
        target, snapshot, computed = plan.target, plan.snapshot, plan.computed
        if job.dry_run or computed.no_change:
            hash_after = snapshot.sha256 if computed.no_change else None
            return result_of(job, plan, hash_after=hash_after)
        try:
            data = computed.new_content.encode("utf-8")
        except UnicodeEncodeError as error:
            raise BadRequest(
                "new_string contains characters that cannot be written as UTF-8 "
                f"({error.reason} at position {error.start}); nothing was written.",
                hint="Remove lone surrogate escapes (such as \\ud800) from new_string.",
            ) from error
        created_dirs = [] if snapshot.exists else self._make_parents(target)
        try:
            durability_notes = atomic_write(
                target.real,
                data,
                display=target.display,
                mode=snapshot.mode,
                before_replace=lambda: self._still_same(target, snapshot),
            )
        except BaseException:
            _remove_dirs(created_dirs)
            raise
        hash_after = sha256_hex(data)
        if self.read_tracker is not None:
            self.read_tracker.record(os.fspath(target.real), hash_after)
        job.notes.extend(durability_notes)
        return result_of(job, plan, hash_after=hash_after)

    # ------------------------------------------------------------------ stage helpers

    def _check_match_mode(self, match_mode: str) -> None:
        tiers_for = getattr(self.cascade, "tiers_for", None)
        if tiers_for is not None:
            tiers_for(match_mode)  # raises BadRequest naming the valid modes

    def _target(self, job: Job) -> Target:
        target = self.workspace.resolve(job.file_path)  # type: ignore[arg-type]
        job.state.file_path = target.display
        if job.creates or os.path.lexists(target.real):
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
        return read_snapshot(target.real, display=target.display, max_bytes=self.max_file_bytes)

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

    def _still_same(self, target: Target, snapshot: FileSnapshot) -> None:
        """The last check before the rename, against writers that ignore our lock."""
        current = self._read(target)
        if current.sha256 != snapshot.sha256:
            raise StaleFile(
                f"{target.display} was changed by another program during the edit; "
                "nothing was written.",
                path=target.display,
                hint="Read the file again and redo the edit.",
            )

    def _make_parents(self, target: Target) -> list[Path]:
        """Create the missing parent folders of a new file; return them, outermost first."""
        missing: list[Path] = []
        parent = target.real.parent
        while not parent.exists():
            missing.append(parent)
            parent = parent.parent
        missing.reverse()
        root = self.workspace.real_root
        try:
            for folder in missing:
                folder.mkdir()
                real = Path(os.path.realpath(folder))
                if real != root and root not in real.parents:
                    raise PathOutsideWorkspace(
                        f"Refused to create {folder}: it resolves outside the workspace.",
                        path=target.display,
                    )
        except OSError as error:
            _remove_dirs(missing)
            raise WriteFailed(
                f"Could not create the folder for {target.display}: "
                f"{error.strerror or error}. Nothing was written.",
                path=target.display,
            ) from error
        except BaseException:
            _remove_dirs(missing)
            raise
        return missing

    def _compute(self, job: Job, text: str) -> Computed:
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
        return Computed(
            new_content=content,
            replacements=replacements,
            strategy="+".join(strategies),
            no_change=content == text,
            note="the edits leave the file as it was" if content == text else None,
            edits=len(job.specs),
        )

    def _cascade_pass(self, job: Job, text: str, old: str, new: str, spec: EditSpec) -> Computed:
        """One cascade run with ``spec``'s rules; its trace goes to telemetry either way."""
        try:
            edit: TextEdit = self.cascade.edit(
                text,
                old,
                new,
                replace_all=spec.replace_all,
                expected_replacements=spec.expected_replacements,
                match_mode=spec.match_mode,
            )
        except MatchError as error:
            job.state.attempts.extend(self._with_thresholds(error.trace))
            raise
        job.state.attempts.extend(self._with_thresholds(edit.trace))
        return Computed(
            new_content=edit.new_content,
            replacements=edit.replacements,
            strategy=edit.strategy,
            no_change=edit.no_change,
            note=edit.note,
            spans=tuple(getattr(edit, "spans", ())),
        )

    def _with_thresholds(self, trace: Sequence[TierAttempt]) -> list[TierAttempt]:
        """The trace, each fuzzy tier's attempt carrying the threshold it was held to (when
        the cascade did not say so itself)."""
        thresholds = self._fuzzy_thresholds
        return [
            replace(attempt, threshold=thresholds[attempt.tier])
            if attempt.threshold is None and attempt.tier in thresholds
            else attempt
            for attempt in trace
        ]

    def _plan(
        self, target: Target, snapshot: FileSnapshot, computed: Computed, **extra: Any
    ) -> Plan:
        return Plan(
            target, snapshot, computed, diff_of(target, snapshot, computed.new_content), **extra
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


def _fuzzy_thresholds(cascade: Any) -> dict[str, float]:
    """Tier name -> similarity threshold, for the fuzzy tiers of a cascade that lists them."""
    tiers = getattr(cascade, "tiers", None)
    if not isinstance(tiers, (list, tuple)):
        return {}
    out: dict[str, float] = {}
    for tier in tiers:
        threshold = getattr(tier, "threshold", None)
        name = getattr(tier, "name", None)
        numeric = isinstance(threshold, (int, float)) and not isinstance(threshold, bool)
        if getattr(tier, "fuzzy", False) and isinstance(name, str) and numeric:
            out[name] = float(threshold)
    return out


def _written(result: EditResult) -> bool:
    return not result.dry_run and not result.no_change


def _internal_error(error: Exception) -> str:
    logger.error("unexpected error while handling a tool call", exc_info=error)
    return (
        f"Error [internal_error]: the edit failed unexpectedly ({type(error).__name__}: {error}). "
        "Re-read the file to see its current state before trying again."
    )


def _remove_dirs(folders: list[Path]) -> None:
    for folder in reversed(folders):
        with contextlib.suppress(OSError):  # not empty any more: someone else uses it
            folder.rmdir()
