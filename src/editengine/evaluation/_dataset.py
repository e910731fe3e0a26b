"""Evaluation datasets: JSON Lines of edit cases with the file each should produce.

One line is one case: the batch-protocol request fields (``id, content, old_string,
new_string, replace_all, expected_replacements, match_mode``) plus what the case expects
(``expect``, ``expected_content`` or ``expected_contains``, and optionally
``intended_content``: the file a careful human would produce, accepted as a success even
where a refusal is expected), its ``category``, an
``instruction``, an optional ``file_name``, optional scripted ``fixer_answers`` and free-form
``notes``. Unknown fields are ignored, so the peer-case files of ``shared/peer-cases`` load
as they are (their category is the file's name).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from editengine._errors import InvalidDataset

Expect = Literal["success", "refuse"]
EXPECTS: tuple[str, ...] = ("success", "refuse")


@dataclass(frozen=True)
class FixerAnswer:
    """One scripted LLM answer, in the fixer's structured-output shape."""

    search: str
    replace: str
    no_changes_required: bool = False
    explanation: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "search": self.search,
            "replace": self.replace,
            "noChangesRequired": self.no_changes_required,
            "explanation": self.explanation,
        }


@dataclass(frozen=True)
class EvalCase:
    """One edit to run and what a careful human would have made of it."""

    id: str
    content: str
    old_string: str
    new_string: str
    replace_all: bool = False
    expected_replacements: int | None = None
    match_mode: str = "auto"
    category: str = "uncategorized"
    instruction: str | None = None
    expect: Expect = "success"
    expected_content: str | None = None
    expected_contains: str | None = None
    intended_content: str | None = None
    file_name: str | None = None
    fixer_answers: tuple[FixerAnswer, ...] = ()
    notes: str = ""
    # What a cross-product benchmark tables by (informational; empty when not given).
    edit_kind: str = ""
    mistakes: tuple[str, ...] = ()
    request: str = ""  # "fresh", or "retry": the same request sent again after it applied

    def batch_request(self) -> dict[str, Any]:
        """The request line of the batch protocol (DESIGN.md) for this case."""
        return {
            "id": self.id,
            "content": self.content,
            "old_string": self.old_string,
            "new_string": self.new_string,
            "replace_all": self.replace_all,
            "expected_replacements": self.expected_replacements,
            "instruction": self.instruction,
            "match_mode": self.match_mode,
        }


def _field(
    record: Mapping[str, Any], name: str, kinds: type | tuple[type, ...], where: dict[str, Any]
) -> Any:
    value = record[name]
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in _tuple(kinds)):
        wanted = " or ".join(k.__name__ for k in _tuple(kinds))
        raise InvalidDataset(
            f"field {name!r} must be {wanted}, got {type(value).__name__}.", **where
        )
    return value


def _tuple(kinds: type | tuple[type, ...]) -> tuple[type, ...]:
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _optional(
    record: Mapping[str, Any],
    name: str,
    kinds: type | tuple[type, ...],
    where: dict[str, Any],
    default: Any = None,
) -> Any:
    if record.get(name) is None:
        return default
    return _field(record, name, kinds, where)


def case_from_record(
    record: Mapping[str, Any], *, default_id: str, default_category: str, path: str, line: int
) -> EvalCase:
    """Validate one decoded JSON object and build the case; raises :class:`InvalidDataset`."""
    where: dict[str, Any] = {"path": path, "line": line}
    if not isinstance(record, Mapping):
        raise InvalidDataset("each line must be a JSON object.", **where)
    for name in ("content", "old_string", "new_string"):
        if name not in record:
            raise InvalidDataset(
                f"missing required field {name!r}.",
                hint="Every case needs content, old_string and new_string.",
                **where,
            )
        _field(record, name, str, where)
    for name, value in record.items():
        if isinstance(value, str) and not _utf8_ok(value):
            raise InvalidDataset(
                f"field {name!r} holds text that cannot be UTF-8 (a lone surrogate such as "
                "\\ud800); a case's files are UTF-8.",
                **where,
            )
    _check_file_name(record.get("file_name"), where)
    expect = _optional(record, "expect", str, where, "success")
    if expect not in EXPECTS:
        raise InvalidDataset(f"expect must be 'success' or 'refuse', got {expect!r}.", **where)
    expected_content = _optional(record, "expected_content", str, where)
    expected_contains = _optional(record, "expected_contains", str, where)
    expected_replacements = _optional(record, "expected_replacements", int, where)
    if expected_replacements is not None and expected_replacements < 1:
        raise InvalidDataset("expected_replacements must be a positive integer.", **where)
    return EvalCase(
        id=str(_optional(record, "id", (str, int), where, default_id)),
        content=record["content"],
        old_string=record["old_string"],
        new_string=record["new_string"],
        replace_all=_optional(record, "replace_all", bool, where, False),
        expected_replacements=expected_replacements,
        match_mode=_optional(record, "match_mode", str, where, "auto"),
        category=_optional(record, "category", str, where, default_category),
        instruction=_optional(record, "instruction", str, where),
        expect=expect,
        expected_content=expected_content,
        expected_contains=expected_contains,
        intended_content=_optional(record, "intended_content", str, where),
        file_name=_optional(record, "file_name", str, where),
        fixer_answers=_fixer_answers(record.get("fixer_answers"), where),
        notes=str(record.get("notes") or record.get("note") or ""),
        edit_kind=_optional(record, "edit_kind", str, where, ""),
        mistakes=_mistakes(record.get("mistakes"), where),
        request=_optional(record, "request", str, where, ""),
    )


