from editengine import edit_text


def test_exact_edit_keeps_crlf():
    result = edit_text("a\r\nb = 1\r\nc\r\n", "b = 1\nc", "b = 2\nc\nd")
    assert result.new_content == "a\r\nb = 2\r\nc\r\nd\r\n"
    assert result.strategy == "exact"
