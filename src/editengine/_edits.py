"""Value objects of file edits: what is asked (:class:`EditSpec`) and the approval
hand-shake (:class:`ConfirmRequest`, :class:`Decision`). What happened is a result
(:class:`~editengine.EditResult`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from editengine._errors import BadRequest

# Canonical argument name -> the spellings accepted from callers and models.
ARGUMENT_ALIASES: dict[str, tuple[str, ...]] = {
    "file_path": ("file_path", "filePath", "path"),
    "old_string": ("old_string", "oldString", "old_str"),
    "new_string": ("new_string", "newString", "new_str"),
    "replace_all": ("replace_all", "replaceAll"),
    "expected_replacements": ("expected_replacements", "expectedReplacements"),
    "match_mode": ("match_mode", "matchMode"),
    "instruction": ("instruction",),
    "edits": ("edits",),
    "dry_run": ("dry_run", "dryRun"),
    "overwrite": ("overwrite",),
}


def canonical_arguments(
    arguments: Mapping[str, Any], *, where: str = "arguments"
) -> dict[str, Any]:
    """``arguments`` with every accepted spelling mapped to its snake_case name.

    Unknown names are dropped; two spellings of one argument with different values are a
    :class:`BadRequest`.
    """
    out: dict[str, Any] = {}
    for canonical, spellings in ARGUMENT_ALIASES.items():
        given = [name for name in spellings if name in arguments]
        if not given:
            continue
        values = {repr(arguments[name]) for name in given}
        if len(values) > 1:
            names = " and ".join(given)
            raise BadRequest(f"{where}: {names} are the same argument with different values.")
        out[canonical] = arguments[given[0]]
    return out


@dataclass(frozen=True)
class EditSpec:
    """One search/replace request, validated: what the cascade is asked, a single edit is,
    and each edit of a multi-edit is."""

    old_string: str
    new_string: str
    replace_all: bool = False
    expected_replacements: int | None = None
    match_mode: str = "auto"
    instruction: str | None = None
    # An empty old_string replaces a file that has content only when this is set.
    overwrite: bool = False

    def __post_init__(self) -> None:
        for name in ("old_string", "new_string"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise BadRequest(f"{name} must be a string, got {type(value).__name__}.")
        if not isinstance(self.replace_all, bool):
            raise BadRequest(f"replace_all must be true or false, got {self.replace_all!r}.")
        expected = self.expected_replacements
        if expected is not None and (
            isinstance(expected, bool) or not isinstance(expected, int) or expected < 1
        ):
            raise BadRequest(f"expected_replacements must be a positive integer, got {expected!r}.")
        if not isinstance(self.match_mode, str) or not self.match_mode:
            raise BadRequest(f"match_mode must be a non-empty string, got {self.match_mode!r}.")
        if self.instruction is not None and not isinstance(self.instruction, str):
            raise BadRequest(
                f"instruction must be a string, got {type(self.instruction).__name__}."
            )
        if not isinstance(self.overwrite, bool):
            raise BadRequest(f"overwrite must be true or false, got {self.overwrite!r}.")

    @classmethod
    def of(cls, value: EditSpec | Mapping[str, Any]) -> EditSpec:
        """An :class:`EditSpec` from itself or a mapping (snake_case or camelCase keys)."""
        if isinstance(value, EditSpec):
            return value
        if not isinstance(value, Mapping):
            raise BadRequest(
                f"each edit must be an object with old_string and new_string, "
                f"got {type(value).__name__}."
            )
        args = canonical_arguments(value, where="edit")
        missing = [name for name in ("old_string", "new_string") if name not in args]
        if missing:
            raise BadRequest(f"the edit is missing {' and '.join(missing)}.")
        return cls(
            old_string=args["old_string"],
            new_string=args["new_string"],
            # (checked by EditSpec: a value that is not a bool is refused, never coerced)
            replace_all=False if args.get("replace_all") is None else args["replace_all"],
            expected_replacements=args.get("expected_replacements"),
            match_mode=args.get("match_mode") or "auto",
            instruction=args.get("instruction"),
            overwrite=False if args.get("overwrite") is None else args["overwrite"],
        )


@dataclass(frozen=True)
class ConfirmRequest:
    """What a ``confirm`` callback is shown before anything is written."""

    file_path: str
    absolute_path: str
    diff: str
    summary: str
    old_text: str = field(repr=False)
    new_text: str = field(repr=False)
    created: bool = False


@dataclass(frozen=True)
class Decision:
    """A ``confirm`` callback's answer. Plain values work too: ``True`` approves, ``False``
    rejects, a ``str`` approves with that content written instead."""

    action: Literal["approve", "reject", "modify"]
    content: str | None = None
    reason: str | None = None

    @classmethod
    def approve(cls) -> Decision:
        return cls("approve")

    @classmethod
    def reject(cls, reason: str | None = None) -> Decision:
        return cls("reject", reason=reason)

    @classmethod
    def modify(cls, content: str) -> Decision:
        if not isinstance(content, str):
            raise TypeError("Decision.modify needs the full new file content as a string")
        return cls("modify", content=content)

    @classmethod
    def of(cls, answer: object) -> Decision:
        if isinstance(answer, Decision):
            return answer
        if answer is True:
            return cls.approve()
        if answer is False:
            return cls.reject()
        if isinstance(answer, str):
            return cls.modify(answer)
        # Anything else (None included) is not an approval: an approval hook that forgets
        # to answer must not let a write through.
        return cls.reject(reason=f"the confirm callback answered {answer!r}, not an approval")
