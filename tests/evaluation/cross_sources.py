"""Files to cut cross-product requests from in tests: windows of the bundled sources, and
minified lines built from their JSON and JavaScript."""

from __future__ import annotations

import random
from pathlib import Path

from editengine.evaluation import _cross_product as cp

SOURCES = Path(__file__).resolve().parents[2] / "fixtures" / "sources"
LANGUAGES = {
    ".py": "python", ".js": "javascript", ".ts": "typescript", ".go": "go", ".rs": "rust",
    ".c": "c", ".yml": "yaml", ".yaml": "yaml", ".json": "json", ".md": "markdown",
}  # fmt: skip
FILES = sorted(p for p in SOURCES.rglob("*") if p.suffix in LANGUAGES)


def _load(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").replace("\r\n", "\n").rstrip("\n").split("\n")


def unit_of(lines: list[str]) -> str:
    tabbed = sum(1 for x in lines if x.startswith("\t"))
    spaced = [len(x) - len(x.lstrip(" ")) for x in lines if x.startswith(" ") and x.strip()]
    if tabbed > len(spaced):
        return "\t"
    twos = sum(1 for n in spaced if n % 4 == 2)
    return "  " if spaced and twos * 10 >= len(spaced) else "    "


PIECES = cp.minified_pieces((LANGUAGES[p.suffix], _load(p)) for p in FILES)


def source_file(rng: random.Random, mistake: str) -> tuple[list[str], str]:
    if mistake == "long_line":
        lang = rng.choice(["json", "javascript"])
        size = rng.choice([2_000, 5_000, 20_000, 50_000])
        pieces = PIECES[lang]
        return cp.minified_lines(pieces, size, lang, rng.randrange(len(pieces))), lang
    path = rng.choice(FILES)
    lines = _load(path)
    if len(lines) > 90:
        size = rng.randint(30, 90)
        start = rng.randint(0, len(lines) - size)
        lines = lines[start : start + size]
    return lines, LANGUAGES[path.suffix]
