"""A missing file gets did-you-mean suggestions; autocorrect uses a unique same-name file."""

from __future__ import annotations

import pytest

from editengine._errors import FileNotFound


def test_suggests_files_with_the_same_name_first(engine, write):
    write("src/pkg/utils.py", "x = 1\n")
    write("tests/utils.py", "x = 1\n")
    write("src/pkg/util.py", "x = 1\n")
    with pytest.raises(FileNotFound) as caught:
        engine.edit("pkg/utils.py", "x = 1", "x = 2")
    suggestions = caught.value.suggestions
    assert suggestions[:2] == ("src/pkg/utils.py", "tests/utils.py")
    assert len(suggestions) <= 3
    assert "Did you mean: src/pkg/utils.py" in str(caught.value)


def test_skips_vcs_and_dependency_folders(engine, write):
    write(".git/objects/app.py", "")
    write("node_modules/lib/app.py", "")
    write(".venv/lib/app.py", "")
    with pytest.raises(FileNotFound) as caught:
        engine.edit("app.py", "a", "b")
    assert caught.value.suggestions == ()


def test_at_most_three_suggestions(engine, write):
    for n in range(6):
        write(f"d{n}/conf.toml", "")
    with pytest.raises(FileNotFound) as caught:
        engine.edit("conf.toml", "a", "b")
    assert len(caught.value.suggestions) == 3


def test_autocorrect_uses_the_only_candidate_and_says_so(make_engine, write):
    engine = make_engine(autocorrect_paths=True)
    path = write("src/deep/settings.py", "DEBUG = True\n")
    result = engine.edit("settings.py", "DEBUG = True", "DEBUG = False")
    assert path.read_text() == "DEBUG = False\n"
    assert result.file_path == "src/deep/settings.py"
    assert any("settings.py does not exist; edited src/deep/settings.py" in n for n in result.notes)


def test_autocorrect_refuses_to_guess_between_two(make_engine, write):
    engine = make_engine(autocorrect_paths=True)
    a = write("a/settings.py", "DEBUG = True\n")
    b = write("b/settings.py", "DEBUG = True\n")
    with pytest.raises(FileNotFound) as caught:
        engine.edit("settings.py", "DEBUG = True", "DEBUG = False")
    assert set(caught.value.suggestions) == {"a/settings.py", "b/settings.py"}
    assert a.read_text() == b.read_text() == "DEBUG = True\n"


def test_autocorrect_is_off_by_default(engine, write):
    path = write("src/settings.py", "DEBUG = True\n")
    with pytest.raises(FileNotFound):
        engine.edit("settings.py", "DEBUG = True", "DEBUG = False")
    assert path.read_text() == "DEBUG = True\n"


def test_autocorrect_never_turns_a_creation_into_an_edit(make_engine, write, workspace):
    engine = make_engine(autocorrect_paths=True)
    existing = write("src/new.py", "keep\n")
    engine.edit("new.py", "", "created\n")
    assert (workspace / "new.py").read_text() == "created\n"
    assert existing.read_text() == "keep\n"
