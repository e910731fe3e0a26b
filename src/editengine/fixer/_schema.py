"""The JSON answer the fixer asks for, and the check every answer must pass."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from editengine._errors import InvalidCorrection

CORRECTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "search": {
            "type": "string",
            "description": "Text copied verbatim from the file; it must occur there exactly once.",
        },
        "replace": {
            "type": "string",
            "description": "What the search text becomes, carrying out the instruction.",
        },
        "noChangesRequired": {
            "type": "boolean",
            "description": "True only if the file already contains the intended change.",
        },
        "explanation": {
            "type": "string",
            "description": "One short sentence: what was wrong with the failed search.",
        },
    },
    "required": ["search", "replace", "noChangesRequired", "explanation"],
    "additionalProperties": False,
}

_TYPES: dict[str, type] = {
    "search": str,
    "replace": str,
    "noChangesRequired": bool,
    "explanation": str,
}


@dataclass(frozen=True)
class ProposedCorrection:
    """An answer that has the right shape. Whether it is *right* is the engine's check."""

    search: str
    replace: str
    no_changes_required: bool
    explanation: str


def parse_correction(data: Any, *, source: str = "the model") -> ProposedCorrection:
    """Check ``data`` against :data:`CORRECTION_SCHEMA`; :class:`InvalidCorrection` if not.

    Beyond the schema, an empty ``search`` is refused unless ``noChangesRequired`` is
    true: an empty search string means "replace the whole file" to the cascade.
    """
    if not isinstance(data, dict):
        raise InvalidCorrection(f"The answer from {source} is not a JSON object.")
    missing = [key for key in _TYPES if key not in data]
    extra = sorted(str(key) for key in data if key not in _TYPES)
    if missing or extra:
        problems = []
        if missing:
            problems.append("missing " + ", ".join(missing))
        if extra:
            problems.append("unexpected " + ", ".join(extra))
        raise InvalidCorrection(
            f"The answer from {source} does not follow the correction schema: "
            + "; ".join(problems)
            + "."
        )
    wrong = [
        f"{key} should be {_type_name(expected)}, got {_type_name(type(data[key]))}"
        for key, expected in _TYPES.items()
        if type(data[key]) is not expected  # bool is an int subclass: compare exactly
    ]
    if wrong:
        raise InvalidCorrection(
            f"The answer from {source} does not follow the correction schema: "
            + "; ".join(wrong)
            + "."
        )
    proposed = ProposedCorrection(
        search=data["search"],
        replace=data["replace"],
        no_changes_required=data["noChangesRequired"],
        explanation=data["explanation"].strip(),
    )
    if not proposed.no_changes_required and not proposed.search:
        # The model's words, quoted and cut: they are its prose, not the engine's.
        said = proposed.explanation
        if len(said) > _EXPLANATION_SHOWN:
            hidden = len(said) - _EXPLANATION_SHOWN
            said = f"{said[:_EXPLANATION_SHOWN]}... [{hidden:,} more characters]"
        reason = json.dumps(said, ensure_ascii=False) if said else "no reason given"
        raise InvalidCorrection(f"{source.capitalize()} could not locate the edit: {reason}")
    return proposed


_EXPLANATION_SHOWN = 500


def _type_name(kind: type) -> str:
    return {str: "a string", bool: "a boolean", type(None): "null"}.get(kind, kind.__name__)
