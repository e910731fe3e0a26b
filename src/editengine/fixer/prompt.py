"""Builds the fixer prompt from the templates in ``prompts/``, safely.

Two rules keep text from the file or the edit from breaking the prompt:

- Placeholders (``{{name}}``) are filled in one pass by a function, never with
  ``str.format``, ``%`` or a replacement string, so ``{}``, ``%s``, ``$&`` or ``\\1`` in
  the inserted text are copied verbatim and ``{{file_content}}`` inside a file is not
  filled again.
- Every inserted field sits between ``<<<BEGIN name TOKEN>>>`` and ``<<<END name TOKEN>>>``
  lines, with a TOKEN chosen so that it occurs in none of the inserted texts: nothing in
  the file (``</file_content>``, a fake END line) can close a block early.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from editengine._resources import prompt_text
from editengine.errors import BadRequest, EditError, NoMatch, Region
from editengine.fixer.protocol import FixRequest
from editengine.fixer.window import LineSpan, WindowPolicy

_PLACEHOLDER = re.compile(r"\{\{([a-z_]+)\}\}")
_USER_FIELDS = frozenset(
    {
        "boundary",
        "file_path",
        "instruction",
        "old_string",
        "new_string",
        "error",
        "file_heading",
        "file_content",
    }
)
_BOUNDARY_LENGTH = 16


@dataclass(frozen=True)
class Prompt:
    """A ready prompt, and facts about it for telemetry."""

    system: str
    user: str
    windowed: bool
    file_lines: int
    shown_lines: int

    @property
    def chars(self) -> int:
        return len(self.system) + len(self.user)


class PromptBuilder:
    """Turns a :class:`FixRequest` into a :class:`Prompt`.

    Templates default to ``prompts/fixer_system.md``, ``prompts/fixer_user.md`` and
    ``prompts/fixer_default_instruction.md`` (used when the request has no instruction).
    """

    def __init__(
        self,
        *,
        window: WindowPolicy | None = None,
        system_template: str | None = None,
        user_template: str | None = None,
        default_instruction: str | None = None,
    ) -> None:
        self.window = window or WindowPolicy()
        self._system = (
            system_template if system_template is not None else prompt_text("fixer_system.md")
        )
        self._user = user_template if user_template is not None else prompt_text("fixer_user.md")
        self._default_instruction = (
            default_instruction
            if default_instruction is not None
            else prompt_text("fixer_default_instruction.md")
        ).strip()
        _check_user_template(self._user)

    def build(self, request: FixRequest) -> Prompt:
        lines = _file_lines(request.content)
        windowed = self.window.applies_to(len(lines))
        spans = (
            self.window.spans(len(lines), _closest(request.error))
            if windowed
            else (LineSpan(1, len(lines)),)
        )
        file_content = _numbered(lines, spans) if lines else "(the file is empty)"
        instruction = (request.instruction or "").strip() or self._default_instruction
        fields = {
            "file_path": request.file_path,
            "instruction": instruction,
            "old_string": request.old_string,
            "new_string": request.new_string,
            "error": error_text(request.error),
            "file_content": file_content,
        }
        fields["boundary"] = choose_boundary(fields.values())
        fields["file_heading"] = _file_heading(len(lines), spans, windowed)
        return Prompt(
            system=self._system.strip(),
            user=fill(self._user, fields).strip() + "\n",
            windowed=windowed,
            file_lines=len(lines),
            shown_lines=sum(span.end - span.start + 1 for span in spans) if lines else 0,
        )


def fill(template: str, fields: dict[str, str]) -> str:
    """Replace each ``{{name}}`` in ``template`` with ``fields[name]``, verbatim, in one pass."""
    return _PLACEHOLDER.sub(lambda match: fields[match.group(1)], template)


def choose_boundary(texts: Iterable[str]) -> str:
    """A token found in none of ``texts``, derived from them so equal input gives equal output."""
    texts = list(texts)
    seed = hashlib.sha256("\0".join(texts).encode("utf-8", "surrogatepass")).hexdigest()
    counter = 0
    token = seed[:_BOUNDARY_LENGTH]
    while any(token in text for text in texts):
        counter += 1
        token = hashlib.sha256(f"{seed}:{counter}".encode()).hexdigest()[:_BOUNDARY_LENGTH]
    return token


def error_text(error: EditError) -> str:
    """The failure as the model sees it (message and hint, without notes added later)."""
    parts = [error.message]
    if error.hint:
        parts.append(error.hint)
    closest = _closest(error)
    # The cascade's own message usually names the closest regions already.
    if closest and closest[0].describe() not in error.message:
        places = ", ".join(region.describe() for region in closest)
        parts.append(f"Closest regions found: {places}.")
    return "\n".join(parts)


def _closest(error: EditError) -> tuple[Region, ...]:
    # FixRequest.error is a NoMatch; tolerate other match errors (their candidates) too.
    if isinstance(error, NoMatch):
        return tuple(error.closest)
    return tuple(getattr(error, "candidates", ()) or ())


def _check_user_template(template: str) -> None:
    used = set(_PLACEHOLDER.findall(template))
    unknown = used - _USER_FIELDS
    missing = {"boundary", "file_content", "old_string", "new_string", "instruction"} - used
    if unknown or missing:
        raise BadRequest(
            "The fixer user template is unusable: "
            + (f"unknown placeholders {sorted(unknown)}; " if unknown else "")
            + (f"missing placeholders {sorted(missing)}." if missing else ""),
            hint="Placeholders are written {{name}}; allowed: " + ", ".join(sorted(_USER_FIELDS)),
        )


def _file_lines(content: str) -> list[str]:
    # Split on "\n" only, as the cascade counts lines; "\r" of CRLF files is not shown.
    if not content:
        return []
    lines = content.split("\n")
    if content.endswith("\n"):
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _numbered(lines: Sequence[str], spans: Sequence[LineSpan]) -> str:
    width = len(str(len(lines)))
    out: list[str] = []
    previous_end = 0
    for span in spans:
        if span.start > previous_end + 1:
            out.append(f"⋮ lines {previous_end + 1}-{span.start - 1} not shown")
        out.extend(
            f"{number:>{width}}\t{lines[number - 1]}" for number in range(span.start, span.end + 1)
        )
        previous_end = span.end
    if previous_end < len(lines):
        out.append(f"⋮ lines {previous_end + 1}-{len(lines)} not shown")
    return "\n".join(out)


def _file_heading(line_count: int, spans: Sequence[LineSpan], windowed: bool) -> str:
    if not windowed:
        return f"The whole file ({line_count} lines), with line numbers:"
    shown = ", ".join(f"{span.start}-{span.end}" for span in spans)
    return (
        f"An excerpt of the file: it has {line_count} lines, and only lines {shown} are shown, "
        "around the places most similar to the failed search, with their original line "
        "numbers. Your search text must come from the lines shown."
    )
