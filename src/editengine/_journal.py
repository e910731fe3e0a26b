"""The journal of writes: what every edit did to a workspace, and how to take it back.

One journal per workspace, kept outside it (like the lock files): a folder named by a
sha256 of the workspace's real path, under a per-user folder in the system temp
directory. Every process that edits the workspace appends to it, under a lock.

Each entry is one JSON line: the file (workspace-relative), the sha256 of its bytes
before and after the write (``None`` when it did not exist / was deleted), the time, the
strategy, and the *reverse* of the write: the bytes of the old file that differ from the
new one, between their common prefix and suffix. Applying the reverse to the file as the
write left it gives the old bytes back exactly; their sha256 is checked.

Crash safety: an entry is written with a single ``write`` to a file opened for appending,
then fsynced; each line carries a checksum of its own text. A line that does not end in a
newline is a write interrupted by a crash: it is ignored when reading and cut off before
the next append, so the journal is never left half-written. Any other damaged line makes
:meth:`Journal.entries` raise :class:`~editengine.JournalCorrupt`: a journal that
cannot be read whole is never trusted to restore anything.

Bounded size: when the current segment passes ``max_segment_bytes`` it is rotated
(``journal.jsonl`` -> ``journal.1.jsonl`` -> ...), and the oldest of ``segments`` is
dropped. A reverse larger than ``max_restore_bytes`` is not kept: the entry says so, and
undoing it is refused.

Why one long module: the entry format, locked appends, corruption checks and reading back
are one file format.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import itertools
import json
import os
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import filelock

from editengine._errors import JournalCorrupt, JournalError

FORMAT_VERSION = 1
DEFAULT_MAX_SEGMENT_BYTES = 8 * 1024 * 1024
DEFAULT_SEGMENTS = 4
DEFAULT_MAX_RESTORE_BYTES = 2 * 1024 * 1024
_CURRENT = "journal.jsonl"
_LOCK_TIMEOUT = 30.0

#: Operations an entry may record. ``undo`` reverses an earlier write; ``redo`` reverses
#: an undo.
OPERATIONS = ("edit", "multi_edit", "patch", "undo", "redo", "write")


def default_journal_dir() -> Path:
    """A per-user folder under the system temp directory (next to the lock folder)."""
    user = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    return Path(tempfile.gettempdir()) / f"editengine-journal-{user}"


@dataclass(frozen=True)
class Reverse:
    """How to get the old bytes back from the new: ``new[:prefix] + middle + new[-suffix:]``."""

    prefix: int
    suffix: int
    middle: bytes

    @classmethod
    def between(cls, before: bytes, after: bytes) -> Reverse:
        limit = min(len(before), len(after))
        prefix = _common_prefix(before, after, limit)
        suffix = _common_prefix(before[::-1], after[::-1], limit - prefix)
        return cls(prefix, suffix, before[prefix : len(before) - suffix])

    def apply(self, after: bytes) -> bytes:
        if self.prefix + self.suffix > len(after):
            raise ValueError("the reverse does not fit the file it is applied to")
        return after[: self.prefix] + self.middle + after[len(after) - self.suffix :]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"prefix": self.prefix, "suffix": self.suffix}
        try:
            data["text"] = self.middle.decode("utf-8")
        except UnicodeDecodeError:  # a cut inside a multi-byte character
            data["b64"] = base64.b64encode(self.middle).decode("ascii")
        return data

    @classmethod
    def from_json(cls, data: Any) -> Reverse:
        if not isinstance(data, dict):
            raise ValueError("restore is not an object")
        prefix, suffix = data.get("prefix"), data.get("suffix")
        if not isinstance(prefix, int) or not isinstance(suffix, int) or prefix < 0 or suffix < 0:
            raise ValueError("restore has no valid prefix/suffix")
        if isinstance(data.get("text"), str):
            middle = data["text"].encode("utf-8")
        elif isinstance(data.get("b64"), str):
            middle = base64.b64decode(data["b64"], validate=True)
        else:
            raise ValueError("restore has neither text nor b64")
        return cls(prefix, suffix, middle)


@dataclass(frozen=True)
class JournalEntry:
    """One recorded write.

    ``path`` is workspace-relative POSIX as the caller named it; ``real`` the real file,
    relative to the workspace's real root (the key for "same file"). ``before_sha256`` is
    ``None`` when the write created the file, ``after_sha256`` when it deleted it.
    ``restore`` is ``None`` when the old bytes were too large to keep. ``target`` is the id
    of the entry an ``undo`` (or ``redo``) reversed. Entries sharing a ``group`` (the files of
    one patch) are undone together, as one step.
    """

    id: str
    seq: int
    time: float
    operation: str
    path: str
    real: str
    before_sha256: str | None
    after_sha256: str | None
    strategy: str | None
    summary: str
    mode: int | None
    restore: Reverse | None
    restore_size: int
    target: str | None = None
    group: str | None = None

    def restores(self, after: bytes | None) -> bytes | None:
        """The bytes before this write, from the bytes it left (``None``: no file)."""
        if self.before_sha256 is None:
            return None
        if self.restore is None:
            raise JournalError(
                f"The content of {self.path} before this write was too large to keep in the "
                f"journal ({self.restore_size:,} bytes); it cannot be undone.",
                hint="Restore the file from version control instead.",
            )
        try:
            data = self.restore.apply(after or b"")
        except ValueError as error:
            raise JournalCorrupt(
                f"The journal entry {self.id} for {self.path} does not fit the file: {error}.",
                hint="Restore the file from version control instead.",
            ) from error
        if hashlib.sha256(data).hexdigest() != self.before_sha256:
            raise JournalCorrupt(
                f"The journal entry {self.id} for {self.path} does not rebuild the recorded "
                "content (sha256 differs); nothing was restored.",
                hint="Restore the file from version control instead.",
            )
        return data

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seq": self.seq,
            "time": self.time,
            "operation": self.operation,
            "path": self.path,
            "before_sha256": self.before_sha256,
            "after_sha256": self.after_sha256,
            "strategy": self.strategy,
            "summary": self.summary,
            "target": self.target,
            "group": self.group,
            "restorable": self.before_sha256 is None or self.restore is not None,
        }


class Journal:
    """The write journal of the workspace at ``root`` (see the module docstring).

    >>> journal = Journal("/path/to/project")                    # doctest: +SKIP
    >>> journal.record("a.py", b"x = 1\\n", b"x = 2\\n", strategy="exact")  # doctest: +SKIP
    >>> [entry.summary for entry in journal.entries()]           # doctest: +SKIP
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        directory: str | os.PathLike[str] | None = None,
        max_segment_bytes: int = DEFAULT_MAX_SEGMENT_BYTES,
        segments: int = DEFAULT_SEGMENTS,
        max_restore_bytes: int = DEFAULT_MAX_RESTORE_BYTES,
        lock_timeout: float = _LOCK_TIMEOUT,
    ) -> None:
        self.root = Path(os.path.realpath(os.fspath(root)))
        base = Path(directory) if directory is not None else default_journal_dir()
        key = hashlib.sha256(os.fsencode(self.root)).hexdigest()[:32]
        self.base = base
        self.directory = base / key
        self.max_segment_bytes = max_segment_bytes
        self.segments = max(1, segments)
        self.max_restore_bytes = max_restore_bytes
        self.lock_timeout = lock_timeout
        self._thread_lock = threading.RLock()

    @property
    def path(self) -> Path:
        """The current segment (the newest entries)."""
        return self.directory / _CURRENT

    # ------------------------------------------------------------------ writing

    def record(
        self,
        path: str,
        before: bytes | None,
        after: bytes | None,
        *,
        strategy: str | None = None,
        operation: str = "edit",
        summary: str = "",
        real: str | None = None,
        mode: int | None = None,
        target: str | None = None,
        group: str | None = None,
    ) -> JournalEntry:
        """Append the write of ``path`` from ``before`` to ``after`` (``None``: no file).

        Call it after the write succeeded, with the file's lock still held, so entries of
        one file are in the order of its writes. Raises :class:`JournalError` when the
        journal cannot be written.
        """
        if operation not in OPERATIONS:
            raise ValueError(f"unknown journal operation {operation!r}")
        reverse: Reverse | None = None
        restore_size = 0
        if before is not None:
            reverse = Reverse.between(before, after or b"")
            restore_size = len(reverse.middle)
            if restore_size > self.max_restore_bytes:
                reverse = None
        with self._locked():
            seq = self._next_seq()
            entry = JournalEntry(
                id=uuid.uuid4().hex[:16],
                seq=seq,
                time=time.time(),
                operation=operation,
                path=path,
                real=real if real is not None else path,
                before_sha256=_sha(before),
                after_sha256=_sha(after),
                strategy=strategy,
                summary=summary,
                mode=mode,
                restore=reverse,
                restore_size=restore_size,
                target=target,
                group=group,
            )
            self._append(_encode(entry))
        return entry

    # ------------------------------------------------------------------ reading

    def entries(self) -> list[JournalEntry]:
        """Every entry still kept, oldest first; :class:`JournalCorrupt` if any is damaged."""
        with self._locked():
            return self._read_all()

    # ------------------------------------------------------------------ internals

    @contextmanager
    def _locked(self) -> Iterator[None]:
        with self._thread_lock:
            try:
                self._ensure_directory()
                lock = filelock.FileLock(
                    self.directory / "journal.lock", timeout=self.lock_timeout, thread_local=False
                )
                lock.acquire(poll_interval=0.005)
            except filelock.Timeout as error:
                raise JournalError(
                    f"The undo journal {self.directory} stayed locked for {self.lock_timeout:g} s.",
                    hint="Another process is using it; retry in a moment.",
                ) from error
            except OSError as error:
                raise JournalError(
                    f"Could not open the undo journal {self.directory}: {error.strerror or error}.",
                    hint="Check that the folder is writable and belongs to you.",
                ) from error
            try:
                yield
            finally:
                lock.release()

    def _ensure_directory(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        # In a shared temp dir a folder of that name made by another user is not ours to
        # trust: it would hold (and could forge) the content that undo writes back.
        for folder in (self.base, self.directory):
            owner = folder.stat().st_uid
            if hasattr(os, "getuid") and owner != os.getuid():
                raise PermissionError(
                    errno.EPERM, f"the journal folder {folder} belongs to another user"
                )
        marker = self.directory / "workspace"
        expected = os.fspath(self.root) + "\n"
        if not marker.exists() or marker.stat().st_size == 0:  # (empty: a crash mid-write)
            with open(marker, "w", encoding="utf-8") as handle:
                handle.write(expected)
            return
        # A journal folder copied or moved from another workspace (or a forged one) holds
        # that workspace's writes: undoing them here would put its bytes into these files.
        recorded = marker.read_text(encoding="utf-8", errors="replace")
        if recorded != expected:
            raise JournalCorrupt(
                f"The undo journal {self.directory} belongs to another workspace "
                f"({recorded.strip()!r}, not {os.fspath(self.root)!r}); it is not trusted, and "
                "nothing was restored or recorded.",
                path=os.fspath(self.directory),
                hint=(
                    f"Move the folder {self.directory} aside to start a new journal for this "
                    "workspace."
                ),
            )

    def _segment_paths(self) -> list[Path]:
        """Oldest first: journal.N.jsonl ... journal.1.jsonl, journal.jsonl."""
        rotated = [self.directory / f"journal.{n}.jsonl" for n in range(self.segments - 1, 0, -1)]
        return [*rotated, self.path]

    def _read_all(self) -> list[JournalEntry]:
        entries: list[JournalEntry] = []
        for segment in self._segment_paths():
            try:
                data = segment.read_bytes()
            except FileNotFoundError:
                continue
            except OSError as error:
                raise JournalError(
                    f"Could not read the undo journal {segment}: {error.strerror or error}."
                ) from error
            lines = data.split(b"\n")
            # The last piece is b"" when the segment ends with a newline; otherwise it is a
            # record whose write was cut short by a crash: not an entry, never trusted.
            for number, line in enumerate(lines[:-1], 1):
                entries.append(_decode(line, segment, number))
        return entries

    def _next_seq(self) -> int:
        """One more than the newest complete entry's (read from the end: appends stay cheap)."""
        for segment in reversed(self._segment_paths()):
            try:
                with open(segment, "rb") as handle:
                    size = handle.seek(0, os.SEEK_END)
                    end = _last_newline_end(handle, size)  # past a torn tail, if any
                    if end == 0:
                        continue
                    start = _last_newline_end(handle, end - 1)
                    handle.seek(start)
                    line = handle.read(end - 1 - start)
            except FileNotFoundError:
                continue
            except OSError as error:  # a folder in its place, no permission: not a crash
                raise JournalError(
                    f"Could not read the undo journal {segment}: {error.strerror or error}."
                ) from error
            return _decode(line, segment, 0).seq + 1
        return 1

    def _append(self, line: bytes) -> None:
        try:
            self._cut_torn_tail()
            self._rotate_if_full()
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
            fd = os.open(self.path, flags, 0o600)
            try:
                written = os.write(fd, line)
                if written != len(line):  # a short write: cut it off, or it would be glued
                    os.ftruncate(fd, os.fstat(fd).st_size - written)
                    raise OSError(errno.EIO, "short write to the journal")
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as error:
            raise JournalError(
                f"Could not append to the undo journal {self.path}: {error.strerror or error}."
            ) from error

    def _cut_torn_tail(self) -> None:
        """Drop a last line left without its newline by a writer that crashed mid-append."""
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return
        if size == 0:
            return
        with open(self.path, "rb+") as handle:
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return
            keep = _last_newline_end(handle, size)
            handle.truncate(keep)
            handle.flush()
            os.fsync(handle.fileno())

    def _rotate_if_full(self) -> None:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return
        if size < self.max_segment_bytes:
            return
        paths = self._segment_paths()  # oldest first; the oldest is overwritten
        for older, newer in itertools.pairwise(paths):
            if newer.exists():
                os.replace(newer, older)
        _sync_directory(self.directory)


def _common_prefix(a: bytes, b: bytes, limit: int) -> int:
    """Length of the common prefix of ``a`` and ``b`` (at most ``limit``), in big strides."""
    low, step = 0, 1 << 16
    while low < limit:
        end = min(limit, low + step)
        if a[low:end] == b[low:end]:
            low = end
            continue
        if end - low <= 64:
            while low < end and a[low] == b[low]:
                low += 1
            return low
        step = max(64, (end - low) // 8)
    return low


def _last_newline_end(handle: Any, size: int) -> int:
    position = size
    while position > 0:
        start = max(0, position - 65536)
        handle.seek(start)
        chunk: bytes = handle.read(position - start)
        index = chunk.rfind(b"\n")
        if index != -1:
            return start + index + 1
        position = start
    return 0


def _sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _encode(entry: JournalEntry) -> bytes:
    body: dict[str, Any] = {
        "v": FORMAT_VERSION,
        "id": entry.id,
        "seq": entry.seq,
        "time": round(entry.time, 6),
        "op": entry.operation,
        "path": entry.path,
        "real": entry.real,
        "before": entry.before_sha256,
        "after": entry.after_sha256,
        "strategy": entry.strategy,
        "summary": entry.summary,
        "mode": entry.mode,
        "restore": entry.restore.to_json() if entry.restore is not None else None,
        "restore_size": entry.restore_size,
        "target": entry.target,
        "group": entry.group,
    }
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    checksum = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    # The checksum goes first, outside the body, so a line is checked before it is parsed.
    return f"{checksum} {text}\n".encode()


def _decode(line: bytes, segment: Path, number: int) -> JournalEntry:
    def corrupt(why: str) -> JournalCorrupt:
        return JournalCorrupt(
            f"The undo journal {segment} is damaged at "
            f"{f'line {number}' if number > 0 else 'its last line'} ({why}); it is not "
            "trusted, and nothing was restored.",
            path=os.fspath(segment),
            hint=(
                f"Move the folder {segment.parent} aside to start a new journal (the undo "
                "history in it is lost), and restore files from version control if needed."
            ),
        )

    checksum, _, text = line.partition(b" ")
    if len(checksum) != 16 or hashlib.sha256(text).hexdigest()[:16].encode() != checksum:
        raise corrupt("checksum mismatch")
    try:
        body = json.loads(text)
        if not isinstance(body, dict):
            raise ValueError("the entry is not a JSON object")
        if body.get("v") != FORMAT_VERSION:
            raise ValueError(f"unknown format version {body.get('v')!r}")
        restore = body.get("restore")
        return JournalEntry(
            id=_text(body, "id"),
            seq=_whole(body.get("seq"), "seq"),
            time=_moment(body.get("time")),
            operation=_text(body, "op"),
            path=_text(body, "path"),
            real=_text(body, "real"),
            before_sha256=_optional_hash(body.get("before"), "before"),
            after_sha256=_optional_hash(body.get("after"), "after"),
            strategy=_optional_str(body.get("strategy"), "strategy"),
            summary=str(body.get("summary") or ""),
            mode=_optional_int(body.get("mode"), "mode"),
            restore=Reverse.from_json(restore) if restore is not None else None,
            restore_size=int(body.get("restore_size") or 0),
            target=_optional_str(body.get("target"), "target"),
            group=_optional_str(body.get("group"), "group"),
        )
    except (ValueError, KeyError, TypeError) as error:
        raise corrupt(str(error)) from error


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"field {name!r} is not a whole number")
    return value


def _moment(value: Any) -> float:
    """A time ``datetime`` can show: a forged ``1e300`` or ``Infinity`` (JSON allows it
    through Python's parser) would crash ``editengine undo --list``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("field 'time' is not a number")
    if not 0 <= value < 253402300800:  # before year 10000
        raise ValueError(f"field 'time' is out of range ({value!r})")
    return float(value)


def _optional_int(value: Any, name: str) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"field {name!r} is not an integer")
    return value


def _optional_str(value: Any, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"field {name!r} is not a string")
    return value


def _optional_hash(value: Any, name: str) -> str | None:
    text = _optional_str(value, name)
    if text is not None and (len(text) != 64 or text.strip("0123456789abcdef")):
        raise ValueError(f"field {name!r} is not a sha256")
    return text


def _text(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value:
        raise ValueError(f"field {name!r} is missing")
    return value


def _sync_directory(directory: Path) -> None:
    if os.name == "nt":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass
