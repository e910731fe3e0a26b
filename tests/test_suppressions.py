"""Every silenced check in src/ and tests/ says why: a ``# type: ignore[code]`` or
``# noqa: CODE`` with no reason after it hides a wrong type or a real finding from the next
reader too."""

from __future__ import annotations

import re
from pathlib import Path

import editengine

SRC = Path(editengine.__file__).parent
TESTS = Path(__file__).resolve().parent
SUPPRESSION = re.compile(r"#\s*(type:\s*ignore(\[[^\]]*\])?|noqa(:\s*[A-Z0-9, ]+)?)")
# After the suppression: "  # why", " - why" or "  (why)".
REASON = re.compile(r"^\s*(#|-|\()\s*\S")


def _bare(folder: Path, *, skip: tuple[Path, ...] = ()) -> list[str]:
    bare = []
    for path in sorted(folder.rglob("*.py")):
        if path in skip:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found = SUPPRESSION.search(line)
            if found and not REASON.match(line[found.end() :]):
                bare.append(f"{path.relative_to(folder)}:{number}: {line.strip()}")
    return bare


def test_every_type_ignore_and_noqa_gives_its_reason() -> None:
    assert _bare(SRC) == [], "say why after each: '# type: ignore[code]  # why'"


def test_every_type_ignore_and_noqa_in_the_tests_gives_its_reason() -> None:
    # This file's own examples are strings, not suppressions.
    bare = _bare(TESTS, skip=(Path(__file__).resolve(),))
    assert bare == [], "say why after each: '# type: ignore[code]  # why'"


def test_the_reason_check_tells_both_kinds_apart() -> None:
    def has_reason(line: str) -> bool:
        found = SUPPRESSION.search(line)
        return found is not None and REASON.match(line[found.end() :]) is not None

    assert has_reason("x = f()  # type: ignore[arg-type]  # f takes any object")
    assert has_reason("import y  # noqa: F401 - re-exported")
    assert not has_reason("x = f()  # type: ignore[arg-type]")
    assert not has_reason("x = f()  # type: ignore")
    assert not has_reason("import y  # noqa: F401")
