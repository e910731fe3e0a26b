"""One writer per file: a thread lock inside the process, an advisory file lock across processes.

Lock files live in a directory of their own (never in the user's workspace), named by a
sha256 of the file's real path, so every process editing the same file meets on the same
lock whatever path spelling or symlink it came through.
"""

from __future__ import annotations

import errno
import hashlib
import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import filelock

from editengine._errors import WriteFailed

DEFAULT_LOCK_TIMEOUT = 30.0


def default_lock_dir() -> Path:
    """A per-user folder under the system temp directory."""
    user = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    return Path(tempfile.gettempdir()) / f"editengine-locks-{user}"


class PathLocks:
    """Hands out the lock of a file's real path; ``hold(path)`` is a context manager."""

    def __init__(
        self,
        lock_dir: str | os.PathLike[str] | None = None,
        *,
        timeout: float = DEFAULT_LOCK_TIMEOUT,
        poll_interval: float = 0.005,
    ) -> None:
        self.lock_dir = Path(lock_dir) if lock_dir is not None else default_lock_dir()
        self.timeout = timeout
        self.poll_interval = poll_interval
        self._guard = threading.Lock()
        self._thread_locks: dict[str, threading.Lock] = {}

    def lock_file_for(self, real_path: Path) -> Path:
        digest = hashlib.sha256(os.fsencode(real_path)).hexdigest()
        return self.lock_dir / f"{digest}.lock"

    @contextmanager
    def hold(self, real_path: Path, *, display: str) -> Iterator[None]:
        """Hold the file's lock; :class:`WriteFailed` when it stays busy past the timeout."""
        key = os.fspath(real_path)
        # Threads queue on a plain lock (fast hand-over); only the holder polls the file
        # lock, which other processes contend for.
        thread_lock = self._thread_lock(key)
        if not thread_lock.acquire(timeout=self.timeout if self.timeout >= 0 else -1):
            raise _busy(display, self.timeout)
        try:
            try:
                self._ensure_lock_dir()
                process_lock = filelock.FileLock(
                    self.lock_file_for(real_path), timeout=self.timeout, thread_local=False
                )
                process_lock.acquire(poll_interval=self.poll_interval)
            except filelock.Timeout as exc:
                raise _busy(display, self.timeout) from exc
            except OSError as exc:
                raise WriteFailed(
                    f"Could not lock {display} for editing: {exc.strerror or exc}. "
                    "Nothing was written.",
                    path=display,
                    hint=f"Check that the lock directory {self.lock_dir} is writable.",
                ) from exc
            try:
                yield
            finally:
                process_lock.release()
        finally:
            thread_lock.release()

    def _ensure_lock_dir(self) -> None:
        self.lock_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        # A shared temp dir: a folder of that name made by another user is not ours to trust.
        owner = self.lock_dir.stat().st_uid
        if hasattr(os, "getuid") and owner != os.getuid():
            raise PermissionError(
                errno.EPERM, f"the lock directory {self.lock_dir} belongs to another user"
            )

    def _thread_lock(self, key: str) -> threading.Lock:
        with self._guard:
            lock = self._thread_locks.get(key)
            if lock is None:
                lock = self._thread_locks[key] = threading.Lock()
            return lock


def _busy(display: str, timeout: float) -> WriteFailed:
    return WriteFailed(
        f"{display} stayed locked by another edit for {timeout:g} s; nothing was written.",
        path=display,
        hint="Another process is editing this file. Retry the edit in a moment.",
    )
