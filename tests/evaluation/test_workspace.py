from editengine.evaluation._dataset import EvalCase
from editengine.evaluation._workspace import case_workspace, read_exact, relative_name

CONTENT = "\ufeffline one\r\nline two\r\nno final newline"


def _case(file_name=None) -> EvalCase:
    return EvalCase(
        id="w",
        content=CONTENT,
        old_string="a",
        new_string="b",
        expect="refuse",
        file_name=file_name,
    )


def test_file_round_trips_byte_for_byte():
    with case_workspace(_case("src/app.py")) as (root, file):
        assert file == root / "src" / "app.py"
        assert file.read_bytes() == CONTENT.encode("utf-8")
        assert read_exact(file) == CONTENT
    assert not root.exists()


def test_file_names_cannot_escape_the_workspace():
    assert str(relative_name(_case("../../etc/passwd"))) == "etc/passwd"
    assert str(relative_name(_case("/abs/x.go"))) == "abs/x.go"
    assert str(relative_name(_case(None))) == "file.txt"
    assert str(relative_name(_case(".."))) == "file.txt"
