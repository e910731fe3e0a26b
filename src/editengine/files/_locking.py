"""One writer per file: a thread lock inside the process, an advisory file lock across processes.

Lock files live in a directory of their own (never in the user's workspace). A file's lock
is one of :data:`STRIPES` lock files, picked by a sha256 of its real path, so every process
editing the same file meets on the same lock whatever path spelling or symlink it came
through, and a writer holding the locks of a thousand files (a large patch) keeps at most
:data:`STRIPES` lock files open. Two files that share a stripe only wait for each other.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import filelock

from editengine._errors import WriteFailed

DEFAULT_LOCK_TIMEOUT = 30.0
#: How many lock files the locks of all files are spread over.
STRIPES = 256


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
        self._thread_locks: dict[int, threading.RLock] = {}
        self._process_locks: dict[int, filelock.FileLock] = {}

    def stripe_of(self, real_path: Path) -> int:
        """Which of the :data:`STRIPES` locks guards the file at ``real_path``."""
        digest = hashlib.sha256(os.fsencode(real_path)).digest()
        return int.from_bytes(digest[:4], "big") % STRIPES

    def lock_file_for(self, real_path: Path) -> Path:
        return self.lock_dir / f"stripe-{self.stripe_of(real_path):03d}.lock"

    @contextmanager
    def hold(self, real_path: Path, *, display: str) -> Iterator[None]:
        """Hold the file's lock; :class:`WriteFailed` when it stays busy past the timeout.
        A thread may take a lock it holds again (two files of one stripe)."""
        stripe = self.stripe_of(real_path)
        # Threads queue on a thread lock (fast hand-over); only the holder polls the file
        # lock, which other processes contend for.
        thread_lock = self._thread_lock(stripe)
        if not thread_lock.acquire(timeout=self.timeout if self.timeout >= 0 else -1):
            raise _busy(display, self.timeout)
        try:
            try:
                self._ensure_lock_dir()
                process_lock = self._process_lock(stripe, real_path)
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

    @contextmanager
    def hold_all(self, files: Iterable[tuple[Path, str]]) -> Iterator[None]:
        """Hold the locks of several files (``(real path, display)`` pairs), taken in one
        global order (their stripes) so two writers naming the same files cannot deadlock.
        Each held stripe keeps a file open (at most :data:`STRIPES`): the process's limit of
        open files is raised (up to its hard limit) when the count would come near it."""
        unique = dict(sorted((self.stripe_of(real), (real, display)) for real, display in files))
        _room_for_open_files(len(unique))
        with contextlib.ExitStack() as stack:
            for real, display in unique.values():
                stack.enter_context(self.hold(real, display=display))
            yield

    def _ensure_lock_dir(self) -> None:
        self.lock_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        # A shared temp dir: a folder of that name made by another user is not ours to trust.
        owner = self.lock_dir.stat().st_uid
        if hasattr(os, "getuid") and owner != os.getuid():
            raise PermissionError(
                errno.EPERM, f"the lock directory {self.lock_dir} belongs to another user"
            )

    def _thread_lock(self, stripe: int) -> threading.RLock:
        with self._guard:
            lock = self._thread_locks.get(stripe)
            if lock is None:
                lock = self._thread_locks[stripe] = threading.RLock()
            return lock

    def _process_lock(self, stripe: int, real_path: Path) -> filelock.FileLock:
        """The stripe's file lock, one object per stripe (used by one thread at a time,
        the thread lock's holder; taking it again only counts up)."""
        with self._guard:
            lock = self._process_locks.get(stripe)
            if lock is None:
                lock = self._process_locks[stripe] = filelock.FileLock(
                    self.lock_file_for(real_path), timeout=self.timeout, thread_local=False
                )
            return lock


# Descriptors left for everything else a writer opens (folders, temp files, the journal).
_SPARE_FILES = 256


def _room_for_open_files(count: int) -> None:
    """Raise the soft limit of open files so ``count`` lock files fit beside the spare
    ones; never above the hard limit (then the lock that does not fit fails as usual)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + _SPARE_FILES
    if soft == resource.RLIM_INFINITY or wanted <= soft:
        return
    limit = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if limit > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))


def _busy(display: str, timeout: float) -> WriteFailed:
    return WriteFailed(
        f"{display} stayed locked by another edit for {timeout:g} s; nothing was written.",
        path=display,
        hint="Another process is editing this file. Retry the edit in a moment.",
    )
