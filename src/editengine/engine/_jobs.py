"""One call to ``edit`` / ``multi_edit``, validated, and the values its stages hand on."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from editengine._diff import FileDiff
from editengine._edits import EditSpec
from editengine._errors import BadRequest, EditError, MultiEditFailed, NoMatch
from editengine._results import Diagnostic, TextEdit
from editengine._state import EditState
from editengine.files import FileSnapshot, Target
from editengine.fixer._protocol import FixRequest

PREVIEW_CHARS = 200


@dataclass
class Job:
    """One call, plus what the stages learn along the way (notes, telemetry state)."""

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
        return bool(self.specs) and self.specs[0].old_string == ""

    def raise_if_invalid(self) -> None:
        if self.error is not None:
            raise self.error


@dataclass(frozen=True)
class Plan:
    """New content computed against ``snapshot``; written only if the file still holds it."""

    target: Target
    snapshot: FileSnapshot
    computed: TextEdit
    diff: FileDiff
    corrected_by_fixer: bool = False
    fixer_explanation: str | None = None
    modified_by_user: bool = False
    diagnostics: tuple[Diagnostic, ...] = ()
    diagnostics_note: str | None = None


@dataclass(frozen=True)
class NeedsFix:
    """The cascade found nothing; the fixer is asked, without the lock held."""

    target: Target
    snapshot: FileSnapshot
    error: NoMatch
    request: FixRequest


def edit_job(
    file_path: object,
    old_string: str,
    new_string: str,
    *,
    instruction: str | None,
    replace_all: bool,
    expected_replacements: int | None,
    match_mode: str,
    dry_run: bool,
    expected_hash: str | None,
    check_match_mode: Callable[[str], None],
    overwrite: bool = False,
) -> Job:
    state = EditState(file_path=_text_of(file_path), operation="edit")
    job = Job("edit", file_path, (), instruction, dry_run, expected_hash, state)
    state.dry_run, state.match_mode, state.replace_all = dry_run, match_mode, replace_all
    state.instruction_given = bool(instruction)
    if isinstance(old_string, str) and isinstance(new_string, str):
        state.old_chars, state.new_chars = len(old_string), len(new_string)
        state.old_preview = old_string[:PREVIEW_CHARS]
        state.new_preview = new_string[:PREVIEW_CHARS]
    try:
        spec = EditSpec(
            old_string,
            new_string,
            replace_all,
            expected_replacements,
            match_mode,
            instruction,
            overwrite,
        )
        _check_common(dry_run, expected_hash)
        check_match_mode(spec.match_mode)
    except EditError as error:
        job.error = error
        return job
    job.specs = (spec,)
    return job


def multi_edit_job(
    file_path: object,
    edits: object,
    *,
    instruction: str | None,
    dry_run: bool,
    expected_hash: str | None,
    check_match_mode: Callable[[str], None],
) -> Job:
    state = EditState(file_path=_text_of(file_path), operation="multi_edit")
    state.dry_run, state.instruction_given = dry_run, bool(instruction)
    job = Job("multi_edit", file_path, (), instruction, dry_run, expected_hash, state)
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
                check_match_mode(spec.match_mode)
                if spec.old_string == "" and index > 1:
                    raise BadRequest(
                        "old_string is empty; only the first edit may create or replace "
                        "the whole file."
                    )
            except EditError as error:
                raise multi_failed(index, len(edits), error) from error
            specs.append(spec)
    except EditError as error:
        job.error = error
        return job
    job.specs = tuple(specs)
    state.replace_all = any(spec.replace_all for spec in specs)
    modes = {spec.match_mode for spec in specs}
    state.match_mode = modes.pop() if len(modes) == 1 else "mixed"
    state.old_chars = sum(len(spec.old_string) for spec in specs)
    state.new_chars = sum(len(spec.new_string) for spec in specs)
    state.old_preview = specs[0].old_string[:PREVIEW_CHARS]
    state.new_preview = specs[0].new_string[:PREVIEW_CHARS]
    return job


def multi_failed(index: int, total: int, error: EditError) -> MultiEditFailed:
    return MultiEditFailed(
        f"Edit {index} of {total} failed ({error.code}); nothing was written.\n"
        f"Edit {index}: {error}\n"
        f"Fix edit {index} and send all {total} edits again (edits run in order, each on the "
        "result of the ones before it).",
        index=index,
        cause=error,
    )


def _text_of(file_path: object) -> str:
    try:
        return os.fspath(cast("str | os.PathLike[str]", file_path))
    except TypeError:
        return repr(file_path)


def _check_common(dry_run: object, expected_hash: object) -> None:
    if not isinstance(dry_run, bool):
        raise BadRequest(f"dry_run must be true or false, got {dry_run!r}.")
    if expected_hash is not None and not isinstance(expected_hash, str):
        raise BadRequest("expected_hash must be a sha256 hex string.")
