"""Speed on real code: the bundled sources concatenated to 1,000 / 10,000 / 100,000 lines.

Generated files are regular; real code is not (long and short lines, comments, strings,
many languages, typographic characters in prose). The corpus is every file under
``fixtures/sources/`` (or, outside a source checkout, the standard library's Python files),
each preceded by a ``==> path (copy N) — bundled source <==`` header, repeated until the
wanted length. The header's em dash means the file holds a typographic character, as
real files with prose in comments usually do, so the ``unicode_punctuation`` tier cannot
step aside.

Every request quotes a file's header and the lines after it, so it names one place even
where the corpus repeats. Requests: an exact hit, an indentation-shifted hit, a typo (one
character wrong in one line), typography (an ASCII hyphen for the header's em dash), a
miss (a block no tier can place: the full cascade and the closest regions), and a hit
copied with the read tool's line numbers on every line of old and new.
"""

from __future__ import annotations

import sys
import sysconfig
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from editengine._resources import _REPO_ROOT
from editengine.tools._numbered import format_line

_BLOCK_LINES = 6  # the header and the five lines after it


def _bundled_sources() -> list[Path]:
    root = _REPO_ROOT / "fixtures" / "sources"
    if not root.is_dir():
        return []
    return sorted(
        path
        for path in root.rglob("*")
        if path.is_file() and "licenses" not in path.parts and path.name != "SOURCES.md"
    )


def _stdlib_sources() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(root.glob("*.py"))[:200]


@lru_cache(maxsize=1)
def corpus_files() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``(name, lines)`` of every corpus file, in a fixed order."""
    files = _bundled_sources()
    base = _REPO_ROOT / "fixtures" / "sources"
    if not files:
        files, base = _stdlib_sources(), Path(sysconfig.get_paths()["stdlib"])
    out = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        text = text.lstrip("\ufeff").replace("\r\n", "\n")
        out.append((path.relative_to(base).as_posix(), tuple(text.rstrip("\n").split("\n"))))
    if not out:
        sys.exit("no source files found for the real-code benchmark")
    return tuple(out)


def header(name: str, copy: int) -> str:
    return f"==> {name} (copy {copy}) \u2014 bundled source <=="


@dataclass(frozen=True)
class Corpus:
    """The concatenated text and the header lines (0-based) where each file starts."""

    text: str
    lines: tuple[str, ...]
    headers: tuple[int, ...]

    def target(self) -> int:
        """The header nearest the middle with at least a block's worth of non-blank lines."""
        middle = len(self.lines) // 2
        for first in sorted(self.headers, key=lambda line: abs(line - middle)):
            block = self.lines[first : first + _BLOCK_LINES]
            if len(block) == _BLOCK_LINES and all(line.strip() for line in block[1:]):
                return first
        return self.headers[0]

    def block(self) -> list[str]:
        first = self.target()
        return list(self.lines[first : first + _BLOCK_LINES])


@lru_cache(maxsize=4)
def real_source(lines: int) -> Corpus:
    """The corpus files, each behind its header, repeated and cut to ``lines`` lines."""
    out: list[str] = []
    headers: list[int] = []
    copy = 0
    while len(out) < lines:
        copy += 1
        for name, file_lines in corpus_files():
            headers.append(len(out))
            out.append(header(name, copy))
            out.extend(file_lines)
            if len(out) >= lines:
                break
    out = out[:lines]
    headers = [line for line in headers if line < lines]
    return Corpus("\n".join(out) + "\n", tuple(out), tuple(headers))


def _longest(block: list[str]) -> int:
    return max(range(1, len(block)), key=lambda index: len(block[index].strip()))


def _edited(block: list[str]) -> list[str]:
    """The block with its last line changed (an appended call), as an edit would."""
    return [*block[:-1], block[-1] + " edited_here()"]


def _typo(block: list[str]) -> list[str]:
    """One letter near the middle of the block's longest non-header line changed."""
    index = _longest(block)
    line = block[index]
    middle = len(line) // 2
    letter = next(
        position
        for position in [*range(middle, len(line)), *range(middle, -1, -1)]
        if line[position].isalpha()
    )
    typo = "x" if line[letter].lower() != "x" else "q"
    return [*block[:index], line[:letter] + typo + line[letter + 1 :], *block[index + 1 :]]


def _shifted(block: list[str]) -> list[str]:
    return ["  " + line for line in block]


def _ascii_header(block: list[str]) -> list[str]:
    return [block[0].replace("\u2014", "-"), *block[1:]]


def _missing(block: list[str]) -> list[str]:
    """Lines no tier can place: a header no file has, then a made-up body."""
    return [
        "==> nowhere/absent.py (copy 0) - not a bundled source <==",
        "def never_written(argument):",
        "    return argument.frobnicate(quietly=True)",
    ]


@dataclass(frozen=True)
class RealScenario:
    name: str
    old: Callable[[list[str]], list[str]]
    new: Callable[[list[str]], list[str]]
    expect_success: bool
    strategy: str | None = None
    numbered: bool = False  # old and new as the read tool shows them, numbers and all


REAL_SCENARIOS = (
    RealScenario("hit", lambda b: b, _edited, True, "exact"),
    RealScenario("indentation", _shifted, lambda b: _shifted(_edited(b)), True, "line_trimmed"),
    RealScenario("typography", _ascii_header, lambda b: _ascii_header(_edited(b)), True),
    RealScenario("typo", _typo, lambda b: _typo(_edited(b)), True, "block_anchor"),
    RealScenario("miss", _missing, lambda b: [*_missing(b), "x = 1"], False),
    RealScenario("numbered", lambda b: b, _edited, True, "line_number_prefix+exact", numbered=True),
)


def request(scenario: RealScenario, lines: int) -> tuple[str, str, str]:
    """``(content, old_string, new_string)`` for ``scenario`` on ``lines`` lines of code."""
    corpus = real_source(lines)
    block = corpus.block()
    old, new = scenario.old(block), scenario.new(block)
    if scenario.numbered:
        first = corpus.target() + 1
        old = [format_line(first + offset, line) for offset, line in enumerate(old)]
        new = [format_line(first + offset, line) for offset, line in enumerate(new)]
    return corpus.text, "\n".join(old), "\n".join(new)
