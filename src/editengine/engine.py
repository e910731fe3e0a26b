"""EditEngine: edits on real files. read -> cascade -> (fixer -> re-check) -> confirm -> write.

Every step that touches the file runs under the file's lock and re-reads it, so the text an
edit matched is the text it replaces. The two steps that may take long — the LLM fixer and
the user's approval — run without the lock; the file is re-read (and its hash compared)
when the lock is taken again. The flow is written once as small synchronous stages; the
sync and async entry points differ only in how they call the fixer, the confirm callback
and the file stages (directly, or awaited / in a worker thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import os
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from editengine import tools as _tools
from editengine.diff import FileDiff, unified_diff
from editengine.edits import ConfirmRequest, Decision, EditResult, EditSpec
from editengine.errors import (
    BadRequest,
    EditError,
    EditRejected,
    FileNotFound,
    FixerError,
    FixerTimeout,
    MatchError,
    MultiEditFailed,
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
from editengine.fixer.protocol import Correction, Fixer, FixRequest
from editengine.read_tracker import ReadTracker
from editengine.results import TextEdit, TierAttempt
from editengine.state import EditObserver, EditState, FixerCall
from editengine.text import to_lf

logger = logging.getLogger("editengine")

ConfirmAnswer = bool | str | Decision | None
ConfirmCallback = Callable[[ConfirmRequest], ConfirmAnswer | Awaitable[ConfirmAnswer]]
EditedCallback = Callable[[EditResult], Any]

DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024
_PREVIEW_CHARS = 200


@dataclass
class _Job:
    """One call to edit / multi_edit, validated, plus what the stages learn along the way."""

    operation: Literal["edit", "multi_edit"]
    file_path: object
    specs: tuple[EditSpec, ...]
    instruction: str | None
    dry_run: bool
    expected_hash: str | None
    state: EditState
    notes: list[str] = field(default_factory=list)
    # Invalid arguments are found before telemetry starts; the driver raises this inside it.
    error: EditError | None = None

    @property
    def creates(self) -> bool:
        return self.specs[0].old_string == ""


@dataclass(frozen=True)
class _Computed:
    new_content: str
    replacements: int
    strategy: str
    no_change: bool
    note: str | None = None
    edits: int = 1


@dataclass(frozen=True)
class _Plan:
    """New content computed against ``snapshot``; written only if the file still holds it."""

    target: Target
    snapshot: FileSnapshot
    computed: _Computed
    diff: FileDiff
    corrected_by_fixer: bool = False
    fixer_explanation: str | None = None
    modified_by_user: bool = False


@dataclass(frozen=True)
class _NeedsFix:
    """The cascade found nothing; the fixer is asked, without the lock held."""

    target: Target
    snapshot: FileSnapshot
    error: NoMatch
    request: FixRequest


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
    ) -> None:
        if cascade is None:
            from editengine import DEFAULT_CASCADE  # late: editengine/__init__ imports us

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
        self._observers = _observers(telemetry)
        self._locks = PathLocks(lock_dir, timeout=lock_timeout)

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
        """Replace ``old_string`` with ``new_string`` in the file; see the module docstring."""
        job = self._edit_job(
            file_path, old_string, new_string, instruction, replace_all,
            expected_replacements, match_mode, dry_run, expected_hash,
        )  # fmt: skip
        return self._observed_sync(job)

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
        job = self._edit_job(
            file_path, old_string, new_string, instruction, replace_all,
            expected_replacements, match_mode, dry_run, expected_hash,
        )  # fmt: skip
        return await self._observed_async(job)

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
        return self._observed_sync(
            self._multi_job(file_path, edits, instruction, dry_run, expected_hash)
        )

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
        return await self._observed_async(
            self._multi_job(file_path, edits, instruction, dry_run, expected_hash)
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

        Never raises for bad input: a malformed call returns a ``bad_request`` message.
        """
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

    # ------------------------------------------------------------------ jobs

    def _edit_job(
        self,
        file_path: object,
        old_string: str,
        new_string: str,
        instruction: str | None,
        replace_all: bool,
        expected_replacements: int | None,
        match_mode: str,
        dry_run: bool,
        expected_hash: str | None,
    ) -> _Job:
        state = EditState(file_path=_text_of(file_path), operation="edit")
        job = _Job("edit", file_path, (), instruction, dry_run, expected_hash, state)
        state.dry_run, state.match_mode, state.replace_all = dry_run, match_mode, replace_all
        state.instruction_given = bool(instruction)
        if isinstance(old_string, str) and isinstance(new_string, str):
            state.old_chars, state.new_chars = len(old_string), len(new_string)
            state.old_preview = old_string[:_PREVIEW_CHARS]
            state.new_preview = new_string[:_PREVIEW_CHARS]
        try:
            spec = EditSpec(
                old_string, new_string, replace_all, expected_replacements, match_mode, instruction
            )
            _check_common(dry_run, expected_hash)
            self._check_match_mode(spec.match_mode)
        except EditError as error:
            job.specs = (EditSpec("", ""),)  # a placeholder, never applied: the job fails
            return _failed(job, error)
        job.specs = (spec,)
        return job

    def _multi_job(
        self,
        file_path: object,
        edits: object,
        instruction: str | None,
        dry_run: bool,
        expected_hash: str | None,
    ) -> _Job:
        state = EditState(file_path=_text_of(file_path), operation="multi_edit")
        state.dry_run, state.instruction_given = dry_run, bool(instruction)
        job = _Job("multi_edit", file_path, (), instruction, dry_run, expected_hash, state)
        try:
            _check_common(dry_run, expected_hash)
            if instruction is not None and not isinstance(instruction, str):
                raise BadRequest("instruction must be a string.")
            if isinstance(edits, (str, bytes, Mapping)) or not isinstance(edits, Sequence):
                raise BadRequest("edits must be a list of {old_string, new_string} objects.")
            if not edits:
                raise BadRequest("edits is empty: give at least one edit.")
            specs = []
            for index, item in enumerate(edits, 1):
                try:
                    spec = EditSpec.of(item)
                    self._check_match_mode(spec.match_mode)
                    if spec.old_string == "" and index > 1:
                        raise BadRequest(
                            "old_string is empty; only the first edit may create or replace "
                            "the whole file."
                        )
                except EditError as error:
                    raise _multi_failed(index, len(edits), error) from error
                specs.append(spec)
        except EditError as error:
            job.specs = (EditSpec("", ""),)
            return _failed(job, error)
        job.specs = tuple(specs)
        state.replace_all = any(spec.replace_all for spec in specs)
        modes = {spec.match_mode for spec in specs}
        state.match_mode = modes.pop() if len(modes) == 1 else "mixed"
        state.old_chars = sum(len(spec.old_string) for spec in specs)
        state.new_chars = sum(len(spec.new_string) for spec in specs)
        state.old_preview = specs[0].old_string[:_PREVIEW_CHARS]
        state.new_preview = specs[0].new_string[:_PREVIEW_CHARS]
        return job

    def _check_match_mode(self, match_mode: str) -> None:
        tiers_for = getattr(self.cascade, "tiers_for", None)
        if tiers_for is not None:
            tiers_for(match_mode)  # raises BadRequest naming the valid modes

    # ------------------------------------------------------------------ drivers

    def _observed_sync(self, job: _Job) -> EditResult:
        self._notify("edit_started", job.state)
        started = time.perf_counter()
        try:
            result = self._drive_sync(job)
        except BaseException as error:
            _record_failure(job.state, error)
            raise
        else:
            _record_success(job.state, result)
        finally:
            job.state.duration_ms = (time.perf_counter() - started) * 1000
            self._notify("edit_finished", job.state)
        self._run_hooks_sync(result)
        return result

    async def _observed_async(self, job: _Job) -> EditResult:
        self._notify("edit_started", job.state)
        started = time.perf_counter()
        try:
            result = await self._drive_async(job)
        except BaseException as error:
            _record_failure(job.state, error)
            raise
        else:
            _record_success(job.state, result)
        finally:
            job.state.duration_ms = (time.perf_counter() - started) * 1000
            self._notify("edit_finished", job.state)
        await self._run_hooks_async(result)
        return result

    def _drive_sync(self, job: _Job) -> EditResult:
        _raise_if_failed(job)
        step = self._begin(job)
        if isinstance(step, _NeedsFix):
            correction = self._fix_sync(job, step)
            step = self._after_fix(job, step, correction)
        if isinstance(step, _Plan):
            decision = Decision.of(_resolve_sync(self._ask(step), "confirm"))
            step = self._commit(job, step, decision)
        return step

    async def _drive_async(self, job: _Job) -> EditResult:
        _raise_if_failed(job)
        step = await asyncio.to_thread(self._begin, job)
        if isinstance(step, _NeedsFix):
            correction = await self._fix_async(job, step)
            step = await asyncio.to_thread(self._after_fix, job, step, correction)
        if isinstance(step, _Plan):
            answer = self._ask(step)
            if inspect.isawaitable(answer):
                answer = await answer
            step = await asyncio.to_thread(self._commit, job, step, Decision.of(answer))
        return step

    # ------------------------------------------------------------------ stages (sync, locked)

    def _begin(self, job: _Job) -> EditResult | _Plan | _NeedsFix:
        """Guard, lock, read, check freshness, match; write at once when nothing waits."""
        target = self._target(job)
        with self._locks.hold(target.real, display=target.display):
            snapshot = self._read(target)
            self._fill_state(job.state, target, snapshot)
            self._check_fresh(job, target, snapshot)
            if not snapshot.exists and not job.creates:
                raise self._not_found(target)
            try:
                computed = self._compute(job, snapshot.text)
            except NoMatch as error:
                if self.fixer is None or job.operation != "edit":
                    raise
                return self._needs_fix(job, target, snapshot, error)
            plan = self._plan(target, snapshot, computed)
            if self._waits_for_confirm(job, plan):
                return plan
            return self._write(job, plan)

    def _after_fix(self, job: _Job, step: _NeedsFix, correction: Correction) -> EditResult | _Plan:
        """Re-read under the lock; validate the correction against what the file holds now."""
        target = step.target
        with self._locks.hold(target.real, display=target.display):
            current = self._read(target)
            if not current.exists:
                self._fixer_outcome(job, "failed_validation", "the file was deleted")
                raise self._not_found(target)
            plan = self._validate_correction(job, step, current, correction)
            if self._waits_for_confirm(job, plan):
                return plan
            return self._write(job, plan)

    def _commit(self, job: _Job, plan: _Plan, decision: Decision) -> EditResult:
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
                    diff=_diff(target, plan.snapshot, content),
                    modified_by_user=True,
                )
            return self._write(job, plan)

    def _write(self, job: _Job, plan: _Plan) -> EditResult:
        """Write ``plan`` (lock held) unless it is a dry run or changes nothing."""
        target, snapshot, computed = plan.target, plan.snapshot, plan.computed
        if job.dry_run or computed.no_change:
            hash_after = snapshot.sha256 if computed.no_change else None
            return self._result(job, plan, hash_after=hash_after)
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
        return self._result(job, plan, hash_after=hash_after)

    # ------------------------------------------------------------------ stage helpers

    def _target(self, job: _Job) -> Target:
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

    def _check_fresh(self, job: _Job, target: Target, snapshot: FileSnapshot) -> None:
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
        """Create the missing parent folders of a new file; return them, deepest last."""
        missing: list[Path] = []
        parent = target.real.parent
        while not parent.exists():
            missing.append(parent)
            parent = parent.parent
        missing.reverse()
        try:
            for folder in missing:
                folder.mkdir()
                real = Path(os.path.realpath(folder))
                if (
                    real != self.workspace.real_root
                    and self.workspace.real_root not in real.parents
                ):
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

    def _compute(self, job: _Job, text: str) -> _Computed:
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
                raise _multi_failed(index, len(job.specs), error) from error
            content = step.new_content
            replacements += step.replacements
            if step.strategy not in strategies:
                strategies.append(step.strategy)
        return _Computed(
            new_content=content,
            replacements=replacements,
            strategy="+".join(strategies),
            no_change=content == text,
            note="the edits leave the file as it was" if content == text else None,
            edits=len(job.specs),
        )

    def _cascade_pass(self, job: _Job, text: str, old: str, new: str, spec: EditSpec) -> _Computed:
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
            job.state.attempts.extend(_trace(error))
            raise
        job.state.attempts.extend(_trace(edit))
        return _Computed(
            new_content=edit.new_content,
            replacements=edit.replacements,
            strategy=edit.strategy,
            no_change=edit.no_change,
            note=edit.note,
        )

    def _plan(
        self, target: Target, snapshot: FileSnapshot, computed: _Computed, **extra: Any
    ) -> _Plan:
        return _Plan(
            target, snapshot, computed, _diff(target, snapshot, computed.new_content), **extra
        )

    def _waits_for_confirm(self, job: _Job, plan: _Plan) -> bool:
        return self.confirm is not None and not job.dry_run and not plan.computed.no_change

    def _ask(self, plan: _Plan) -> Any:
        assert self.confirm is not None
        request = ConfirmRequest(
            file_path=plan.target.display,
            absolute_path=os.fspath(plan.target.absolute),
            diff=plan.diff.text,
            summary=_summary_of(plan, dry_run=False, preview=True),
            old_text=plan.snapshot.text,
            new_text=plan.computed.new_content,
            created=not plan.snapshot.exists,
        )
        return self.confirm(request)

    # ------------------------------------------------------------------ fixer

    def _needs_fix(
        self, job: _Job, target: Target, snapshot: FileSnapshot, error: NoMatch
    ) -> _NeedsFix:
        spec = job.specs[0]
        instruction = spec.instruction or (
            "Replace the code that looks like old_string with new_string, "
            "leaving everything else unchanged."
        )
        request = FixRequest(
            file_path=target.display,
            content=snapshot.text,
            old_string=spec.old_string,
            new_string=spec.new_string,
            error=error,
            instruction=instruction,
            replace_all=spec.replace_all,
            expected_replacements=spec.expected_replacements,
        )
        return _NeedsFix(target, snapshot, error, request)

    def _fix_sync(self, job: _Job, step: _NeedsFix) -> Correction:
        assert self.fixer is not None
        started = time.perf_counter()
        try:
            return self.fixer.correct(step.request)
        except Exception as error:
            raise self._fixer_failed(job, step, error, started) from error

    async def _fix_async(self, job: _Job, step: _NeedsFix) -> Correction:
        assert self.fixer is not None
        started = time.perf_counter()
        try:
            return await self.fixer.acorrect(step.request)
        except Exception as error:
            raise self._fixer_failed(job, step, error, started) from error

    def _fixer_failed(
        self, job: _Job, step: _NeedsFix, error: Exception, started: float
    ) -> NoMatch:
        """A fixer that fails returns the original error, with a note saying why."""
        if not isinstance(error, FixerError):
            logger.warning("the fixer raised an unexpected error", exc_info=error)
        reason = error.message if isinstance(error, EditError) else repr(error)
        job.state.fixer = FixerCall(
            outcome="timeout" if isinstance(error, FixerTimeout) else "error",
            latency_ms=(time.perf_counter() - started) * 1000,
            note=reason,
        )
        step.error.add_note_for_agent(f"The LLM fixer could not correct it: {reason}")
        return step.error

    def _validate_correction(
        self, job: _Job, step: _NeedsFix, current: FileSnapshot, correction: Correction
    ) -> _Plan:
        spec = job.specs[0]
        target = step.target
        job.state.fixer = _fixer_call(correction)
        if current.sha256 != step.snapshot.sha256:
            self._fill_state(job.state, target, current)
            try:
                computed = self._cascade_pass(
                    job, current.text, spec.old_string, spec.new_string, spec
                )
            except MatchError:
                job.notes.append(
                    "The file changed on disk while the LLM fixer ran; the correction was "
                    "checked against the new content."
                )
            else:
                job.state.fixer.note = "not used: the original edit matched the changed file"
                job.notes.append(
                    "The file changed on disk while the LLM fixer ran; the original edit "
                    "matches the new content, so it was applied as given."
                )
                return self._plan(target, current, computed)

        if correction.no_changes_required:
            wanted = to_lf(spec.new_string)
            if wanted.strip() and wanted in to_lf(current.text):
                job.state.fixer.outcome = "no_change"
                computed = _Computed(current.text, 0, "already_applied", True)
                return self._plan(
                    target,
                    current,
                    computed,
                    corrected_by_fixer=True,
                    fixer_explanation=correction.explanation or None,
                )
            raise self._rejected_correction(
                job, step, "it said no change was needed, but new_string is not in the file"
            )
        if not isinstance(correction.search, str) or not correction.search:
            raise self._rejected_correction(job, step, "its search text is empty")
        if correction.search == correction.replace:
            raise self._rejected_correction(job, step, "its search and replace are identical")
        try:
            computed = self._cascade_pass(
                job, current.text, correction.search, correction.replace, spec
            )
        except MatchError as error:
            first_line = error.message.splitlines()[0] if error.message else error.code
            raise self._rejected_correction(
                job, step, f"its search text does not place the edit safely ({first_line})"
            ) from error
        job.state.fixer.outcome = "corrected"
        return self._plan(
            target,
            current,
            computed,
            corrected_by_fixer=True,
            fixer_explanation=correction.explanation or None,
        )

    def _rejected_correction(self, job: _Job, step: _NeedsFix, why: str) -> NoMatch:
        self._fixer_outcome(job, "failed_validation", why)
        step.error.add_note_for_agent(f"The LLM fixer proposed a correction, but {why}.")
        return step.error

    def _fixer_outcome(self, job: _Job, outcome: Any, note: str) -> None:
        if job.state.fixer is None:
            job.state.fixer = FixerCall()
        job.state.fixer.outcome = outcome
        job.state.fixer.note = note

    # ------------------------------------------------------------------ results & hooks

    def _result(self, job: _Job, plan: _Plan, *, hash_after: str | None) -> EditResult:
        computed = plan.computed
        notes = list(job.notes)
        if computed.note and not computed.no_change:
            notes.append(computed.note)
        return EditResult(
            summary=_summary_of(plan, dry_run=job.dry_run),
            file_path=plan.target.display,
            absolute_path=os.fspath(plan.target.absolute),
            replacements=0 if computed.no_change else computed.replacements,
            strategy=computed.strategy,
            diff=plan.diff.text,
            additions=plan.diff.additions,
            deletions=plan.diff.deletions,
            hash_before=plan.snapshot.sha256,
            hash_after=hash_after,
            no_change=computed.no_change,
            dry_run=job.dry_run,
            created=not plan.snapshot.exists,
            corrected_by_fixer=plan.corrected_by_fixer,
            fixer_explanation=plan.fixer_explanation,
            modified_by_user=plan.modified_by_user,
            notes=tuple(notes),
            edit_id=job.state.edit_id,
            old_text=plan.snapshot.text,
            new_text=computed.new_content,
        )

    def _written(self, result: EditResult) -> bool:
        return not result.dry_run and not result.no_change

    def _run_hooks_sync(self, result: EditResult) -> None:
        if not self._written(result):
            return
        for hook in self.on_edited:
            try:
                _resolve_sync(hook(result), "on_edited")
            except Exception:
                logger.warning("on_edited callback %r failed", hook, exc_info=True)

    async def _run_hooks_async(self, result: EditResult) -> None:
        if not self._written(result):
            return
        for hook in self.on_edited:
            try:
                answer = hook(result)
                if inspect.isawaitable(answer):
                    await answer
            except Exception:
                logger.warning("on_edited callback %r failed", hook, exc_info=True)

    def _fill_state(self, state: EditState, target: Target, snapshot: FileSnapshot) -> None:
        state.file_path = target.display
        state.file_bytes = snapshot.size if snapshot.exists else None
        state.file_lines = snapshot.lines if snapshot.exists else None
        state.hash_before = snapshot.sha256

    def _notify(self, event: str, state: EditState) -> None:
        for observer in self._observers:
            try:
                getattr(observer, event)(state)
            except Exception:
                logger.warning("telemetry observer %r failed in %s", observer, event, exc_info=True)


