"""files/_suggest.py on its own: which paths "did you mean" offers, in which order, within
which bounds."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from editengine.files._suggest import suggest_paths


def make(root: Path, *paths: str) -> None:
    for path in paths:
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("x\n")


def ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def test_similar_paths_come_best_first_then_by_name(tmp_path):
    paths = ["src/mian.py", "src/main.pyx", "src/amin.py", "lib/main.rs", "src/nima.py"]
    make(tmp_path, *paths, "docs/readme.md")
    suggestions, same = suggest_paths(tmp_path, "src/main.py", limit=10)
    expected = sorted(
        (p for p in paths if ratio("src/main.py", p) >= 0.6),
        key=lambda p: (-ratio("src/main.py", p), p),
    )
    assert same == ()
    assert len(expected) >= 4 and "docs/readme.md" not in suggestions
    assert suggestions == tuple(expected)


@pytest.mark.parametrize(
    "first",
    [
        "0" * 60 + ".txt",  # ruled out by its length
        "0.zzz",  # ruled out by the quick similarity bound
        "a.txt",  # the same name: listed apart
    ],
)
def test_a_name_set_aside_does_not_end_the_search_of_its_folder(tmp_path, first):
    make(tmp_path, first, "a.txx")
    suggestions, _ = suggest_paths(tmp_path, "b/a.txt")
    assert "a.txx" in suggestions


def test_a_path_exactly_as_similar_as_required_is_offered(tmp_path):
    make(tmp_path, "abcxy")
    assert ratio("abcde", "abcxy") == 0.6
    assert suggest_paths(tmp_path, "abcde")[0] == ("abcxy",)


def test_same_name_files_come_first_closest_path_first(tmp_path):
    paths = ["x/y/z/app.py", "src/app.py", "src/old/app.py", "aaa/app.py", "src/neww/app.py"]
    make(tmp_path, *paths, "src/ap.py")
    suggestions, same = suggest_paths(tmp_path, "src/new/app.py", limit=6)
    assert same == tuple(sorted(paths, key=lambda p: -ratio("src/new/app.py", p)))
    assert same[0] == "src/neww/app.py"  # not the first by name
    assert suggestions[:5] == same and suggestions[5] == "src/ap.py"


def test_many_same_name_files_are_still_ranked_closest_first(tmp_path):
    for n in range(201):
        make(tmp_path, f"pkg{n:03d}/mod.py")
    make(tmp_path, "wanted/deep/mod.py")
    suggestions, same = suggest_paths(tmp_path, "wanted/deeper/mod.py", limit=1)
    assert len(same) == 202
    assert suggestions == ("wanted/deep/mod.py",)


def test_exactly_the_bound_of_same_name_files_are_ranked_by_difflib(tmp_path):
    # 200 files: difflib's ratio decides, and it prefers "ab/cd/f.py" for "abcd/f.py"
    # where the C measure would tie them by count.
    for n in range(198):
        make(tmp_path, f"zz{n:03d}/f.py")
    make(tmp_path, "ab/cd/f.py", "cd/ab/f.py")
    suggestions, same = suggest_paths(tmp_path, "abcd/f.py", limit=2)
    assert len(same) == 200
    assert suggestions == ("ab/cd/f.py", "cd/ab/f.py")


def test_the_walk_stops_at_max_files_exactly(tmp_path):
    make(tmp_path, "a1.txt", "a2.txt", "a3.txt")
    assert suggest_paths(tmp_path, "a0.txt", max_files=2)[0] == ("a1.txt", "a2.txt")
    assert suggest_paths(tmp_path, "a0.txt", max_files=3)[0] == ("a1.txt", "a2.txt", "a3.txt")
    make(tmp_path, "sub/a4.txt")
    assert "sub/a4.txt" not in suggest_paths(tmp_path, "a0.txt", max_files=3, limit=9)[0]


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_folders_behind_links_are_not_walked(tmp_path):
    root, outside = tmp_path / "ws", tmp_path / "outside"
    make(outside, "secret.py")
    root.mkdir()
    (root / "link").symlink_to(outside)
    assert suggest_paths(root, "link/secret.py") == ((), ())


def test_a_very_long_wrong_path_is_compared_by_its_end(tmp_path):
    make(tmp_path, "src/handlers/user_profile.py")
    missing = "x" * 5_000 + "/src/handlers/user_profile.pyi"
    assert suggest_paths(tmp_path, missing)[0] == ()  # lengths rule it out cheaply
    near = "src/handlers/user_profil.py"
    assert suggest_paths(tmp_path, near)[0] == ("src/handlers/user_profile.py",)
