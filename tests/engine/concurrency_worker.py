"""Run in child processes by test_concurrency.py (importable by name for ``spawn``)."""

from __future__ import annotations


def edit_lines(root: str, lock_dir: str, file_name: str, lines: list[int]) -> int:
    from editengine.engine import EditEngine

    engine = EditEngine(root, lock_dir=lock_dir)
    done = 0
    for line in lines:
        engine.edit(file_name, f"line {line:04d} todo\n", f"line {line:04d} done\n")
        done += 1
    return done
