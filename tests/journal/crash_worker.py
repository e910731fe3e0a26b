"""Run as a child process by test_journal.py: edit a file, then die half-way through the
journal append (SIGKILL after writing part of the record), like a crash or a power cut."""

from __future__ import annotations

import os
import signal
import sys


def main(root: str, journal_dir: str, lock_dir: str) -> None:
    from editengine.engine import EditEngine
    from editengine.journal import Journal
    from editengine.journal import _store as journal_module

    real_write = os.write

    def torn_write(fd: int, data: bytes) -> int:  # type: ignore[override]  # a narrower stand-in
        if isinstance(data, bytes) and data.endswith(b"\n") and b'"op":"edit"' in data:
            real_write(fd, data[: len(data) // 2])
            os.kill(os.getpid(), signal.SIGKILL)
        return real_write(fd, data)

    journal_module.os.write = torn_write  # type: ignore[assignment]  # a test double put in place
    engine = EditEngine(root, lock_dir=lock_dir, journal=Journal(root, directory=journal_dir))
    engine.edit("a.txt", "two", "three")


if __name__ == "__main__":
    main(*sys.argv[1:4])
