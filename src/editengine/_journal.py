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

Writes of several files (a patch, the undo of a patch) are journaled *ahead*: before the
first file is replaced, an intent file (``intent-<group>.jsonl`` in the journal folder) holds
every entry the writes will append, with the full reverse of each (whatever its size). The
writer holds an advisory lock on it while it works. On success the entries are appended in
one write and the intent removed; a writer killed half-way leaves the intent, unlocked, and
the next engine (or undo) finds it with :meth:`Journal.pending` and rolls the files back (or,
if every file already holds its new bytes, journals them).

Bounded size: when the current segment passes ``max_segment_bytes`` it is rotated
(``journal.jsonl`` -> ``journal.1.jsonl`` -> ...), and the oldest of ``segments`` is
dropped. A reverse larger than ``max_restore_bytes`` is not kept: the entry says so, and
undoing it is refused.

Why one long module: the entry format, locked appends, corruption checks and reading back
are one file format.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import hashlib
import itertools
import json
import os
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import filelock

from editengine._errors import JournalCorrupt, JournalError

FORMAT_VERSION = 1
DEFAULT_MAX_SEGMENT_BYTES = 8 * 1024 * 1024
DEFAULT_SEGMENTS = 4
DEFAULT_MAX_RESTORE_BYTES = 2 * 1024 * 1024
_CURRENT = "journal.jsonl"
_INTENT_PREFIX = "intent-"
_INTENT_SUFFIX = ".jsonl"
#: The permission bits a journaled file may be given back: never setuid, setgid or sticky.
MODE_BITS = 0o777
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
        prefix, suffix = _whole(data.get("prefix"), "prefix"), _whole(data.get("suffix"), "suffix")
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
    folders: int = 0  # how many folders on its path the write created (the innermost)

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


