"""Edits on real files: results, dry runs, creation, and the file's style surviving."""

from __future__ import annotations

import hashlib
import os
import stat

import pytest

from editengine._errors import BadRequest, OverwriteRequired


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_edit_writes_and_reports(engine, write, workspace):
    path = write("src/app.py", "def f():\n    return 1\n\nx = f()\n")
    before = path.read_bytes()

    result = engine.edit("src/app.py", "    return 1", "    return 2")

    assert path.read_text() == "def f():\n    return 2\n\nx = f()\n"
    assert result.file_path == "src/app.py"
    assert result.absolute_path == str(workspace / "src" / "app.py")
    assert result.replacements == 1
    assert result.strategy == "exact"
    assert result.summary == "Replaced 1 occurrence in src/app.py (exact match)"
    assert result.hash_before == sha(before)
    assert result.hash_after == sha(path.read_bytes())
    assert (result.additions, result.deletions) == (1, 1)
    assert "-    return 1\n+    return 2\n" in result.diff
    assert result.diff.startswith("--- a/src/app.py\n+++ b/src/app.py\n@@ -1,4 +1,4 @@")
    assert not result.no_change and not result.dry_run and not result.created
    assert len(result.edit_id) == 32


def test_absolute_path_inside_workspace_is_accepted(engine, write):
    path = write("a.txt", "one\n")
    result = engine.edit(str(path), "one", "two")
    assert result.file_path == "a.txt"
    assert path.read_text() == "two\n"


def test_replace_all_and_expected_replacements(engine, write):
    path = write("r.py", "foo(1)\nfoo(2)\nfoo(3)\n")
    result = engine.edit("r.py", "foo", "bar", replace_all=True)
    assert result.replacements == 3
    assert path.read_text() == "bar(1)\nbar(2)\nbar(3)\n"
    result = engine.edit("r.py", "bar", "baz", expected_replacements=3)
    assert result.replacements == 3
    assert result.summary.startswith("Replaced 3 occurrences in r.py")


def test_dry_run_writes_nothing_and_says_preview(engine, write):
    path = write("d.py", "value = 1\n")
    mtime = path.stat().st_mtime_ns

    result = engine.edit("d.py", "value = 1", "value = 2", dry_run=True)

    assert path.read_bytes() == b"value = 1\n"
    assert path.stat().st_mtime_ns == mtime
    assert result.dry_run
    assert result.summary.startswith("Preview (dry run): would replace 1 occurrence in d.py")
    assert "+value = 2" in result.diff
    assert result.hash_after is None
    assert result.hash_before == sha(b"value = 1\n")


def test_dry_run_of_a_new_file_creates_nothing(engine, workspace):
    result = engine.edit("pkg/new/mod.py", "", "x = 1\n", dry_run=True)
    assert result.created and result.dry_run
    assert not (workspace / "pkg").exists()


def test_identical_old_and_new_is_a_no_op(engine, write):
    path = write("n.py", "a = 1\n")
    mtime = path.stat().st_mtime_ns
    result = engine.edit("n.py", "a = 1", "a = 1")
    assert result.no_change
    assert result.summary.startswith("No change")
    assert result.hash_after == result.hash_before
    assert path.stat().st_mtime_ns == mtime


def test_empty_old_string_creates_file_and_parents(engine, workspace):
    result = engine.edit("pkg/sub/new.py", "", "print('hi')\n")
    path = workspace / "pkg" / "sub" / "new.py"
    assert path.read_text() == "print('hi')\n"
    assert result.created
    assert result.hash_before is None
    assert result.summary == "Created pkg/sub/new.py (1 line)"
    assert result.diff.startswith("--- /dev/null\n+++ b/pkg/sub/new.py\n")
    assert result.to_acp() == {
        "type": "diff",
        "path": str(path),
        "oldText": None,
        "newText": "print('hi')\n",
    }


def test_new_file_gets_default_permissions(engine, workspace):
    umask = os.umask(0o022)
    os.umask(umask)
    engine.edit("fresh.txt", "", "x\n")
    mode = stat.S_IMODE((workspace / "fresh.txt").stat().st_mode)
    assert mode == 0o666 & ~umask


def test_empty_old_string_on_a_file_with_content_is_refused_untouched(engine, write):
    path = write("w.txt", "old content\nmore\n")
    with pytest.raises(OverwriteRequired) as refused:
        engine.edit("w.txt", "", "new content\n")
    assert path.read_text() == "old content\nmore\n"
    digest = hashlib.sha256(b"old content\nmore\n").hexdigest()
    assert "w.txt" in str(refused.value) and digest in refused.value.hint


def test_empty_old_string_with_the_files_hash_replaces_it(engine, write):
    path = write("w.txt", "old content\n")
    digest = hashlib.sha256(b"old content\n").hexdigest()
    engine.edit("w.txt", "", "new content\n", expected_hash=digest)
    assert path.read_text() == "new content\n"


def test_empty_old_string_replaces_whole_file(engine, write):
    path = write("w.txt", "old content\nmore\n")
    result = engine.edit("w.txt", "", "new content\n", overwrite=True)
    assert path.read_text() == "new content\n"
    assert result.summary == "Rewrote w.txt (1 line)"
    assert result.to_acp()["oldText"] == "old content\nmore\n"


def test_crlf_bom_and_missing_final_newline_survive(engine, write):
    original = "\ufeffline one\r\nline two\r\nlast line".encode()
    path = write("style.txt", original)

    engine.edit("style.txt", "line two", "line 2\nline 2b")

    assert path.read_bytes() == "\ufeffline one\r\nline 2\r\nline 2b\r\nlast line".encode()


def test_file_mode_survives(engine, write):
    path = write("run.sh", "#!/bin/sh\necho hi\n")
    path.chmod(0o751)
    engine.edit("run.sh", "echo hi", "echo hello")
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert path.read_text() == "#!/bin/sh\necho hello\n"


def test_read_only_file_keeps_its_mode(engine, write):
    path = write("ro.txt", "a\n")
    path.chmod(0o444)
    engine.edit("ro.txt", "a", "b")
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert path.read_text() == "b\n"


def test_lone_surrogate_in_new_string_is_refused_before_writing(engine, write):
    path = write("s.txt", "abc\n")
    with pytest.raises(BadRequest, match="UTF-8"):
        engine.edit("s.txt", "abc", "a\ud800c")
    assert path.read_bytes() == b"abc\n"


async def test_aedit_edits_the_file(engine, write):
    path = write("async.py", "x = 1\n")
    result = await engine.aedit("async.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 2\n"
    assert result.replacements == 1


async def test_amulti_edit_edits_the_file(engine, write):
    path = write("async.py", "x = 1\ny = 1\n")
    result = await engine.amulti_edit(
        "async.py",
        [
            {"old_string": "x = 1", "new_string": "x = 2"},
            {"old_string": "y = 1", "new_string": "y = 3"},
        ],
    )
    assert path.read_text() == "x = 2\ny = 3\n"
    assert result.replacements == 2


def test_result_to_dict_is_json_ready(engine, write):
    import json

    write("j.txt", "a\n")
    data = engine.edit("j.txt", "a", "b").to_dict()
    assert json.loads(json.dumps(data)) == data
    assert "old_text" not in data and data["replacements"] == 1
