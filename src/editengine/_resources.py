"""Files that ship inside the package: prompts and the bundled benchmark.

In a wheel they live under ``editengine/_data``; in a source checkout (editable install,
or ``PYTHONPATH=src``) they are read from the repository's top-level folders.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_REPO_ROOT = _PACKAGE_DIR.parent.parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.exists():
            return candidate
    looked = ", ".join(map(str, candidates))
    raise FileNotFoundError(f"packaged resource not found; looked at {looked}")


def prompts_dir() -> Path:
    return _first_existing(_PACKAGE_DIR / "_data" / "prompts", _REPO_ROOT / "prompts")


def prompt_text(name: str) -> str:
    """The text of ``prompts/<name>``, e.g. ``prompt_text("fixer_system.md")``."""
    return (prompts_dir() / name).read_text(encoding="utf-8")


def benchmark_path() -> Path:
    return _first_existing(
        _PACKAGE_DIR / "_data" / "benchmark.jsonl.gz",
        _REPO_ROOT / "fixtures" / "benchmark.jsonl.gz",
    )
