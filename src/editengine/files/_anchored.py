"""File access anchored to the workspace root by directory descriptors.

The guard (:mod:`~editengine.files._workspace`) decides once, from path strings, that a path
lies inside the workspace. Between that check and the write a folder on the path can be
swapped for a symbolic link to somewhere else; going through the path string again would
follow it. So every access here starts from a descriptor of the workspace root and walks
the (already resolved) path one component at a time with ``O_NOFOLLOW | O_DIRECTORY``:
a component that has become a link is refused instead of followed. The file is then read,
its temporary copy written and renamed *relative to the directory descriptor that was
walked*, and before the rename the walk is repeated and the folder's identity (device,
inode) compared, so a folder moved out of the workspace meanwhile is noticed.

>>> files = WorkspaceDir(Path("/srv/project"))                      # doctest: +SKIP
>>> with files.directory(("src",), display="src/app.py") as folder:  # doctest: +SKIP
...     snapshot = folder.read("app.py", display="src/app.py", max_bytes=1 << 20)
...     folder.write("app.py", b"new", display="src/app.py", mode=snapshot.mode)

Refusals: a link found on the walk answers :class:`PathOutsideWorkspace`; a folder that
moved or vanished between the walk and the rename answers :class:`StaleFile`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from editengine._errors import (
    BadRequest,
    EditError,
    FileError,
    NotAFile,
    PathOutsideWorkspace,
    StaleFile,
    WriteFailed,
)
from editengine.files._atomic import atomic_write_at, sweep_stale_temps
from editengine.files._reading import MISSING, FileSnapshot, read_snapshot_at

_DIR_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_ROOT_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)

Identity = tuple[int, int]


class MissingFolder(Exception):
    """A folder on the path does not exist (only raised when not asked to create it)."""


class AnchoredDir:
    """An open folder inside the workspace, reached from the root without following links.

    Holds the descriptor; use it as a context manager (or call :meth:`close`).
    """

    def __init__(
        self,
        workspace: WorkspaceDir,
        fd: int,
        parts: tuple[str, ...],
        *,
        display: str,
        created: list[tuple[int, str]],
    ) -> None:
        self.workspace = workspace
        self.fd = fd
        self.parts = parts
        self.display = display
        info = os.fstat(fd)
        self.identity: Identity = (info.st_dev, info.st_ino)
        # (descriptor of the parent, name) of each folder this walk created, outermost first.
        self._created = created

    # -- checks ---------------------------------------------------------------------------

    def verify(self) -> None:
        """Walk from the root again: the same folder must still be at this path.

        Raises :class:`PathOutsideWorkspace` when a link now sits on the path and
        :class:`StaleFile` when the folder moved, vanished or was replaced.
        """
        try:
            fresh = self.workspace.walk(self.parts, display=self.display)
        except MissingFolder:
            raise self._moved() from None
        try:
            info = os.fstat(fresh)
        finally:
            os.close(fresh)
        if (info.st_dev, info.st_ino) != self.identity:
            raise self._moved()

    def _moved(self) -> StaleFile:
        return StaleFile(
            f"A folder on the path of {self.display} was moved or replaced during the edit; "
            "nothing was written.",
            path=self.display,
            hint="Check the folder layout, read the file again and redo the edit.",
        )

    # -- file operations ------------------------------------------------------------------

    def exists(self, name: str) -> bool:
        try:
            os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise _os_error(exc, self.display) from exc
        return True

    def read(self, name: str, *, display: str, max_bytes: int) -> FileSnapshot:
        """The file's snapshot (``MISSING`` when absent), then a check that the folder is
        still where it was (so nothing read came from a folder moved out meanwhile)."""
        snapshot = read_snapshot_at(self.fd, name, display=display, max_bytes=max_bytes)
        self.verify()
        return snapshot

    def write(
        self,
        name: str,
        data: bytes,
        *,
        display: str,
        mode: int | None,
        before_replace: Callable[[], None] | None = None,
    ) -> tuple[str, ...]:
        """Atomic write of ``name`` in this folder (temp + fsync + rename, all relative to
        the descriptor); the folder's identity is re-checked right before the rename."""

        def last_checks() -> None:
            self.verify()
            if before_replace is not None:
                before_replace()

        sweep_stale_temps(self.fd)
        # The check after the rename closes the gap between the last check and the rename: a
        # folder moved out of the workspace just then gets its old file back.
        return atomic_write_at(
            self.fd,
            name,
            data,
            display=display,
            mode=mode,
            before_replace=last_checks,
            after_replace=self.verify,
        )

    def delete(
        self, name: str, *, display: str, before_delete: Callable[[], None] | None = None
    ) -> None:
        """Remove the file ``name`` (never a folder; a link itself, not what it leads to);
        the folder is verified first, then ``before_delete`` (which may raise to keep the
        file: the last check that nobody saved it meanwhile) runs right before the unlink."""
        self.verify()
        if before_delete is not None:
            before_delete()
        try:
            os.unlink(name, dir_fd=self.fd)
        except OSError as exc:
            raise WriteFailed(
                f"Could not delete {display}: {exc.strerror or exc}.", path=display
            ) from exc

    def rename(self, name: str, destination: AnchoredDir, new_name: str, *, display: str) -> None:
        """Move ``name`` to ``destination/new_name`` (replacing it), both folders verified."""
        self.verify()
        destination.verify()
        try:
            os.replace(name, new_name, src_dir_fd=self.fd, dst_dir_fd=destination.fd)
        except OSError as exc:
            raise WriteFailed(
                f"Could not rename {display}: {exc.strerror or exc}.", path=display
            ) from exc

    # -- lifetime -------------------------------------------------------------------------

    def remove_created(self) -> None:
        """Remove the folders this walk created (innermost first), if still empty."""
        for parent_fd, name in reversed(self._created):
            with contextlib.suppress(OSError):  # not empty any more: someone else uses it
                os.rmdir(name, dir_fd=parent_fd)
        self._close_created()

    def _close_created(self) -> None:
        for parent_fd, _ in self._created:
            with contextlib.suppress(OSError):
                os.close(parent_fd)
        self._created = []

    def close(self) -> None:
        self._close_created()
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> AnchoredDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class WorkspaceDir:
    """The workspace root as the one anchor of every file access.

    ``real_root`` is the root with its own links resolved (what the guard compares with).
    Paths given here are tuples of components relative to it, links already resolved by the
    guard: any link met on the walk is therefore a swap, and refused.
    """

    def __init__(self, real_root: Path) -> None:
        self.real_root = real_root

    def parts_of(self, real: Path) -> tuple[str, tuple[str, ...]]:
        """``(name, folder parts)`` of a resolved path inside the root."""
        relative = real.relative_to(self.real_root).parts
        if not relative:
            raise NotAFile("The workspace root is not a file.", path=str(real))
        return relative[-1], tuple(relative[:-1])

    def walk(self, parts: tuple[str, ...], *, display: str, create: bool = False,
             created: list[tuple[int, str]] | None = None) -> int:  # fmt: skip
        """A descriptor of root/parts, reached without following any link.

        Raises :class:`MissingFolder` for a missing folder unless ``create``; then the
        folder is made (0o777 under the umask) and ``(parent descriptor, name)`` appended
        to ``created``.
        """
        try:
            fd = os.open(self.real_root, _ROOT_FLAGS)
        except OSError as exc:
            raise FileError(
                f"The workspace root {self.real_root} cannot be opened: {exc.strerror or exc}.",
                path=display,
            ) from exc
        try:
            for part in parts:
                child = self._step(fd, part, display=display, create=create, created=created)
                os.close(fd)
                fd = child
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _step(self, fd: int, part: str, *, display: str, create: bool,
              created: list[tuple[int, str]] | None) -> int:  # fmt: skip
        try:
            return os.open(part, _DIR_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            if not create:
                raise MissingFolder(part) from None
        except OSError as exc:
            raise self._refusal(fd, part, exc, display) from exc
        try:
            os.mkdir(part, 0o777, dir_fd=fd)
        except FileExistsError:
            pass  # made by someone else meanwhile: open it like any other (links refused)
        except OSError as exc:
            raise WriteFailed(
                f"Could not create the folder {part!r} for {display}: {exc.strerror or exc}. "
                "Nothing was written.",
                path=display,
            ) from exc
        else:
            if created is not None:
                created.append((os.dup(fd), part))
        try:
            return os.open(part, _DIR_FLAGS, dir_fd=fd)
        except OSError as exc:
            raise self._refusal(fd, part, exc, display) from exc

    def _refusal(self, fd: int, part: str, exc: OSError, display: str) -> EditError:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            try:
                info = os.stat(part, dir_fd=fd, follow_symlinks=False)
            except OSError:
                info = None
            if info is None or stat.S_ISLNK(info.st_mode):
                return PathOutsideWorkspace(
                    f"Refused {display}: the folder {part!r} on its path is now a symbolic "
                    "link (it changed after the path was checked); nothing was read or written.",
                    path=display,
                    hint="Check the folder layout of the workspace, then retry the edit.",
                )
            return NotAFile(
                f"{display} cannot be reached: {part!r} on its path is not a folder.",
                path=display,
            )
        return _os_error(exc, display)

    @contextlib.contextmanager
    def directory(
        self, parts: tuple[str, ...], *, display: str, create: bool = False
    ) -> Iterator[AnchoredDir]:
        """The folder ``root/parts`` (created when ``create``), closed on exit.

        Raises :class:`MissingFolder` when a folder is missing and ``create`` is false.
        """
        created: list[tuple[int, str]] = []
        try:
            fd = self.walk(parts, display=display, create=create, created=created)
        except BaseException:
            for parent_fd, name in reversed(created):
                with contextlib.suppress(OSError):
                    os.rmdir(name, dir_fd=parent_fd)
                os.close(parent_fd)
            raise
        folder = AnchoredDir(self, fd, parts, display=display, created=created)
        try:
            yield folder
        finally:
            folder.close()

    # -- whole-file helpers -----------------------------------------------------------------

    def read(self, real: Path, *, display: str, max_bytes: int) -> FileSnapshot:
        """The snapshot of a resolved path; ``MISSING`` when it or a folder is absent."""
        name, parts = self.parts_of(real)
        try:
            with self.directory(parts, display=display) as folder:
                return folder.read(name, display=display, max_bytes=max_bytes)
        except MissingFolder:
            return MISSING

    def exists(self, real: Path, *, display: str) -> bool:
        name, parts = self.parts_of(real)
        try:
            with self.directory(parts, display=display) as folder:
                return folder.exists(name)
        except MissingFolder:
            return False

    def sweep(self, parts: tuple[str, ...] = ()) -> int:
        """Remove stale temp files in ``root/parts``; the number removed (0 on any error)."""
        try:
            with self.directory(parts, display="/".join(parts) or ".") as folder:
                return sweep_stale_temps(folder.fd)
        except (MissingFolder, FileError, OSError):
            return 0


def _os_error(exc: OSError, display: str) -> EditError:
    if exc.errno == errno.ENAMETOOLONG:
        return BadRequest(
            f"The path {display!r} is too long for the file system (a name over 255 bytes "
            "or a path over the system limit).",
            hint="Use a shorter file name.",
        )
    if exc.errno == errno.EACCES:
        return FileError(f"Permission denied on the path of {display}.", path=display)
    return FileError(f"Could not open the path of {display}: {exc.strerror or exc}.", path=display)
