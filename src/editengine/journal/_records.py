"""The journal's records: one entry per write, and the line format that keeps it.

Each entry is one JSON line: the file (workspace-relative), the sha256 of its bytes
before and after the write (``None`` when it did not exist / was deleted), the time, the
strategy, and the *reverse* of the write: the bytes of the old file that differ from the
new one, between their common prefix and suffix. Applying the reverse to the file as the
write left it gives the old bytes back exactly; their sha256 is checked.

Each line carries a checksum of its own text, checked before it is parsed; a line that
fails any check raises :class:`~editengine.JournalCorrupt`.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from editengine._errors import JournalCorrupt, JournalError

FORMAT_VERSION = 1
#: The permission bits a journaled file may be given back: never setuid, setgid or sticky.
MODE_BITS = 0o777

#: Operations an entry may record. ``undo`` reverses an earlier write; ``redo`` reverses
#: an undo.
OPERATIONS = ("edit", "multi_edit", "patch", "undo", "redo", "write")


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


def sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def encode(entry: JournalEntry) -> bytes:
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


def decode(line: bytes, segment: Path, number: int) -> JournalEntry:
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