@dataclass
class Intent:
    """The writes of one group announced ahead (see the module docstring).

    ``entries`` are the entries to append once every write landed (their ``seq`` is given
    then); ``file`` is the intent file; ``handle`` the open descriptor holding its lock
    while the writer works (``-1`` when none is held).
    """

    group: str
    entries: tuple[JournalEntry, ...]
    file: Path
    handle: int = -1

    def release(self) -> None:
        """Let go of the intent file's lock (it stays on disk)."""
        if self.handle >= 0:
            with contextlib.suppress(OSError):
                os.close(self.handle)
            self.handle = -1


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
        entry = self.entry(
            path, before, after, strategy=strategy, operation=operation, summary=summary,
            real=real, mode=mode, target=target, group=group,
        )  # fmt: skip
        with self._locked():
            entry = replace(entry, seq=self._next_seq())
            self._append(_encode(entry))
        return entry

    # ------------------------------------------------------------------ reading

    def entries(self) -> list[JournalEntry]:
        """Every entry still kept, oldest first; :class:`JournalCorrupt` if any is damaged."""
        with self._locked():
            return self._read_all()

    # ------------------------------------------------------------------ writes of a group

    def entry(
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
        keep_all: bool = False,
        folders: int = 0,
    ) -> JournalEntry:
        """The entry :meth:`record` would append (``seq`` 0, not appended). ``keep_all``
        keeps the reverse whatever its size (an intent needs it to roll back)."""
        if operation not in OPERATIONS:
            raise ValueError(f"unknown journal operation {operation!r}")
        if mode is not None:
            if isinstance(mode, bool) or not isinstance(mode, int) or not 0 <= mode <= 0o7777:
                raise JournalError(f"The mode {mode!r} is not a file's permission bits.")
            mode &= MODE_BITS  # a file is never given back setuid, setgid or sticky bits
        reverse: Reverse | None = None
        restore_size = 0
        if before is not None:
            reverse = Reverse.between(before, after or b"")
            restore_size = len(reverse.middle)
            if restore_size > self.max_restore_bytes and not keep_all:
                reverse = None
        return JournalEntry(
            id=uuid.uuid4().hex[:16],
            seq=0,
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
            folders=folders,
        )

    def begin(self, group: str, entries: Sequence[JournalEntry]) -> Intent:
        """Write the intent of a group of writes (durably) and hold its lock; call it before
        the first write. Raises :class:`JournalError` when it cannot be written."""
        if not group or not group.isalnum():
            raise ValueError(f"a group name is letters and digits, got {group!r}")
        body = b"".join(_encode(entry) for entry in entries)
        with self._locked():
            file = self.directory / f"{_INTENT_PREFIX}{group}{_INTENT_SUFFIX}"
            temp = file.with_name(f".{file.name}.{os.getpid()}.tmp")
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    _write_all(fd, body)
                    os.fsync(fd)
                finally:
                    os.close(fd)
                handle = os.open(temp, os.O_RDONLY)
                _try_lock(handle)
                os.replace(temp, file)
            except OSError as error:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                raise JournalError(
                    f"Could not write the intent of a multi-file write to {self.directory}: "
                    f"{error.strerror or error}."
                ) from error
            _sync_directory(self.directory)
        return Intent(group=group, entries=tuple(entries), file=file, handle=handle)

    def commit(self, intent: Intent, *, check_journaled: bool = False) -> list[JournalEntry]:
        """Append the intent's entries (one write: all of the group or none), then drop the
        intent. ``check_journaled`` first looks whether they are in already (a writer killed
        between the append and the drop). Raises :class:`JournalError` when the journal
        cannot be written."""
        ids = {entry.id for entry in intent.entries}
        try:
            with self._locked():
                if check_journaled and any(entry.id in ids for entry in self._read_all()):
                    appended = []  # journaled already, by a recovery that ran meanwhile
                else:
                    seq = self._next_seq()
                    appended = [
                        self._kept(replace(entry, seq=seq + index))
                        for index, entry in enumerate(intent.entries)
                    ]
                    self._append(b"".join(_encode(entry) for entry in appended))
                self._drop(intent)
        finally:
            intent.release()
        return appended

    def abandon(self, intent: Intent) -> None:
        """Drop the intent without journaling it (its writes were taken back, or none
        happened)."""
        try:
            with self._locked():
                self._drop(intent)
        finally:
            intent.release()

    def pending(self) -> list[Intent]:
        """Intents whose writer is gone (killed half-way), each holding its lock now.

        Never creates the journal folder; an intent file that cannot be read whole is
        reported as :class:`JournalCorrupt`."""
        if not self.directory.is_dir():
            return []
        with self._locked():  # the folder's owner and workspace checked, as for any read
            return self._pending()

    def _pending(self) -> list[Intent]:
        try:
            names = sorted(os.listdir(self.directory))
        except OSError:
            return []
        found: list[Intent] = []
        for name in names:
            if not (name.startswith(_INTENT_PREFIX) and name.endswith(_INTENT_SUFFIX)):
                continue
            group = name[len(_INTENT_PREFIX) : -len(_INTENT_SUFFIX)]
            file = self.directory / name
            try:
                handle = os.open(file, os.O_RDONLY)
            except OSError:
                continue  # dropped meanwhile
            try:
                if not _try_lock(handle):
                    os.close(handle)
                    continue  # its writer is still at work
                data = b""
                while chunk := os.read(handle, 1 << 20):
                    data += chunk
            except OSError:
                os.close(handle)
                continue
            intent = Intent(group=group, entries=(), file=file, handle=handle)
            try:
                lines = data.split(b"\n")
                intent.entries = tuple(
                    _decode(line, file, number) for number, line in enumerate(lines[:-1], 1)
                )
            except JournalCorrupt:
                intent.release()
                raise
            found.append(intent)
        return found

    def _kept(self, entry: JournalEntry) -> JournalEntry:
        """The entry as the journal keeps it: a reverse over the size limit is dropped."""
        if entry.restore is not None and entry.restore_size > self.max_restore_bytes:
            return replace(entry, restore=None)
        return entry

    def _drop(self, intent: Intent) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(intent.file)
        _sync_directory(self.directory)

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
        "folders": entry.folders,
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
        operation = _text(body, "op")
        if operation not in OPERATIONS:
            raise ValueError(f"unknown operation {operation!r}")
        mode = _optional_int(body.get("mode"), "mode")
        if mode is not None and not 0 <= mode <= MODE_BITS:
            raise ValueError(f"field 'mode' is not permission bits 0o000-0o777 ({mode!r})")
        summary = body.get("summary")
        if summary is not None and not isinstance(summary, str):
            raise ValueError("field 'summary' is not a string")
        reverse = Reverse.from_json(restore) if restore is not None else None
        restore_size = _whole(body.get("restore_size") or 0, "restore_size")
        if reverse is not None and restore_size != len(reverse.middle):
            raise ValueError("field 'restore_size' does not match the restore")
        return JournalEntry(
            id=_name(body.get("id"), "id"),
            seq=_whole(body.get("seq"), "seq"),
            time=_moment(body.get("time")),
            operation=operation,
            path=_file_name(body, "path"),
            real=_file_name(body, "real"),
            before_sha256=_optional_hash(body.get("before"), "before"),
            after_sha256=_optional_hash(body.get("after"), "after"),
            strategy=_optional_str(body.get("strategy"), "strategy"),
            summary=summary or "",
            mode=mode,
            restore=reverse,
            restore_size=restore_size,
            target=_optional_name(body.get("target"), "target"),
            group=_optional_name(body.get("group"), "group"),
            folders=_whole(body.get("folders") or 0, "folders"),
        )
    except (ValueError, KeyError, TypeError, OverflowError) as error:
        raise corrupt(str(error)) from error


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 62:
        raise ValueError(f"field {name!r} is not a whole number in range")
    return value


def _name(value: Any, name: str) -> str:
    """An id or group: letters and digits, as the journal makes them."""
    if not isinstance(value, str) or not value or not value.isalnum() or not value.isascii():
        raise ValueError(f"field {name!r} is not an id")
    return value


def _optional_name(value: Any, name: str) -> str | None:
    return None if value is None else _name(value, name)


def _file_name(body: dict[str, Any], name: str) -> str:
    """A path: text without NUL (no file name holds one; ``undo --list`` escapes the
    control characters a name may hold)."""
    value = _text(body, name)
    if "\x00" in value:
        raise ValueError(f"field {name!r} holds a NUL character")
    return value


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.EIO, "short write")
        view = view[written:]


def _try_lock(fd: int) -> bool:
    """An exclusive advisory lock on ``fd`` without waiting; ``False`` when another open
    file holds it (in this process or another). Where there is no ``flock`` every intent
    counts as free."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


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
