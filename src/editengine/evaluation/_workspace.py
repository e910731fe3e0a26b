"""A case as a real file: what an executor that edits files on disk (``EditEngine``) needs.

The file is written byte for byte (UTF-8, line endings and BOM as in ``content``, no newline
translation) inside a fresh temporary directory, and read back the same way, so a run
through the file system is scored exactly like a run through ``edit_text``.

:func:`memory_backed_dir` names a RAM-backed directory (``/dev/shm``) where the system has
one: there the engine's ``fsync`` costs nothing, so a run measures the engine, not the disk.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from editengine.evaluation._dataset import EvalCase

DEFAULT_NAME = "file.txt"
SHARED_MEMORY = Path("/dev/shm")


def relative_name(case: EvalCase) -> PurePosixPath:
    """The case's ``file_name`` as a safe relative path (default ``file.txt``)."""
    name = PurePosixPath(case.file_name or DEFAULT_NAME)
    parts = [p for p in name.parts if p not in ("", ".", "..", "/")]
    return PurePosixPath(*parts) if parts else PurePosixPath(DEFAULT_NAME)


def write_exact(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def read_exact(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def memory_backed_dir() -> Path | None:
    """``/dev/shm`` when it is a writable directory, else ``None`` (the system temp dir)."""
    if SHARED_MEMORY.is_dir() and os.access(SHARED_MEMORY, os.W_OK | os.X_OK):
        return SHARED_MEMORY
    return None


@contextmanager
def case_workspace(case: EvalCase, *, base_dir: Path | None = None) -> Iterator[tuple[Path, Path]]:
    """``(root, file)``: a temporary workspace holding the case's file; removed afterwards.

    ``base_dir`` is where the workspace is made (default: the system temp directory).
    """
    with tempfile.TemporaryDirectory(prefix="editengine-eval-", dir=base_dir) as root:
        file = Path(root, *relative_name(case).parts)
        write_exact(file, case.content)
        yield Path(root), file
