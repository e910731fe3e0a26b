"""Everything the engine does to real files: guard, read, lock, write, suggest.

Each module holds one idea:

- :mod:`~editengine.files.workspace` — which paths may be touched at all;
- :mod:`~editengine.files.reading` — a file's bytes, hash and text, or a typed refusal;
- :mod:`~editengine.files.locking` — one writer per file, across threads and processes;
- :mod:`~editengine.files.atomic` — all-or-nothing writes;
- :mod:`~editengine.files.suggest` — "did you mean" paths for a missing file.
"""

from editengine.files.atomic import atomic_write
from editengine.files.locking import PathLocks, default_lock_dir
from editengine.files.reading import FileSnapshot, read_snapshot, sha256_hex
from editengine.files.suggest import suggest_paths
from editengine.files.workspace import Target, Workspace

__all__ = [
    "FileSnapshot",
    "PathLocks",
    "Target",
    "Workspace",
    "atomic_write",
    "default_lock_dir",
    "read_snapshot",
    "sha256_hex",
    "suggest_paths",
]
