"""Did-you-mean paths for a file that does not exist: same name elsewhere, or a similar path."""

from __future__ import annotations

import difflib
import os
from pathlib import Path, PurePosixPath

SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache",
     ".pytest_cache", ".ruff_cache", ".tox", ".nox"}
)  # fmt: skip
_SIMILAR_ENOUGH = 0.6


def suggest_paths(
    root: Path,
    missing: str,
    *,
    limit: int = 3,
    max_files: int = 20_000,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(suggestions, same_name)`` for workspace-relative ``missing``.

    ``suggestions``: up to ``limit`` workspace files, same file name first, then similar
    paths. ``same_name``: every file found with exactly that file name (for autocorrect).
    The walk is bounded by ``max_files`` and skips VCS, dependency and cache folders.
    """
    wanted = PurePosixPath(missing)
    name = wanted.name
    same_name: list[str] = []
    scored: list[tuple[float, str]] = []
    seen = 0
    for directory, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        relative_dir = PurePosixPath(*Path(directory).relative_to(root).parts)
        for filename in sorted(filenames):
            seen += 1
            if seen > max_files:
                break
            candidate = (relative_dir / filename).as_posix()
            if filename == name:
                same_name.append(candidate)
                continue
            score = difflib.SequenceMatcher(None, missing, candidate).ratio()
            if score >= _SIMILAR_ENOUGH:
                scored.append((score, candidate))
        if seen > max_files:
            break
    same_name.sort(key=lambda path: -difflib.SequenceMatcher(None, missing, path).ratio())
    similar = [path for _, path in sorted(scored, key=lambda item: (-item[0], item[1]))]
    return tuple([*same_name, *similar][:limit]), tuple(same_name)
