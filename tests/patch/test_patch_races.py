"""A patch's delete (and the source of a move) gets the last look a write gets: a save by
another program while the patch writes an earlier file is never deleted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from editengine import StaleFile
from editengine.engine import EditEngine
from editengine.journal import Journal
from editengine.journal import _transaction as transaction


def _engine(root: Path, tmp_path: Path) -> EditEngine:
    journal = Journal(root, directory=tmp_path / "journal")
    return EditEngine(root, lock_dir=tmp_path / "locks", journal=journal)


def _saved_after_first_write(monkeypatch: pytest.MonkeyPatch, save: Callable[[], object]) -> None:
    """Another program (which takes no lock) saves right after the patch's first write."""
    write_file = transaction.write_file
    calls = {"n": 0}

    def write(*args: object, **kwargs: object) -> object:
        created = write_file(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given
        calls["n"] += 1
        if calls["n"] == 1:
            save()
        return created

    monkeypatch.setattr(transaction, "write_file", write)


@pytest.mark.parametrize(
    "operation",
    ["*** Delete File: b.txt\n", "*** Update File: b.txt\n*** Move to: c.txt\n-b\n+B\n"],
    ids=["delete", "move"],
)
def test_a_file_saved_while_the_patch_writes_an_earlier_one_is_not_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, operation: str
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    (root / "b.txt").write_text("b\n")
    patch = f"*** Begin Patch\n*** Update File: a.txt\n-a\n+A\n{operation}*** End Patch\n"
    engine = _engine(root, tmp_path)
    _saved_after_first_write(monkeypatch, lambda: (root / "b.txt").write_text("theirs\n"))

    with pytest.raises(StaleFile) as caught:
        engine.apply_patch(patch)

    assert "b.txt was changed by another program during the patch" in caught.value.message
    assert (root / "b.txt").read_text() == "theirs\n"
    assert (root / "a.txt").read_text() == "a\n"  # rolled back
    assert not (root / "c.txt").exists()
    assert engine.journal_entries() == []


def test_the_journal_of_a_delete_holds_the_bytes_it_removed(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "b.txt").write_text("b\n")
    engine = _engine(root, tmp_path)
    engine.apply_patch("*** Begin Patch\n*** Delete File: b.txt\n*** End Patch\n")
    assert not (root / "b.txt").exists()
    engine.undo()
    assert (root / "b.txt").read_text() == "b\n"


def test_a_delete_of_a_file_removed_meanwhile_is_refused_and_rolled_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    (root / "b.txt").write_text("b\n")
    patch = (
        "*** Begin Patch\n*** Update File: a.txt\n-a\n+A\n*** Delete File: b.txt\n*** End Patch\n"
    )
    engine = _engine(root, tmp_path)
    _saved_after_first_write(monkeypatch, (root / "b.txt").unlink)

    with pytest.raises(StaleFile) as caught:
        engine.apply_patch(patch)

    assert "b.txt was deleted by another program during the patch" in caught.value.message
    assert (root / "a.txt").read_text() == "a\n"
