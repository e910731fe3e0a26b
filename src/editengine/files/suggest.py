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
# Paths longer than this are not compared for similarity (difflib is quadratic in length).
MAX_COMPARED_CHARS = 300


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
    # The missing path is the fixed side: difflib indexes it once. A path too long to be a
    # typo of a real one is only looked up by its file name (comparing it costs too much).
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(missing)
    compare_similar = len(missing) <= MAX_COMPARED_CHARS
    seen = 0
    # fwalk: folders are entered by descriptor without following links, so a folder
    # swapped for a link during the walk cannot list names from outside the workspace.
    for directory, dirnames, filenames, _ in os.fwalk(root, follow_symlinks=False):
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
            if not compare_similar:
                continue
            matcher.set_seq1(candidate)
            if matcher.real_quick_ratio() < _SIMILAR_ENOUGH:
                continue
            if matcher.quick_ratio() < _SIMILAR_ENOUGH:
                continue
            score = matcher.ratio()
            if score >= _SIMILAR_ENOUGH:
                scored.append((score, candidate))
        if seen > max_files:
            break
    same_name.sort(key=lambda path: -_similarity(missing, path))
    similar = [path for _, path in sorted(scored, key=lambda item: (-item[0], item[1]))]
    return tuple([*same_name, *similar][:limit]), tuple(same_name)


def _similarity(a: str, b: str) -> float:
    if len(a) > MAX_COMPARED_CHARS or len(b) > MAX_COMPARED_CHARS:
        return 0.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
