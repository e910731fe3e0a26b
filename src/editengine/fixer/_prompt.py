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
from collections.abc import Iterable
from dataclasses import dataclass

from editengine._errors import BadRequest, EditError, NoMatch, PromptTooLarge
from editengine._resources import prompt_text
from editengine._results import Region
from editengine.fixer._protocol import FixRequest
from editengine.fixer._window import CLIP_MARK_CLOSE, CLIP_MARK_OPEN, Excerpt, WindowPolicy, excerpt

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
# Bytes kept for the file heading, block markers and boundary tokens when fitting a budget.
_SLACK_BYTES = 1_200


@dataclass(frozen=True)
class Prompt:
    """A ready prompt, and facts about it for telemetry."""

    system: str
    user: str
    windowed: bool
    file_lines: int
    shown_lines: int
    # Lines shown shortened (cut around the failed search) to keep within the budget.
    clipped_lines: int = 0
    # The byte limit the prompt was built within; None when built without one.
    budget_bytes: int | None = None

    @property
    def chars(self) -> int:
        return len(self.system) + len(self.user)

    @property
    def size_bytes(self) -> int:
        """UTF-8 bytes of the system and user prompts together."""
        return _utf8_len(self.system) + _utf8_len(self.user)


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

    def build(self, request: FixRequest, *, max_bytes: int | None = None) -> Prompt:
        """The prompt for ``request``; within ``max_bytes`` UTF-8 bytes when given.

        Raises :class:`PromptTooLarge` when the edit itself leaves no room for one line of
        the file.
        """
        lines = _file_lines(request.content)
        instruction = (request.instruction or "").strip() or self._default_instruction
        fields = {
            name: _encodable(text)
            for name, text in {
                "file_path": request.file_path,
                "instruction": instruction,
                "old_string": request.old_string,
                "new_string": request.new_string,
                "error": error_text(request.error),
            }.items()
        }
        room = None
        if max_bytes is not None:
            # What the prompt weighs without the file; the heading and markers fit in slack.
            bare = self._render(fields, "", "", windowed=True)
            room = max_bytes - _utf8_len(bare.system) - _utf8_len(bare.user) - _SLACK_BYTES
        for _ in range(3):
            shown = None if room is not None and room <= 0 else self._excerpt(lines, request, room)
            if shown is None:
                raise self._too_large(request, max_bytes)
            prompt = self._render(
                fields, shown.text, _file_heading(len(lines), shown), windowed=shown.windowed,
                file_lines=len(lines), shown_lines=shown.shown_lines,
                clipped_lines=shown.clipped_lines, budget_bytes=max_bytes,
            )  # fmt: skip
            if max_bytes is None or room is None or prompt.size_bytes <= max_bytes:
                return prompt
            room -= prompt.size_bytes - max_bytes + _SLACK_BYTES  # the slack was not enough
        raise self._too_large(request, max_bytes)

    def _excerpt(self, lines: list[str], request: FixRequest, room: int | None) -> Excerpt | None:
        return excerpt(
            self.window, lines, _closest(request.error), needle=request.old_string, max_bytes=room
        )

    def _render(
        self, fields: dict[str, str], file_content: str, heading: str, *, windowed: bool,
        file_lines: int = 0, shown_lines: int = 0, clipped_lines: int = 0,
        budget_bytes: int | None = None,
    ) -> Prompt:  # fmt: skip
        filled = {**fields, "file_content": file_content}
        filled["boundary"] = choose_boundary(filled.values())
        filled["file_heading"] = heading
        return Prompt(
            system=self._system.strip(),
            user=fill(self._user, filled).strip() + "\n",
            windowed=windowed,
            file_lines=file_lines,
            shown_lines=shown_lines,
            clipped_lines=clipped_lines,
            budget_bytes=budget_bytes,
        )

    @staticmethod
    def _too_large(request: FixRequest, max_bytes: int | None) -> PromptTooLarge:
        edit_bytes = _utf8_len(request.old_string) + _utf8_len(request.new_string)
        instruction_bytes = _utf8_len(request.instruction or "")
        if instruction_bytes > edit_bytes:
            # Say which field is too large: the agent cannot fix what it is not told.
            return PromptTooLarge(
                f"The instruction is too large for the fixer's prompt budget of "
                f"{max_bytes:,} bytes (it is {instruction_bytes:,} bytes; old_string and "
                f"new_string are {edit_bytes:,}), so the LLM fixer was not asked.",
                hint="Send a shorter instruction (a sentence or two saying what the edit "
                "is for), or raise the fixer's PromptBudget(max_bytes=...).",
            )
        return PromptTooLarge(
            f"The failed edit is too large for the fixer's prompt budget of {max_bytes:,} "
            f"bytes (old_string and new_string alone are {edit_bytes:,} bytes), so the LLM "
            "fixer was not asked.",
            hint="Quote a smaller old_string (only the lines that change, plus a line of "
            "context), or raise the fixer's PromptBudget(max_bytes=...).",
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


def _file_heading(line_count: int, shown: Excerpt) -> str:
    if not shown.windowed and not shown.clipped_lines:
        return f"The whole file ({line_count} lines), with line numbers:"
    ranges = ", ".join(f"{span.start}-{span.end}" for span in shown.spans)
    heading = (
        f"An excerpt of the file: it has {line_count} lines, and only lines {ranges} are shown, "
        "around the places most similar to the failed search, with their original line "
        "numbers. Your search text must come from the lines shown."
        if shown.windowed
        else f"The whole file ({line_count} lines), with line numbers."
    )
    if shown.clipped_lines:
        heading += (
            f" {shown.clipped_lines} long line(s) are shortened: "
            f"{CLIP_MARK_OPEN}N characters not shown{CLIP_MARK_CLOSE} marks text left out, "
            "and is not part of the file. Copy your search text only from between such marks."
        )
    return heading


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _encodable(text: str) -> str:
    """``text`` with each lone surrogate written as its escape (``\\udc80``).

    A lone surrogate cannot be sent as UTF-8: left in, the SDK fails to encode the request
    and the agent reads a provider error about something it never saw. Files are read as
    strict UTF-8, so such a character can only come from the agent's own quote.
    """
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))
