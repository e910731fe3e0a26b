"""All-or-nothing writes: the file holds either its old bytes or the new ones, never a mix.

The new bytes go to a temporary file next to the target (same file system, so the rename
is atomic), are flushed and fsynced, get the target's permission bits, and replace the
target with ``os.replace``; then the directory is fsynced so the rename survives a crash.
Whatever fails before the rename, the temporary file is removed and the original is
untouched.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable
from pathlib import Path

from editengine.errors import WriteFailed

logger = logging.getLogger("editengine")

_TEMP_SUFFIX = ".editengine.tmp"


def atomic_write(
    path: Path,
    data: bytes,
    *,
    display: str,
    mode: int | None = None,
    before_replace: Callable[[], None] | None = None,
) -> tuple[str, ...]:
    """Write ``data`` to ``path`` atomically; return notes about durability, if any.

    ``mode`` is the permission bits to give the file (the original's); ``None`` for a new
    file, which then gets the default permissions under the process umask.
    ``before_replace`` runs after the data is safely in the temp file and may raise to
    abandon the write (the engine's last check that nobody changed the file meanwhile).
    Raises :class:`WriteFailed` (from the ``OSError``) with the original intact.
    """
    directory = path.parent
    # Named after the target (so a stray one is recognisable), cut short so that the
    # prefix and suffix never push it past the file system's name length limit.
    temp = directory / f".{path.name[:80]}.{secrets.token_hex(6)}{_TEMP_SUFFIX}"
    try:
        _write_temp(temp, data, mode)
        if before_replace is not None:
            before_replace()
        os.replace(temp, path)
    except BaseException as exc:
        _remove_quietly(temp)
        if isinstance(exc, OSError):
            reason = exc.strerror or str(exc) or exc.__class__.__name__
            raise WriteFailed(
                f"Could not write {display}: {reason}. The file was left unchanged.",
                path=display,
                hint="Check free disk space and permissions, then retry the edit.",
            ) from exc
        raise
    return _sync_directory(directory, display)


def _write_temp(temp: Path, data: bytes, mode: int | None) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    flags |= getattr(os, "O_NOFOLLOW", 0)
    # A new file is created 0o666 so the umask decides, as for any other new file; a copy of
    # an existing file starts private and gets the original's bits below.
    fd = os.open(temp, flags, 0o666 if mode is None else 0o600)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            if written <= 0:
                raise OSError(f"os.write wrote {written} bytes")
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)
    if mode is not None:
        os.chmod(temp, mode)


def _sync_directory(directory: Path, display: str) -> tuple[str, ...]:
    """fsync the directory so the rename is durable. After the rename the edit is done, so a
    failure here is reported as a note, not as a failed write (that would be untrue)."""
    if os.name == "nt":  # directories cannot be opened for fsync on Windows
        return ()
    try:
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        logger.warning("could not fsync directory %s: %s", directory, exc)
        return (
            f"The new content of {display} is in place, but its directory could not be "
            f"synced to disk ({exc.strerror or exc}); a power loss right now could undo it.",
        )
    return ()


def _remove_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        logger.warning("could not remove temporary file %s: %s", path, exc)
