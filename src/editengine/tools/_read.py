"""The ``read`` tool: lines of a file, numbered as every read tool shows them
(:mod:`editengine.tools._numbered`), with a note when there is more to read."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from editengine.tools import _request as rq
from editengine.tools._numbered import NumberedText, number_lines

if TYPE_CHECKING:
    from editengine.tools._operations import EngineOperations

DEFAULT_READ_LIMIT = 2000


@dataclass(frozen=True)
class ReadAnswer:
    """What ``read`` shows: the numbered lines, a note (empty file, more to read), and what
    a structured answer carries."""

    file_path: str
    numbered: NumberedText
    note: str
    sha256: str

    @property
    def truncated(self) -> bool:
        return self.numbered.end_line < self.numbered.total_lines

    @property
    def blocks(self) -> list[str]:
        return [part for part in (self.numbered.text, self.note) if part]

    @property
    def text(self) -> str:
        return "\n\n".join(self.blocks)


def read_answer(engine: EngineOperations, arguments: Mapping[str, Any] | str | bytes) -> ReadAnswer:
    """Run a ``read`` call with ``engine`` (recorded in its read tracker as seen)."""
    values = rq.parse(rq.READ, arguments)
    path, start = values["file_path"], values["offset"] or 1
    text = engine.read_file(path)
    numbered = number_lines(text, start=start, limit=values["limit"] or DEFAULT_READ_LIMIT)
    display = engine.workspace.resolve(path).display
    note = ""
    if numbered.total_lines == 0:
        note = f"{display} is empty."
    elif not numbered.text:
        note = f"{display} has {numbered.total_lines} lines; offset {start} is past the end."
    elif numbered.end_line < numbered.total_lines:
        note = (
            f"(Showing lines {numbered.start_line}-{numbered.end_line} of "
            f"{numbered.total_lines}. Call read with offset={numbered.end_line + 1} "
            "to continue.)"
        )
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return ReadAnswer(display, numbered, note, digest)
