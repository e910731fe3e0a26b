r"""What a quote says once the copy mistakes around it are taken off.

Before the cascade looks for old_string, five mistakes that wrap a quote rather than change
its text are undone, each only where the file shows it cannot be content:

* a Markdown fence around old_string, new_string or both (``matching.fences``), never in a
  file that has fence lines of its own;
* line-number prefixes copied from a read tool on every line (``matching.prefixes``), never
  when old_string stands in the file as sent, nor when the file's own lines start with the
  quote's numbers in the same style (``1: foo`` in YAML);
* indentation spelled in non-breaking (or other Unicode) spaces (``matching.spaces``), read
  as ASCII spaces in old_string and new_string alike, never in a file indented with them;
* invisible characters (zero-width spaces, word joiners, soft hyphens) old_string carries
  (``matching.invisibles``), taken out of both strings, never when the file holds them;
* HTML entities a tool layer wrote (``matching.entities``), read back in both strings,
  never in a file that holds any entity.

Everything after — already-applied rules, tiers, count rules — sees the cleaned strings, so
a retried request is recognised as such with or without its fence. The clean-ups name
themselves in the result's ``strategy`` (``markdown_fence+exact``) and note.

>>> reading = read("x = 1\n", "```python\nx = 1\n```", "x = 2")
>>> reading.old, reading.new, reading.strategy("exact")
('x = 1', 'x = 2', 'markdown_fence+exact')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from editengine._errors import BadRequest, EditError
from editengine._results import TextEdit
from editengine.matching import _entities as entities
from editengine.matching import _fences as fences
from editengine.matching import _invisibles as invisibles
from editengine.matching import _prefixes as prefixes
from editengine.matching import _spaces as spaces

FENCE = "markdown_fence"
PREFIX = "line_number_prefix"
UNICODE_INDENT = "unicode_indentation"
INVISIBLE = "invisible_characters"
ENTITIES = "html_entities"


@dataclass(frozen=True)
class Reading:
    """old_string and new_string as the cascade searches and writes them."""

    old: str
    new: str
    cleanups: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    numbered: prefixes.Numbered | None = None  # old_string's numbers, when it had them

    def strategy(self, decided_by: str) -> str:
        return "+".join((*self.cleanups, decided_by))

    def finish(self, edit: TextEdit) -> TextEdit:
        """``edit`` named after the clean-ups it needed, with a note saying what they were."""
        if not self.cleanups:
            return edit
        notes = [edit.note] if edit.note else []
        notes.extend(self.notes)
        numbers = self._numbers_against(edit)
        if numbers:
            notes.append(numbers)
        return replace(edit, strategy=self.strategy(edit.strategy), note=" ".join(notes))

    def explain(self, error: EditError) -> None:
        """Tell the agent a refusal was about the cleaned strings."""
        for note in self.notes:
            error.add_note_for_agent(note)

    def _numbers_against(self, edit: TextEdit) -> str | None:
        """Whether the stripped numbers name the lines the text was found at. The text
        decided either way: numbers go stale as soon as the file is edited."""
        if self.numbered is None or not edit.spans:
            return None
        first, found = self.numbered.first, edit.spans[0].start_line
        if first == found:
            return f"The numbers agree with where the text stands (line {found})."
        return (
            f"The numbers said line {first}, but the text stands at line {found} (the file "
            "changed since it was read?); the text decided."
        )


def read(text: str, old: str, new: str, *, literal: bool = False) -> Reading:
    """The reading of ``old``/``new`` (LF line endings) against the file ``text``;
    ``literal`` takes them as they are (``match_mode="exact"``)."""
    reading = Reading(old, new)
    if literal:
        return reading
    reading = _unfenced(text, reading)
    reading = _unnumbered(text, reading)
    reading = _unicode_indentation_decoded(text, reading)
    reading = _invisibles_decoded(text, reading)
    return _entities_decoded(text, reading)


def _unfenced(text: str, reading: Reading) -> Reading:
    old_body, new_body = fences.unwrap(reading.old), fences.unwrap(reading.new)
    if old_body is not None and not old_body.strip():
        old_body = None  # an empty fence quotes nothing; taken literally it matches nothing
    if (old_body is None and new_body is None) or fences.has_fence_lines(text):
        return reading
    old, new = reading.old, reading.new
    # The line break before a closing fence belongs to the fence: the body ends as the
    # other string does, so a fenced new_string does not add or drop a final newline.
    if old_body is not None:
        old = _ending_like(old_body, new if new_body is None else "")
    if new_body is not None:
        new = _ending_like(new_body, old if old_body is None else "")
    which = _which(old_body is not None, new_body is not None)
    note = (
        f"The Markdown fence around {which} was taken off: the file has no fence lines, "
        "so it was not part of the text."
    )
    return replace(
        reading, old=old, new=new, cleanups=(*reading.cleanups, FENCE), notes=(*reading.notes, note)
    )


def _ending_like(body: str, other: str) -> str:
    if body and other.endswith("\n") and not body.endswith("\n"):
        return body + "\n"
    return body


def _unnumbered(text: str, reading: Reading) -> Reading:
    old = prefixes.strip(reading.old)
    if old is None or prefixes.may_be_content(text, reading.old, old.style):
        return reading
    style = old.style
    new = prefixes.strip(reading.new, style, consecutive=False)
    if new is None and any(style.line.fullmatch(line) for line in reading.new.split("\n")):
        raise BadRequest(
            f"old_string carries line-number prefixes ({style.example!r}) copied from a read "
            "tool, and new_string carries them on some lines only (or numbered out of "
            "order), so which of its text is meant cannot be told; nothing was changed.",
            hint="Send old_string and new_string without the line numbers: only the text "
            "after each number (and its separator) belongs to the file.",
        )
    which = _which(True, new is not None)
    note = (
        f"Line-number prefixes ({style.example!r}) were taken off {which}: they come from "
        "a read tool, not from the file."
    )
    return replace(
        reading,
        old=old.text,
        new=reading.new if new is None else new.text,
        cleanups=(*reading.cleanups, PREFIX),
        notes=(*reading.notes, note),
        numbered=old,
    )


def _unicode_indentation_decoded(text: str, reading: Reading) -> Reading:
    """Indentation made of non-breaking (or other Unicode) spaces read as ASCII spaces, in
    old_string and new_string alike: the file indents with none, so they came with the copy."""
    decoded = spaces.decode(text, reading.old, reading.new)
    if decoded is None:
        return reading
    note = (
        "The non-breaking (Unicode) spaces indenting old_string and new_string were read as "
        "ASCII spaces: the file indents no line with them, so they came with the copy."
    )
    return replace(
        reading,
        old=decoded[0],
        new=decoded[1],
        cleanups=(*reading.cleanups, UNICODE_INDENT),
        notes=(*reading.notes, note),
    )


def _invisibles_decoded(text: str, reading: Reading) -> Reading:
    """Zero-width characters (and soft hyphens) old_string carries and the file never
    holds taken out of old_string and new_string alike: they came with the copy."""
    decoded = invisibles.decode(text, reading.old, reading.new)
    if decoded is None:
        return reading
    note = (
        "Invisible characters (zero-width spaces, word joiners, soft hyphens) were taken out "
        "of old_string and new_string: the file holds none of them, so they came with the copy."
    )
    return replace(
        reading,
        old=decoded[0],
        new=decoded[1],
        cleanups=(*reading.cleanups, INVISIBLE),
        notes=(*reading.notes, note),
    )


def _entities_decoded(text: str, reading: Reading) -> Reading:
    """HTML entities (``&lt;``, ``&amp;``, ``&quot;``) read back as the characters they
    stand for, in old_string and new_string alike: the file holds no entity, so a tool
    layer escaped the strings."""
    decoded = entities.decode(text, reading.old, reading.new)
    if decoded is None:
        return reading
    note = (
        "HTML entities (&lt;, &gt;, &amp;, &quot;) in old_string and new_string were read as "
        "the characters they stand for: the file holds no entity, so they came from escaping."
    )
    return replace(
        reading,
        old=decoded[0],
        new=decoded[1],
        cleanups=(*reading.cleanups, ENTITIES),
        notes=(*reading.notes, note),
    )


def _which(old: bool, new: bool) -> str:
    if old and new:
        return "old_string and new_string"
    return "old_string" if old else "new_string"
