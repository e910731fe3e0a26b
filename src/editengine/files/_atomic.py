"""All-or-nothing writes: the file holds either its old bytes or the new ones, never a mix.

The new bytes go to a temporary file next to the target (same file system, so the rename
is atomic), are flushed and fsynced, get the target's permission bits, and replace the
target with ``os.replace``; then the directory is fsynced so the rename survives a crash.
Whatever fails before the rename, the temporary file is removed and the original is
untouched.

Every step is relative to a directory descriptor (see :mod:`~editengine.files._anchored`),
so the temp file and the rename land in the folder that was checked, whatever happens to
the path meanwhile.

Temp files are named ``.<target name>.<pid>.<random>.editengine.tmp``. Only a process
killed in the middle of a write (SIGKILL, power loss) leaves one behind; the next write in
that folder, and the engine's start-up in the workspace root, remove those whose owner
process is gone or that are older than :data:`STALE_TEMP_SECONDS`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import stat
import time
from collections.abc import Callable
from pathlib import Path

from editengine._errors import WriteFailed

logger = logging.getLogger("editengine")

_TEMP_SUFFIX = ".editengine.tmp"
# A temp file whose owner is alive is still left alone this long (pid reuse, other hosts).
STALE_TEMP_SECONDS = 3600.0
_TEMP_NAME = re.compile(r"^\..*?(?:\.(\d+))?\.[0-9a-f]{12}" + re.escape(_TEMP_SUFFIX) + "$", re.S)
_OPEN_DIR = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


def atomic_write(
    path: Path,
    data: bytes,
    *,
    display: str,
    mode: int | None = None,
    before_replace: Callable[[], None] | None = None,
) -> tuple[str, ...]:
    """Write ``data`` to ``path`` atomically; return notes about durability, if any.

    The path form of :func:`atomic_write_at`: the parent folder is opened once by path and
    everything after happens relative to it. Raises :class:`WriteFailed` (from the
    ``OSError``) with the original intact.
    """
    try:
        dir_fd = os.open(path.parent, _OPEN_DIR)
    except OSError as exc:
        raise _write_failed(exc, display) from exc
    try:
        return atomic_write_at(
            dir_fd, path.name, data, display=display, mode=mode, before_replace=before_replace
        )
    finally:
        os.close(dir_fd)


def atomic_write_at(
    dir_fd: int,
    name: str,
    data: bytes,
    *,
    display: str,
    mode: int | None = None,
    before_replace: Callable[[], None] | None = None,
    after_replace: Callable[[], None] | None = None,
) -> tuple[str, ...]:
    """Write ``data`` to ``name`` in the folder ``dir_fd`` atomically; durability notes.

    ``mode`` is the permission bits to give the file (the original's); ``None`` for a new
    file, which then gets the default permissions under the process umask.
    ``before_replace`` runs after the data is safely in the temp file and may raise to
    abandon the write (the engine's last check that nobody changed the file meanwhile).
    ``after_replace`` runs right after the rename; if it raises, the old file is put back
    (kept meanwhile under a second hard link) or the new one removed, and the error goes on.
    Raises :class:`WriteFailed` (from the ``OSError``) with the original intact.
    """
    # Named after the target (so a stray one is recognisable) and its writer's pid (so a
    # sweep can tell a live write from a crashed one), cut short so that the prefix and
    # suffix never push it past the file system's name length limit.
    temp = _temp_name(name)
    backup: str | None = None
    try:
        _write_temp(dir_fd, temp, data, mode)
        if before_replace is not None:
            before_replace()
        if after_replace is not None:
            backup = _link_backup(dir_fd, name)
        os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        if after_replace is not None:
            _check_after_replace(dir_fd, name, backup, after_replace)
    except BaseException as exc:
        _remove_quietly(dir_fd, temp)
        if isinstance(exc, OSError):
            raise _write_failed(exc, display) from exc
        raise
    finally:
        if backup is not None:
            _remove_quietly(dir_fd, backup)
    return _sync_directory(dir_fd, display)


def _temp_name(name: str) -> str:
    return f".{name[:80]}.{os.getpid()}.{secrets.token_hex(6)}{_TEMP_SUFFIX}"


def _link_backup(dir_fd: int, name: str) -> str | None:
    """A second name for the current file, so the rename can be undone; ``None`` when there
    is no file yet or the file system has no hard links."""
    backup = _temp_name(name)
    try:
        os.link(name, backup, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
    except OSError:
        return None
    return backup


def _check_after_replace(
    dir_fd: int, name: str, backup: str | None, check: Callable[[], None]
) -> None:
    """Run ``check``; if it raises, put the old file back (or remove a new one), re-raise."""
    try:
        check()
    except BaseException:
        try:
            if backup is not None:
                os.replace(backup, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            else:
                os.unlink(name, dir_fd=dir_fd)
        except OSError as exc:
            logger.error("could not undo the write of %s after a failed check: %s", name, exc)
        raise


def _write_failed(exc: OSError, display: str) -> WriteFailed:
    reason = exc.strerror or str(exc) or exc.__class__.__name__
    return WriteFailed(
        f"Could not write {display}: {reason}. The file was left unchanged.",
        path=display,
        hint="Check free disk space and permissions, then retry the edit.",
    )


def _write_temp(dir_fd: int, temp: str, data: bytes, mode: int | None) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    # A new file is created 0o666 so the umask decides, as for any other new file; a copy of
    # an existing file starts private and gets the original's bits below.
    fd = os.open(temp, flags, 0o666 if mode is None else 0o600, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            if written <= 0:  # never loop forever on a device that accepts nothing
                raise OSError(f"os.write wrote {written} bytes")
            view = view[written:]
        if mode is not None:
            os.fchmod(fd, mode)
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_directory(dir_fd: int, display: str) -> tuple[str, ...]:
    """fsync the directory so the rename is durable. After the rename the edit is done, so a
    failure here is reported as a note, not as a failed write (that would be untrue)."""
    if os.name == "nt":  # directories cannot be opened for fsync on Windows
        return ()
    try:
        os.fsync(dir_fd)
    except OSError as exc:
        logger.warning("could not fsync the directory of %s: %s", display, exc)
        return (
            f"The new content of {display} is in place, but its directory could not be "
            f"synced to disk ({exc.strerror or exc}); a power loss right now could undo it.",
        )
    return ()


def _remove_quietly(dir_fd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass
    except OSError as exc:
        logger.warning("could not remove temporary file %s: %s", name, exc)


# -- stale temp files ---------------------------------------------------------------------


def sweep_stale_temps(dir_fd: int, *, now: float | None = None) -> int:
    """Remove the engine's temp files left in the folder ``dir_fd`` by crashed writers.

    A temp file is stale when the process named in it is gone, or when it is older than
    :data:`STALE_TEMP_SECONDS` (a pid reused, a writer on another host, a name without a
    pid). Never raises; returns how many were removed.
    """
    try:
        names = [name for name in os.listdir(dir_fd) if name.endswith(_TEMP_SUFFIX)]
    except OSError:
        return 0
    now = time.time() if now is None else now
    removed = 0
    for name in names:
        found = _TEMP_NAME.match(name)
        if found is None:
            continue
        try:
            info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        pid = int(found.group(1)) if found.group(1) else None
        old = now - info.st_mtime > STALE_TEMP_SECONDS
        if old or (pid is not None and not _process_alive(pid)):
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=dir_fd)
                removed += 1
    if removed:
        logger.info("removed %d stale temporary file(s) left by interrupted writes", removed)
    return removed


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # another thread of this process may be writing it right now
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # exists, owned by someone else
    # A killed process nobody reaped yet is a zombie: it will never finish its write.
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[-1].split()
        return not (fields and fields[0] == b"Z")
    except OSError:
        return True