# ---------------------------------------------------------------------- module helpers


def _internal_error(error: Exception) -> str:
    logger.error("unexpected error while handling a tool call", exc_info=error)
    return (
        f"Error [internal_error]: the edit failed unexpectedly ({type(error).__name__}: {error}). "
        "Re-read the file to see its current state before trying again."
    )


def _observers(telemetry: object) -> tuple[EditObserver, ...]:
    if telemetry is None:
        return ()
    if hasattr(telemetry, "edit_started") or hasattr(telemetry, "edit_finished"):
        return (telemetry,)  # type: ignore[return-value]
    return tuple(telemetry)  # type: ignore[arg-type]


def _text_of(file_path: object) -> str:
    try:
        return os.fspath(file_path)  # type: ignore[arg-type]
    except TypeError:
        return repr(file_path)


def _check_common(dry_run: object, expected_hash: object) -> None:
    if not isinstance(dry_run, bool):
        raise BadRequest(f"dry_run must be true or false, got {dry_run!r}.")
    if expected_hash is not None and not isinstance(expected_hash, str):
        raise BadRequest("expected_hash must be a sha256 hex string.")


def _failed(job: _Job, error: EditError) -> _Job:
    job.error = error
    return job


def _raise_if_failed(job: _Job) -> None:
    if job.error is not None:
        raise job.error


