"""Everything the engine does to real files: guard, read, lock, write, suggest.

Each module holds one idea:

- :mod:`~editengine.files._workspace` — which paths may be touched at all;
- :mod:`~editengine.files._reading` — a file's bytes, hash and text, or a typed refusal;
- :mod:`~editengine.files._locking` — one writer per file, across threads and processes;
- :mod:`~editengine.files._atomic` — all-or-nothing writes, and the sweep of crashed ones;
- :mod:`~editengine.files._anchored` — every access walked from the root by folder descriptors;
- :mod:`~editengine.files._suggest` — "did you mean" paths for a missing file.
"""

from editengine._public import publish
from editengine.files._anchored import AnchoredDir, MissingFolder, WorkspaceDir
from editengine.files._atomic import atomic_write, atomic_write_at, sweep_stale_temps
from editengine.files._locking import PathLocks, default_lock_dir
from editengine.files._reading import FileSnapshot, read_snapshot, read_snapshot_at, sha256_hex
from editengine.files._suggest import suggest_paths
from editengine.files._workspace import Target, Workspace

__all__ = [
    "AnchoredDir",
    "FileSnapshot",
    "MissingFolder",
    "PathLocks",
    "Target",
    "Workspace",
    "WorkspaceDir",
    "atomic_write",
    "atomic_write_at",
    "default_lock_dir",
    "read_snapshot",
    "read_snapshot_at",
    "sha256_hex",
    "suggest_paths",
    "sweep_stale_temps",
]


publish(globals())  # public names show this package, not their private module
