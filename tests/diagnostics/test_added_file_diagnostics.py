"""A file a patch adds reports its problems as a created file does: all of them are new.
Adding is never refused for syntax (nothing was matched loosely), only reported."""

from __future__ import annotations

import json
from pathlib import Path

from editengine.cli._batch import handle_line
from editengine.engine import EditEngine

ADD_BROKEN = "*** Begin Patch\n*** Add File: e.py\n+x = (\n*** End Patch\n"
ADD_CLEAN = "*** Begin Patch\n*** Add File: e.py\n+x = 1\n*** End Patch\n"


def test_the_engine_reports_an_added_files_errors_and_writes_it(tmp_path: Path) -> None:
    with EditEngine(tmp_path, journal=False) as engine:
        result = engine.apply_patch(ADD_BROKEN)
    (added,) = result.results
    assert [d.line for d in added.diagnostics] == [1]
    assert (tmp_path / "e.py").read_text() == "x = (\n"


def test_a_clean_added_file_reports_nothing(tmp_path: Path) -> None:
    with EditEngine(tmp_path, journal=False) as engine:
        result = engine.apply_patch(ADD_CLEAN)
    assert [r.diagnostics for r in result.results] == [()]


def test_the_batch_protocol_reports_an_added_files_errors() -> None:
    answer = handle_line(json.dumps({"id": 1, "files": {}, "patch": ADD_BROKEN}))
    assert answer["ok"] is True
    assert [(d["path"], d["line"]) for d in answer["diagnostics"]] == [("e.py", 1)]
