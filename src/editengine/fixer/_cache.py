"""An LRU cache of corrections, so a repeated failed edit costs no second LLM call."""

from __future__ import annotations

import hashlib
import json
import threading

from cachetools import LRUCache

from editengine.fixer._prompt import error_text
from editengine.fixer._protocol import Correction, FixRequest


def correction_key(request: FixRequest) -> str:
    """sha256 of what decides the answer: content, old, new, instruction, error, counts."""
    payload = json.dumps(
        [
            request.content,
            request.old_string,
            request.new_string,
            request.instruction,
            error_text(request.error),
            request.replace_all,
            request.expected_replacements,
        ],
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


class CorrectionCache:
    """A thread-safe LRU of ``key -> Correction``; ``maxsize=0`` disables caching."""

    def __init__(self, maxsize: int = 50) -> None:
        self.maxsize = maxsize
        self._entries: LRUCache[str, Correction] | None = (
            LRUCache(maxsize=maxsize) if maxsize > 0 else None
        )
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return 0 if self._entries is None else len(self._entries)

    def get(self, key: str) -> Correction | None:
        if self._entries is None:
            return None
        with self._lock:
            return self._entries.get(key)

    def put(self, key: str, correction: Correction) -> None:
        if self._entries is None:
            return
        with self._lock:
            self._entries[key] = correction

    def forget(self, key: str) -> bool:
        """Drop one entry; True if it was there."""
        if self._entries is None:
            return False
        with self._lock:
            return self._entries.pop(key, None) is not None

    def clear(self) -> None:
        if self._entries is not None:
            with self._lock:
                self._entries.clear()
