r"""A whitespace-only change placed by a tier that forgives whitespace.

When old_string and new_string differ only in whitespace (trailing blanks trimmed, tabs for
spaces, a Markdown hard break, a blank line added) and old_string was found only with
whitespace forgiven, the tier's own way of writing new_string (copying the lines it keeps
from the file, re-indenting by the quote's shift, trimming blank edges) would undo the very
change asked for. The forgiveness is a decoding applied to old_string and new_string alike
instead: each piece of a line's whitespace — its indentation, the spacing of its text, its
trailing blanks — that the edit changes is written as new_string has it; each piece it
leaves alone is the file's, whatever the quote said. Quote padding (blank lines old_string
has and the file does not) goes with it.

Where the text written is the file's text already, every whitespace piece the change makes
stands there byte for byte: the edit was made before. That comparison is as strict as the
change; finding new_string with whitespace forgiven never is.

>>> written("x = 1   \ny = 2", "x = 1 \ny = 2", "x = 1\ny = 2")
'x = 1\ny = 2'
>>> written("if a:\n\tx = 1", "if a:\n  x = 1", "if a:\n    x = 1")
'if a:\n    x = 1'
>>> written("    x = 1   ", "x = 1 ", "x = 1")
'    x = 1'
"""

from __future__ import annotations

from difflib import SequenceMatcher


def changes_only_whitespace(old: str, new: str) -> bool:
    """old_string and new_string differ, and only in whitespace."""
    return old != new and "".join(old.split()) == "".join(new.split())


def written(region: str, old: str, new: str) -> str | None:
    """The text to write over ``region`` (the file's text where old_string was found) for a
    whitespace-only change (``region`` itself: the change is there already); ``None`` when
    the lines cannot be paired one for one or the new indentation's frame is unknown."""
    ending = ""
    if region.endswith("\n") and old.endswith("\n"):
        # The quote's final line break is the file's: kept, whether new_string has it or not.
        ending, region, old = "\n", region[:-1], old[:-1]
        new = new.removesuffix("\n")
    old_lines, new_lines, file_lines = old.split("\n"), new.split("\n"), region.split("\n")
    to_new = _pairs(old_lines, new_lines)
    to_file = _pairs(old_lines, file_lines)
    if to_new is None or to_file is None:
        return None
    if any(line.strip() for index, line in enumerate(file_lines) if index not in to_file.values()):
        return None  # a line of the file the quote does not stand for
    if not _indentation_in_the_files_frame(old_lines, new_lines, file_lines, to_new, to_file):
        return None
    from_new = {n: o for o, n in to_new.items()}
    out: list[str] = []
    for index, line in enumerate(new_lines):
        source = from_new.get(index)
        if source is None:
            out.append(line)  # a blank line the change adds
        elif source in to_file:
            out.append(_merged(old_lines[source], line, file_lines[to_file[source]]))
        elif old_lines[source] != line:
            out.append(line)  # padding whose whitespace the change itself rewrites
        # else: padding the quote added and the change keeps: not the file's, dropped
    return "\n".join(out) + ending


def _pairs(left: list[str], right: list[str]) -> dict[int, int] | None:
    """Lines of ``left`` paired with the lines of ``right`` that read the same but for
    whitespace; ``None`` when a line with text is left unpaired (a wrapped line)."""
    keys_left = ["".join(line.split()) for line in left]
    keys_right = ["".join(line.split()) for line in right]
    pairs: dict[int, int] = {}
    matcher = SequenceMatcher(None, keys_left, keys_right, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.update({i1 + k: j1 + k for k in range(i2 - i1)})
        elif any(keys_left[i1:i2]) or any(keys_right[j1:j2]):
            return None
    return pairs


def _indentation_in_the_files_frame(
    old_lines: list[str],
    new_lines: list[str],
    file_lines: list[str],
    to_new: dict[int, int],
    to_file: dict[int, int],
) -> bool:
    """A new indentation can be written as sent only when the quote shows it is in the
    file's frame: every line whose indentation the edit keeps is indented as in the file
    (and there is one). A quote shifted as a whole leaves the new depth unknown."""
    changed = False
    kept: list[tuple[str, str]] = []
    for o, n in to_new.items():
        if not old_lines[o].strip():
            continue
        old_lead, new_lead = _parts(old_lines[o])[0], _parts(new_lines[n])[0]
        if old_lead != new_lead:
            changed = True
        elif o in to_file:
            kept.append((old_lead, _parts(file_lines[to_file[o]])[0]))
    return not changed or (bool(kept) and all(quoted == held for quoted, held in kept))


def _merged(old: str, new: str, file: str) -> str:
    """``file``'s line with each whitespace piece the edit changes taken from ``new``."""
    old_parts, new_parts, file_parts = _parts(old), _parts(new), _parts(file)
    return "".join(
        n if o != n else f for o, n, f in zip(old_parts, new_parts, file_parts, strict=True)
    )


def _parts(line: str) -> tuple[str, str, str]:
    """A line's indentation, its text, and its trailing whitespace."""
    body = line.strip(" \t")
    if not body:
        return line, "", ""
    start = len(line) - len(line.lstrip(" \t"))
    return line[:start], body, line[start + len(body) :]
