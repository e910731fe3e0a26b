"""files/_workspace.py on its own: every refusal of the guard says what was wrong, names the
path, and tells the agent what to do; the limits are exact; display paths keep the caller's
spelling through symlinks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from editengine._errors import BadRequest, FileNotFound, NotAFile, PathOutsideWorkspace, StaleFile
from editengine.files._workspace import MAX_NAME_BYTES, MAX_PATH_BYTES, Workspace

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX paths and symlinks")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    made = tmp_path / "ws"
    made.mkdir()
    return made


def test_the_default_root_is_the_current_folder(root, monkeypatch):
    monkeypatch.chdir(root)
    assert Workspace().root == root


def test_a_missing_root_is_named(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(FileNotFound) as caught:
        Workspace(missing)
    assert caught.value.message == f"The workspace root {missing} does not exist."
    assert caught.value.path == str(missing)


def test_a_file_as_root_is_named(tmp_path):
    file = tmp_path / "f.txt"
    file.write_text("x")
    with pytest.raises(NotAFile) as caught:
        Workspace(file)
    assert caught.value.message == f"The workspace root {file} is not a directory."
    assert caught.value.path == str(file)


def test_a_path_outside_says_where_it_points_and_what_to_do(root):
    with pytest.raises(PathOutsideWorkspace) as caught:
        Workspace(root).resolve("../x.txt")
    error = caught.value
    assert error.message == (
        f"Refused '../x.txt': it points outside the workspace ({root.parent / 'x.txt'})."
    )
    assert error.path == "../x.txt"
    assert error.hint == (
        f"Only files under the workspace root {root} can be edited. "
        "Use a path relative to that root."
    )


def test_a_link_leading_out_says_where_it_resolves(root, tmp_path):
    (tmp_path / "secret.txt").write_text("s")
    (root / "link.txt").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(PathOutsideWorkspace) as caught:
        Workspace(root).resolve("link.txt")
    assert caught.value.message == (
        "Refused 'link.txt': a symbolic link on that path leads outside the workspace "
        f"(it resolves to {tmp_path / 'secret.txt'})."
    )
    assert caught.value.path == "link.txt"


def test_the_root_itself_is_named_as_such(root):
    with pytest.raises(NotAFile) as caught:
        Workspace(root).resolve(".")
    assert caught.value.message == "'.' is the workspace root, not a file."
    assert caught.value.path == "."


# -- a path that keeps changing ---------------------------------------------------------------


class FlakyRealpath:
    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0
        self.real = os.path.realpath

    def __call__(self, path):
        self.calls += 1
        if self.calls <= self.failures:
            raise OSError("a link on the path was replaced")
        return self.real(path)


def test_a_path_that_changes_once_is_checked_again(root, monkeypatch):
    workspace = Workspace(root)
    flaky = FlakyRealpath(failures=1)
    monkeypatch.setattr(os.path, "realpath", flaky)
    assert workspace.resolve("f.txt").display == "f.txt"
    assert flaky.calls == 2


def test_a_path_that_keeps_changing_is_refused_after_three_tries(root, monkeypatch):
    workspace = Workspace(root)
    flaky = FlakyRealpath(failures=10)
    monkeypatch.setattr(os.path, "realpath", flaky)
    with pytest.raises(StaleFile) as caught:
        workspace.resolve("f.txt")
    assert flaky.calls == 3
    assert caught.value.message == (
        "The path 'f.txt' kept changing while it was checked (a folder or link on it was "
        "being replaced); nothing was read or written."
    )
    assert caught.value.path == "f.txt"
    assert caught.value.hint == "Retry the edit once the workspace has settled."


# -- display paths ------------------------------------------------------------------------------


@pytest.fixture
def linked_root(root: Path, tmp_path: Path) -> Path:
    """``root`` reached through a symlink, with a file and a link to it inside."""
    (root / "target.txt").write_text("x")
    (root / "link.txt").symlink_to("target.txt")
    alias = tmp_path / "alias"
    alias.symlink_to(root)
    return alias


def test_display_keeps_the_callers_name_through_a_linked_root(root, linked_root):
    workspace = Workspace(linked_root)
    assert workspace.resolve("link.txt").display == "link.txt"
    assert workspace.resolve(str(linked_root / "link.txt")).display == "link.txt"
    assert workspace.resolve(str(root / "link.txt")).display == "link.txt"
    assert workspace.resolve("link.txt").real == root / "target.txt"


# -- what a path may be -------------------------------------------------------------------------


def refusal(root: Path, path: object) -> BadRequest:
    with pytest.raises(BadRequest) as caught:
        Workspace(root).resolve(path)  # type: ignore[arg-type]  # any object: the refusal is tested
    return caught.value


def test_a_pathlike_is_taken_as_its_text(root):
    assert Workspace(root).resolve(Path("sub") / "f.txt").display == "sub/f.txt"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (b"f.txt", "file_path must be text, not bytes."),
        (7, "file_path must be a string, got int."),
        ("  ", "file_path is empty: give the path of the file to edit."),
        ("f\x00.txt", "file_path contains a NUL character."),
        (
            "f\ud800.txt",
            "file_path contains characters that cannot be a file name (a lone surrogate?).",
        ),
    ],
)
def test_malformed_paths_say_what_is_wrong(root, path, message):
    assert refusal(root, path).message == message


@pytest.mark.parametrize("path", ["f.txt/", "sub/.", "sub/.."])
def test_paths_naming_a_folder_say_so_and_what_to_give(root, path):
    error = refusal(root, path)
    assert error.message == (
        f"file_path {path!r} ends with a slash, so it names a folder, not a file."
    )
    assert error.hint == "Give the path of a file, without a trailing slash."


def test_a_name_of_the_longest_length_is_accepted_one_byte_more_is_not(root):
    workspace = Workspace(root)
    assert workspace.resolve("n" * MAX_NAME_BYTES).display == "n" * MAX_NAME_BYTES
    error = refusal(root, "n" * (MAX_NAME_BYTES + 1))
    assert error.message == (
        f"file_path is too long: a name may have at most {MAX_NAME_BYTES} bytes and the "
        f"whole path {MAX_PATH_BYTES} (the file system refuses longer ones)."
    )
    assert error.hint == "Use a shorter file name."


def test_names_are_measured_between_slashes_only(root):
    spaced = "a " * 128  # 256 bytes in one name, spaces and all
    assert refusal(root, spaced + ".txt").hint == "Use a shorter file name."
    short_parts = "/".join(["d"] * 150) + "/f.txt"  # 306 bytes in short names
    assert Workspace(root).resolve(short_parts).display == short_parts


def test_a_path_of_the_longest_length_is_accepted_one_byte_more_is_not(root):
    part = "d" * 99 + "/"  # 100 bytes
    longest = part * 40 + "f" * (MAX_PATH_BYTES - 4000)
    assert len(longest.encode()) == MAX_PATH_BYTES
    assert Workspace(root).resolve(longest).display == longest
    assert refusal(root, longest + "f").hint == "Use a shorter file name."
