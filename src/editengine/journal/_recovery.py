"""Groups of writes a killed process left half-done, settled: each file all old or all new.

A process killed while it replaced the files of a group (a patch, the undo of a patch)
leaves the group's intent on disk, unlocked (see :mod:`editengine.journal._transaction`).
:func:`recover` (run when an engine starts, and before an undo) finds it: if every file
already holds its new bytes the entries are journaled (the group becomes one undo step);
otherwise every file written is put back.
"""

from __future__ import annotations

import hashlib
import logging

from editengine._errors import BinaryFile, EditError, StaleFile, UnsupportedEncoding
from editengine.files import Target
from editengine.journal import _transaction as transaction
from editengine.journal._intents import Intent
from editengine.journal._journal import Journal
from editengine.journal._records import JournalEntry
from editengine.journal._writer import FileWriter

logger = logging.getLogger("editengine")

_NO_LIMIT = 1 << 62  # a file is compared whatever its size


def recover(writer: FileWriter) -> int:
    """Finish the groups of writes whose writer died half-way (see the module docstring);
    how many were settled. Never raises for a group it cannot settle: it stays for later."""
    journal = writer.journal
    if journal is None:
        return 0
    settled = 0
    for intent in journal.pending():
        try:
            _settle(writer, journal, intent)
            settled += 1
        except (EditError, OSError) as error:
            logger.warning("could not settle the interrupted writes %s: %s", intent.group, error)
        finally:
            intent.release()
    return settled


def _settle(writer: FileWriter, journal: Journal, intent: Intent) -> None:
    chains: dict[str, list[JournalEntry]] = {}
    targets: dict[str, Target] = {}
    for entry in intent.entries:
        chains.setdefault(entry.real, []).append(entry)
        if entry.real not in targets:
            target = writer.workspace.resolve(entry.path)
            if writer.relative_real(target) != entry.real:
                raise StaleFile(f"{entry.path} now leads to another file.", path=entry.path)
            targets[entry.real] = target
    with writer.locks.hold_all((t.real, t.display) for t in targets.values()):
        if not intent.file.exists():
            return  # settled by another process meanwhile
        now = {real: _current(writer, target) for real, target in targets.items()}
        if all(_sha(now[real]) == chain[-1].after_sha256 for real, chain in chains.items()):
            journal.commit(intent, check_journaled=True)  # every file is new: keep it
            return
        # Every file's old bytes first: one changed by someone else since leaves them all.
        olds: dict[str, bytes | None] = {}
        for real, chain in chains.items():
            data = now[real]
            for entry in reversed(chain):
                if _sha(data) == entry.after_sha256:
                    data = entry.restores(data)
                elif _sha(data) != entry.before_sha256:
                    raise StaleFile(
                        f"{entry.path} was changed by another program after an interrupted "
                        "write; the files of that write were left as they are.",
                        path=entry.path,
                    )
            olds[real] = data
        for real, data in olds.items():
            if data == now[real]:
                continue
            chain = chains[real]
            if not transaction.put(writer, targets[real], data, chain[0].mode):
                raise StaleFile(f"{chain[0].path} could not be put back.", path=chain[0].path)
            if data is None:
                transaction.remove_empty_folders(
                    writer, transaction.created_by(writer, targets[real], chain[0])
                )
        journal.abandon(intent)


def _current(writer: FileWriter, target: Target) -> bytes | None:
    try:
        snapshot = writer.files.read(target.real, display=target.display, max_bytes=_NO_LIMIT)
    except (BinaryFile, UnsupportedEncoding):
        return transaction.NOT_TEXT
    return snapshot.data if snapshot.exists else None


def _sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()
