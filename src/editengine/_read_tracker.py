"""What the agent last read: an edit of a file changed on disk since then is refused.

An agent edits from the text it read. If a user, a formatter or another agent changed the
file after that read, the agent's old_string and its idea of the surrounding code are
stale; the engine refuses with :class:`~editengine.StaleFile` so it reads again.
"""

from __future__ import annotations

import threading

from editengine._errors import StaleFile


class ReadTracker:
    """Remembers the sha256 of each file as the agent last saw it (keyed by real path).

    With ``require_read=True`` an existing file must have been read before it is edited.
    The engine records the new hash after each successful write: the agent knows that
    content, since its own edit produced it.
    """

    def __init__(self, *, require_read: bool = False) -> None:
        self.require_read = require_read
        self._lock = threading.Lock()
        self._hashes: dict[str, str] = {}

    def record(self, key: str, sha256: str) -> None:
        with self._lock:
            self._hashes[key] = sha256

    def forget(self, key: str) -> None:
        with self._lock:
            self._hashes.pop(key, None)

    def last_read(self, key: str) -> str | None:
        with self._lock:
            return self._hashes.get(key)

    def check(self, key: str, current_sha256: str | None, *, display: str) -> None:
        """Raise :class:`StaleFile` when the file is not as the agent last read it."""
        seen = self.last_read(key)
        if seen is None:
            if self.require_read and current_sha256 is not None:
                raise StaleFile(
                    f"{display} has not been read in this session; nothing was written.",
                    path=display,
                    hint="Read the file first, then make the edit against what you read.",
                )
            return
        if current_sha256 is None:
            raise StaleFile(
                f"{display} was deleted after you read it; nothing was written.",
                path=display,
                hint="Check whether the file moved, then retry.",
            )
        if current_sha256 != seen:
            raise StaleFile(
                f"{display} changed on disk since you last read it; nothing was written.",
                path=display,
                hint="Read the file again and redo the edit against its current content.",
            )