def _mistakes(raw: Any, where: dict[str, Any]) -> tuple[str, ...]:
    if raw is None:
        return ()
    if isinstance(raw, str):
        return (raw,)
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise InvalidDataset("mistakes must be a list of strings.", **where)
    return tuple(raw)


# What a file name may be so that every file system accepts it (NAME_MAX, PATH_MAX).
_MAX_NAME_BYTES = 255
_MAX_PATH_BYTES = 1024


def _utf8_ok(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_file_name(name: Any, where: dict[str, Any]) -> None:
    if not isinstance(name, str):
        return  # absent, or refused as a wrong type by _optional
    encoded = name.encode("utf-8", "surrogatepass")
    problem = None
    if "\x00" in name:
        problem = "contains a NUL character"
    elif any(len(part) > _MAX_NAME_BYTES for part in encoded.split(b"/")):
        problem = f"has a name over {_MAX_NAME_BYTES} bytes"
    elif len(encoded) > _MAX_PATH_BYTES:
        problem = f"is over {_MAX_PATH_BYTES} bytes"
    if problem:
        raise InvalidDataset(
            f"file_name {problem}; give a short relative path such as 'src/app.py'.", **where
        )


def _fixer_answers(raw: Any, where: dict[str, Any]) -> tuple[FixerAnswer, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise InvalidDataset("fixer_answers must be a list of objects.", **where)
    answers = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise InvalidDataset("each fixer answer must be an object.", **where)
        search, replace = item.get("search", ""), item.get("replace", "")
        if not isinstance(search, str) or not isinstance(replace, str):
            raise InvalidDataset("a fixer answer's search and replace must be strings.", **where)
        answers.append(
            FixerAnswer(
                search=search,
                replace=replace,
                no_changes_required=bool(item.get("noChangesRequired", False)),
                explanation=str(item.get("explanation", "")),
            )
        )
    return tuple(answers)


def read_dataset(path: str | Path) -> list[EvalCase]:
    """All cases of one JSON Lines file, in file order (blank lines are skipped)."""
    path = Path(path)
    try:
        raw_bytes = path.read_bytes()
        if raw_bytes[:2] == b"\x1f\x8b":  # gzip, whatever the file is called
            raw_bytes = gzip.decompress(raw_bytes)
        text = raw_bytes.decode("utf-8")
    except FileNotFoundError:
        raise InvalidDataset("no such dataset file.", path=str(path)) from None
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise InvalidDataset(f"cannot read the dataset: {err}.", path=str(path)) from err
    cases = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as err:
            raise InvalidDataset(
                f"not valid JSON ({err.msg} at column {err.colno}).", path=str(path), line=number
            ) from err
        except RecursionError:
            raise InvalidDataset(
                "nested too deeply to be read as JSON.", path=str(path), line=number
            ) from None
        cases.append(
            case_from_record(
                record,
                default_id=f"{_stem(path)}-{number}",
                default_category=_stem(path),
                path=str(path),
                line=number,
            )
        )
    return cases


def load_cases(
    paths: Iterable[str | Path], *, categories: Iterable[str] | None = None
) -> list[EvalCase]:
    """Cases of every file in order, optionally only some categories; ids must be unique."""
    wanted = set(categories) if categories else None
    cases: list[EvalCase] = []
    seen: dict[str, str] = {}
    for path in paths:
        for case in read_dataset(path):
            if case.id in seen:
                raise InvalidDataset(
                    f"duplicate case id {case.id!r} (first seen in {seen[case.id]}).",
                    path=str(path),
                )
            seen[case.id] = str(path)
            if wanted is None or case.category in wanted:
                cases.append(case)
    return cases


def _stem(path: Path) -> str:
    """``benchmark`` for ``benchmark.jsonl`` and ``benchmark.jsonl.gz`` alike."""
    name = path.name
    for suffix in (".gz", ".jsonl", ".json"):
        name = name.removesuffix(suffix)
    return name
