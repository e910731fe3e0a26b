"""The workspace guard: which paths an edit may touch.

A path is accepted only when both its lexical form and its real form (every symlink
resolved, the file's and its parents') lie inside the workspace root. That refuses
``../x``, absolute paths elsewhere, and links that lead out, before anything is read.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from editengine._errors import (
    BadRequest,
    FileNotFound,
    NotAFile,
    PathOutsideWorkspace,
    StaleFile,
)

# The usual NAME_MAX and PATH_MAX of POSIX file systems; longer names answer bad_request
# rather than a file system error halfway through an edit.
MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 4095


@dataclass(frozen=True)
class Target:
    """A path the guard accepted.

    ``display`` is workspace-relative POSIX (what the caller asked for, normalised);
    ``absolute`` is the lexical absolute path (a symlink stays a symlink here);
    ``real`` is where the bytes live (symlinks resolved) and where writes go.
    """

    display: str
    absolute: Path
    real: Path


class Workspace:
    """The root an engine may edit under; :meth:`resolve` is the guard."""

    def __init__(self, root: str | os.PathLike[str] = ".") -> None:
        lexical = Path(os.path.abspath(os.fspath(root)))
        if not lexical.exists():
            raise FileNotFound(f"The workspace root {lexical} does not exist.", path=str(lexical))
        if not lexical.is_dir():
            raise NotAFile(f"The workspace root {lexical} is not a directory.", path=str(lexical))
        self.root = lexical
        self.real_root = Path(os.path.realpath(lexical))

    def resolve(self, file_path: str | os.PathLike[str]) -> Target:
        """Accept ``file_path`` or raise :class:`PathOutsideWorkspace` / :class:`BadRequest`."""
        raw = _as_text(file_path)
        given = Path(raw)
        joined = given if given.is_absolute() else self.root / given
        lexical = Path(os.path.normpath(joined))
        # realpath of the joined path, not of the normalised one: the OS resolves a symlink
        # before the ``..`` that follows it, and so must the guard.
        real = _realpath(joined, raw)
        if ".." in given.parts and _realpath(lexical, raw) != real:
            # ``sub/../a.py`` through a linked ``sub`` is where the link's parent holds
            # a.py, not the root's a.py: named, reported and keyed by where it really is.
            lexical = real
        inside_lexically = _is_within(lexical, self.root) or _is_within(lexical, self.real_root)
        if not inside_lexically or not _is_within(real, self.real_root):
            raise PathOutsideWorkspace(
                _outside_message(raw, lexical, real, inside_lexically, self.root),
                path=raw,
                hint=(
                    f"Only files under the workspace root {self.root} can be edited. "
                    "Use a path relative to that root."
                ),
            )
        if real == self.real_root:
            raise NotAFile(f"{raw!r} is the workspace root, not a file.", path=raw)
        return Target(display=self._display(lexical, real), absolute=lexical, real=real)

    def relative(self, path: Path) -> str:
        """``path`` (inside the workspace) as workspace-relative POSIX text."""
        for base in (self.root, self.real_root):
            if _is_within(path, base):
                return PurePosixPath(*path.relative_to(base).parts).as_posix()
        return path.as_posix()

    def _display(self, lexical: Path, real: Path) -> str:
        if _is_within(lexical, self.root) or _is_within(lexical, self.real_root):
            return self.relative(lexical)
        return self.relative(real)


def _realpath(path: Path, raw: str) -> Path:
    """``os.path.realpath``, which fails when a link on the path is replaced while it runs
    (the link seen by ``lstat`` is gone by ``readlink``): tried again, then refused."""
    for _ in range(3):
        try:
            return Path(os.path.realpath(path))
        except OSError:
            continue
    raise StaleFile(
        f"The path {raw!r} kept changing while it was checked (a folder or link on it was "
        "being replaced); nothing was read or written.",
        path=raw,
        hint="Retry the edit once the workspace has settled.",
    )


def _as_text(file_path: object) -> str:
    if isinstance(file_path, os.PathLike):
        file_path = os.fspath(file_path)
    if isinstance(file_path, bytes):
        raise BadRequest("file_path must be text, not bytes.")
    if not isinstance(file_path, str):
        raise BadRequest(f"file_path must be a string, got {type(file_path).__name__}.")
    if not file_path.strip():
        raise BadRequest("file_path is empty: give the path of the file to edit.")
    if "\x00" in file_path:
        raise BadRequest("file_path contains a NUL character.")
    as_posix = posixpath.normpath(file_path.replace("\\", "/"))
    if "\\" in file_path and (as_posix == ".." or as_posix.startswith("../")):
        # One path rule for every front end: read with Windows separators, ``..\\x`` leads
        # out of the workspace (a patch's paths are refused the same way).
        raise PathOutsideWorkspace(
            f"Refused {file_path!r}: read with '\\' as a separator it points outside the "
            "workspace.",
            path=file_path,
            hint="Use a path relative to the workspace root, with '/' between folders.",
        )
    if file_path.endswith(("/", os.sep)) or file_path.endswith(("/.", "/..")):
        raise BadRequest(
            f"file_path {file_path!r} ends with a slash, so it names a folder, not a file.",
            hint="Give the path of a file, without a trailing slash.",
        )
    try:
        encoded = os.fsencode(file_path)
    except UnicodeError:
        raise BadRequest(
            "file_path contains characters that cannot be a file name (a lone surrogate?)."
        ) from None
    too_long = [part for part in encoded.split(b"/") if len(part) > MAX_NAME_BYTES]
    if too_long or len(encoded) > MAX_PATH_BYTES:
        raise BadRequest(
            f"file_path is too long: a name may have at most {MAX_NAME_BYTES} bytes and the "
            f"whole path {MAX_PATH_BYTES} (the file system refuses longer ones).",
            hint="Use a shorter file name.",
        )
    return file_path


def _is_within(path: Path, base: Path) -> bool:
    return path == base or base in path.parents


def _outside_message(
    raw: str, lexical: Path, real: Path, inside_lexically: bool, root: Path
) -> str:
    if not inside_lexically:
        return f"Refused {raw!r}: it points outside the workspace ({lexical})."
    return (
        f"Refused {raw!r}: a symbolic link on that path leads outside the workspace "
        f"(it resolves to {real})."
    )
