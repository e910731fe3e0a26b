"""The journal of writes and undo: what every write did to a workspace, and taking it back.

- :mod:`~editengine.journal._journal` — :class:`Journal`: record, read, and journal ahead;
- :mod:`~editengine.journal._records` — an entry, its reverse, and the line format;
- :mod:`~editengine.journal._store` — the folder on disk: lock, segments, crash-safe appends;
- :mod:`~editengine.journal._intents` — a group of writes announced ahead (patch, undo);
- :mod:`~editengine.journal._writer` — the write transaction the engine owns: lock, read,
  still-same check, atomic write, journal record;
- :mod:`~editengine.journal._transaction` — several files written as one, all or nothing;
- :mod:`~editengine.journal._recovery` — a group a killed process left half-done, settled;
- :mod:`~editengine.journal._undo` — undo and redo from the journal (results in
  ``_undo_results``).
"""

from editengine._public import publish
from editengine.journal._journal import Journal
from editengine.journal._records import JournalEntry
from editengine.journal._undo_results import RestoredFile, UndoResult

__all__ = ["Journal", "JournalEntry", "RestoredFile", "UndoResult"]


publish(globals())  # public names show this package, not their private module
