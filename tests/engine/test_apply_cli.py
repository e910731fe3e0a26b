"""``editengine apply``: one edit from the command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from editengine.cli import main


def run(capsys, *argv):
    status = main(["apply", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_success_prints_summary_and_diff(capsys, write, workspace):
    path = write("a.py", "x = 1\n")
    status, out, err = run(
        capsys, "--root", str(workspace), "--file", "a.py", "--old", "x = 1", "--new", "x = 2"
    )
    assert status == 0, err
    assert out.startswith("Replaced 1 occurrence in a.py (exact match)\n")
    assert "-x = 1\n+x = 2\n" in out
    assert "\x1b[" not in out  # not a terminal: no colour codes
    assert path.read_text() == "x = 2\n"


def test_failure_exit_code_and_error_code(capsys, write, workspace):
    path = write("a.py", "x = 1\n")
    status, out, err = run(
        capsys, "--root", str(workspace), "--file", "a.py", "--old", "nope", "--new", "y = 2"
    )
    assert status == 1
    assert err.startswith("error[no_match]: ")
    assert out == ""
    assert path.read_text() == "x = 1\n"


def test_dry_run(capsys, write, workspace):
    path = write("a.py", "x = 1\n")
    status, out, _ = run(
        capsys,
        "--root",
        str(workspace),
        "--file",
        "a.py",
        "--old",
        "x = 1",
        "--new",
        "x = 2",
        "--dry-run",
    )
    assert status == 0
    assert out.startswith("Preview (dry run): would replace 1 occurrence")
    assert path.read_text() == "x = 1\n"


def test_json_request_file(capsys, write, workspace, tmp_path):
    path = write("a.py", "foo()\nfoo()\n")
    request = tmp_path / "request.json"
    request.write_text(
        json.dumps({"filePath": "a.py", "oldString": "foo", "newString": "bar", "replaceAll": True})
    )
    status, _, err = run(capsys, "--root", str(workspace), "--json", str(request))
    assert status == 0, err
    assert path.read_text() == "bar()\nbar()\n"


def test_json_request_from_stdin_with_edits(capsys, write, workspace, monkeypatch):
    path = write("a.py", "a = 1\nb = 2\n")
    request = {
        "file_path": "a.py",
        "edits": [
            {"old_string": "a = 1", "new_string": "a = 3"},
            {"old_string": "b = 2", "new_string": "b = 4"},
        ],
    }
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(request)))
    status, out, err = run(capsys, "--root", str(workspace), "--json", "-")
    assert status == 0, err
    assert out.startswith("Applied 2 edits")
    assert path.read_text() == "a = 3\nb = 4\n"


def test_json_dry_run_field(capsys, write, workspace, tmp_path):
    path = write("a.py", "x = 1\n")
    request = tmp_path / "r.json"
    request.write_text(
        json.dumps({"file_path": "a.py", "old_string": "x = 1", "new_string": "y", "dry_run": True})
    )
    status, out, _ = run(capsys, "--root", str(workspace), "--json", str(request))
    assert status == 0 and out.startswith("Preview")
    assert path.read_text() == "x = 1\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["--file", "a.py", "--old", "x"],
        ["--json", "/nonexistent/request.json"],
        ["--json", "-", "--file", "a.py"],
        ["--model", "gpt", "--file", "a.py", "--old", "x", "--new", "y"],
    ],
)
def test_usage_errors_exit_2(capsys, workspace, argv, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("{}"))
    status, _, err = run(capsys, "--root", str(workspace), *argv)
    assert status == 2
    assert err.startswith("error[bad_request]: ")


def test_malformed_json_request(capsys, workspace, tmp_path):
    request = tmp_path / "r.json"
    request.write_text("{nope")
    status, _, err = run(capsys, "--root", str(workspace), "--json", str(request))
    assert status == 2 and "not valid JSON" in err


def test_output_json(capsys, write, workspace):
    write("a.py", "x = 1\n")
    status, out, _ = run(
        capsys,
        "--root",
        str(workspace),
        "--file",
        "a.py",
        "--old",
        "x = 1",
        "--new",
        "x = 2",
        "--output-json",
    )
    assert status == 0
    data = json.loads(out)
    assert data["replacements"] == 1 and data["file_path"] == "a.py"


def test_provider_wiring(capsys, write, workspace, monkeypatch, fake_fixer):
    import editengine.fixer as fixer_package
    from editengine.fixer._protocol import Correction

    path = write("a.py", "value = 1\n")
    made = []

    def make_fixer(provider_name, *, model=None, **options):
        made.append((provider_name, model))
        return fake_fixer(Correction(search="value = 1", replace="value = 2", explanation="typo"))

    monkeypatch.setattr(fixer_package, "make_fixer", make_fixer, raising=False)
    status, out, err = run(
        capsys,
        "--root",
        str(workspace),
        "--file",
        "a.py",
        "--old",
        "valeu = 1",
        "--new",
        "value = 2",
        "--provider",
        "openai",
        "--model",
        "gpt-test",
    )
    assert status == 0, err
    assert made == [("openai", "gpt-test")]
    assert "corrected old_string" in out
    assert path.read_text() == "value = 2\n"


def test_missing_fixer_factory_is_a_clear_error(capsys, write, workspace, monkeypatch):
    import editengine.fixer as fixer_package

    write("a.py", "x = 1\n")
    monkeypatch.delattr(fixer_package, "make_fixer", raising=False)
    status, _, err = run(
        capsys,
        "--root",
        str(workspace),
        "--file",
        "a.py",
        "--old",
        "x",
        "--new",
        "y",
        "--provider",
        "anthropic",
    )
    assert status == 2
    assert err.startswith("error[provider_config]: ")


def test_as_a_subprocess(write, workspace):
    path = write("a.py", "x = 1\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "editengine",
            "apply",
            "--root",
            str(workspace),
            "--file",
            "a.py",
            "--old",
            "x = 1",
            "--new",
            "x = 2",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "+x = 2" in done.stdout
    assert path.read_text() == "x = 2\n"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "editengine",
            "apply",
            "--root",
            str(workspace),
            "--file",
            "../x",
            "--old",
            "a",
            "--new",
            "b",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error[path_outside_workspace]")


def test_colour_on_a_terminal_and_plain_with_no_color(write, workspace, monkeypatch, capsys):
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich: behave as on a terminal
    monkeypatch.delenv("NO_COLOR", raising=False)
    write("a.py", "x = 1\n")
    status, out, _ = run(
        capsys, "--root", str(workspace), "--file", "a.py", "--old", "x = 1", "--new", "x = 2"
    )
    assert status == 0
    assert "\x1b[" in out and "x = 2" in out
    status, out, _ = run(
        capsys,
        "--root",
        str(workspace),
        "--file",
        "a.py",
        "--old",
        "x = 2",
        "--new",
        "x = 3",
        "--no-color",
    )
    assert status == 0
    assert "\x1b[" not in out and "+x = 3" in out