def _multi_failed(index: int, total: int, error: EditError) -> MultiEditFailed:
    return MultiEditFailed(
        f"Edit {index} of {total} failed ({error.code}); nothing was written.\n"
        f"Edit {index}: {error}\n"
        f"Fix edit {index} and send all {total} edits again (edits run in order, each on the "
        "result of the ones before it).",
        index=index,
        cause=error,
    )


def _trace(source: TextEdit | MatchError) -> tuple[TierAttempt, ...]:
    return tuple(getattr(source, "trace", ()) or ())


def _fixer_call(correction: Correction) -> FixerCall:
    return FixerCall(
        provider=correction.provider,
        model=correction.model,
        outcome="corrected",
        latency_ms=correction.latency_ms,
        input_tokens=correction.input_tokens,
        output_tokens=correction.output_tokens,
        cache_hit=correction.cache_hit,
        windowed=correction.windowed,
        prompt_chars=correction.prompt_chars,
    )


def _diff(target: Target, snapshot: FileSnapshot, new_content: str) -> FileDiff:
    return unified_diff(snapshot.text, new_content, target.display, created=not snapshot.exists)


def _summary_of(plan: _Plan, *, dry_run: bool, preview: bool = False) -> str:
    computed = plan.computed
    path = plan.target.display
    if computed.no_change:
        if plan.corrected_by_fixer:
            why = f": {plan.fixer_explanation}" if plan.fixer_explanation else ""
            return f"No change: the LLM fixer found the edit already applied in {path}{why}"
        if computed.note:
            return f"No change in {path}: {computed.note}"
        return f"No change: the edit is already applied in {path}"
    lines = computed.new_content.count("\n") + (
        0 if computed.new_content.endswith("\n") or not computed.new_content else 1
    )
    count = computed.replacements
    if not plan.snapshot.exists:
        verb, rest = "create", f"{path} ({lines} line{'s' if lines != 1 else ''})"
    elif computed.strategy == "whole_file":
        verb, rest = "rewrite", f"{path} ({lines} line{'s' if lines != 1 else ''})"
    elif computed.edits > 1:
        verb = "apply"
        rest = (
            f"{computed.edits} edits ({count} replacement{'s' if count != 1 else ''}) "
            f"to {path} ({computed.strategy} match)"
        )
    else:
        verb = "replace"
        rest = (
            f"{count} occurrence{'s' if count != 1 else ''} in {path} ({computed.strategy} match)"
        )
    if dry_run:
        text = f"Preview (dry run): would {verb} {rest}; nothing was written"
    elif preview:
        text = f"Will {verb} {rest}"
    else:
        text = f"{_past(verb)} {rest}"
    if plan.corrected_by_fixer:
        why = f": {plan.fixer_explanation}" if plan.fixer_explanation else ""
        text += f", after the LLM fixer corrected old_string{why}"
    if plan.modified_by_user:
        text += ", with the user's modifications"
    return text


def _past(verb: str) -> str:
    return {"create": "Created", "rewrite": "Rewrote", "apply": "Applied", "replace": "Replaced"}[
        verb
    ]


def _record_success(state: EditState, result: EditResult) -> None:
    state.outcome = "no_change" if result.no_change else "success"
    state.error_code = None
    state.strategy = result.strategy
    state.replacements = result.replacements


def _record_failure(state: EditState, error: BaseException) -> None:
    state.outcome = "error"
    state.error_code = error.code if isinstance(error, EditError) else "internal_error"


def _resolve_sync(value: Any, what: str) -> Any:
    """Run an awaitable a callback returned, when called from synchronous code."""
    if not inspect.isawaitable(value):
        return value
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_await(value))
    if inspect.iscoroutine(value):
        value.close()
    raise BadRequest(
        f"The {what} callback is async, but edit() was called inside a running event loop; "
        "use the async methods (aedit, amulti_edit) there."
    )


async def _await(value: Awaitable[Any]) -> Any:
    return await value


def _remove_dirs(folders: list[Path]) -> None:
    for folder in reversed(folders):
        with contextlib.suppress(OSError):  # not empty any more: someone else uses it
            folder.rmdir()
