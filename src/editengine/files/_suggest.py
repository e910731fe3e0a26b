"""Did-you-mean paths for a file that does not exist: same name elsewhere, or a similar path."""

from __future__ import annotations

import difflib
import os
from pathlib import Path, PurePosixPath

from rapidfuzz.distance import Indel

SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache",
     ".pytest_cache", ".ruff_cache", ".tox", ".nox"}
)  # fmt: skip
_SIMILAR_ENOUGH = 0.6
# The upper bounds rule a path out a hair below the threshold: float rounding never drops
# a path difflib itself would keep.
_BOUND = _SIMILAR_ENOUGH - 1e-9
# Same-name files ranked with difflib's ratio; beyond this many, with rapidfuzz's.
_RANKED_SAME_NAME = 200
_MAX_COMPARED_CHARS = 1_000


def _ratio(missing: str, candidate: str) -> float:
    """difflib's ratio of the two paths; an over-long wrong path is compared by its end
    (the file name and nearest folders), which is what a did-you-mean can use."""
    return difflib.SequenceMatcher(None, missing[-_MAX_COMPARED_CHARS:], candidate).ratio()


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
    # fwalk: folders are entered by descriptor without following links, so a folder
    # swapped for a link during the walk cannot list names from outside the workspace.
    for directory, dirnames, filenames, _ in os.fwalk(root, follow_symlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        parts = Path(directory).relative_to(root).parts
        prefix = "".join(f"{part}/" for part in parts)  # pathlib per file cost 35 us
        for filename in sorted(filenames):
            seen += 1
            if seen > max_files:
                break
            candidate = prefix + filename
            if filename == name:
                same_name.append(candidate)
                continue
            shorter, total = min(len(missing), len(candidate)), len(missing) + len(candidate)
            if 2 * shorter < _BOUND * total:
                continue  # lengths alone rule out a ratio of 0.6
            if Indel.normalized_similarity(missing, candidate) < _BOUND:
                # An upper bound of difflib's ratio, computed in C: most names are rejected
                # here, and a 2,000-character path no longer costs seconds per workspace.
                continue
            score = _ratio(missing, candidate)
            if score >= _SIMILAR_ENOUGH:
                scored.append((score, candidate))
        if seen > max_files:
            break
    if len(same_name) > _RANKED_SAME_NAME:
        # Thousands of files of one name: rank them by the C measure only.
        same_name.sort(key=lambda path: -Indel.normalized_similarity(missing, path))
    else:
        same_name.sort(key=lambda path: -_ratio(missing, path))
    similar = [path for _, path in sorted(scored, key=lambda item: (-item[0], item[1]))]
    return tuple([*same_name, *similar][:limit]), tuple(same_name)
