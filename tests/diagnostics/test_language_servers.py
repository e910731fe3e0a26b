"""Real language servers over LSP: a new undefined name comes back from pylsp (with pyflakes)
after an edit; a server that crashes, never answers or is missing leaves the edit written and
its result saying the diagnostics were unavailable, within the timeout."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest

from editengine import EditEngine

pytestmark = pytest.mark.lsp

FAKE = str(Path(__file__).with_name("fake_language_server.py"))
SOURCE = "import os\n\n\ndef f():\n    return os.sep\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "m.py").write_text(SOURCE)
    return tmp_path


@pytest.mark.skipif(shutil.which("pylsp") is None, reason="python-lsp-server is not installed")
def test_pylsp_reports_a_new_undefined_name_and_not_the_old_ones(workspace: Path) -> None:
    # An undefined name the file already had is the file's, not the edit's.
    (workspace / "m.py").write_text(SOURCE + "\n\ndef g():\n    return old_missing\n")
    with EditEngine(workspace, lsp={"python": ["pylsp"]}, lsp_timeout=20, journal=False) as engine:
        result = engine.edit("m.py", "return os.sep", "return undefined_name")
        assert result.diagnostics_note is None
        messages = [(d.line, d.message, d.source) for d in result.diagnostics]
        assert messages == [(5, "undefined name 'undefined_name'", "pyflakes")]
        # The server stays up: the next edit is answered by the same process.
        process = engine.language_servers._servers["python"].client._server
        again = engine.edit("m.py", "return undefined_name", "return os.sep")
        assert again.diagnostics == () and again.diagnostics_note is None
        assert engine.language_servers._servers["python"].client._server is process
    assert process.returncode is not None  # close() stopped it


@pytest.mark.skipif(shutil.which("pylsp") is None, reason="python-lsp-server is not installed")
def test_a_server_killed_between_edits_is_reported_then_restarted(workspace: Path) -> None:
    with EditEngine(workspace, lsp={"python": ["pylsp"]}, lsp_timeout=20, journal=False) as engine:
        engine.edit("m.py", "return os.sep", "return os.sep  # one")
        engine.language_servers._servers["python"].client._server.kill()
        time.sleep(0.2)  # the client sees the process end
        result = engine.edit("m.py", "# one", "# two")
        assert "two" in (workspace / "m.py").read_text()
        assert "unavailable" in (result.diagnostics_note or "")
        after = engine.edit("m.py", "return os.sep", "return missing_name")
        assert [d.message for d in after.diagnostics] == ["undefined name 'missing_name'"]


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ([sys.executable, FAKE, "silent"], "did not answer initialize"),
        ([sys.executable, FAKE, "crash"], "exited"),
        ([sys.executable, FAKE, "mute"], "no diagnostics within"),
        (["editengine-no-such-language-server"], "not found"),
    ],
    ids=["never-answers", "crashes-mid-session", "never-publishes", "missing"],
)
def test_a_server_that_fails_never_fails_the_edit(
    workspace: Path, command: list[str], why: str
) -> None:
    timeout = 0.5
    with EditEngine(workspace, lsp={"python": command}, lsp_timeout=timeout, journal=False) as e:
        started = time.monotonic()
        result = e.edit("m.py", "return os.sep", "return os.sep + 'x'")
        elapsed = time.monotonic() - started
    assert (workspace / "m.py").read_text() == SOURCE.replace("os.sep", "os.sep + 'x'")
    assert result.diagnostics == ()
    assert "diagnostics unavailable" in (result.diagnostics_note or "")
    assert why in (result.diagnostics_note or "")
    # Starting, then waiting for the answer: each bounded by the timeout, plus the kill.
    assert elapsed < 2 * timeout + 2.0


def test_files_of_other_languages_do_not_start_a_server(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n")
    command = [sys.executable, FAKE, "silent"]
    with EditEngine(tmp_path, lsp={"python": command}, lsp_timeout=5, journal=False) as engine:
        started = time.monotonic()
        result = engine.edit("a.txt", "hello", "bye")
        assert time.monotonic() - started < 2.0
        assert engine.language_servers._servers == {}
    assert result.diagnostics == ()
