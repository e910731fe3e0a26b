"""Already applied, decided by the cascade: under the forgiveness of the tier that finds
old_string, an edit is a retry only when old_string lies inside the text new_string wrote;
a quote that still stands elsewhere, forgiven, is an edit to make."""

from __future__ import annotations

import pytest

from editengine import AmbiguousMatch, NoMatch, edit_text


class TestDeletions:
    def test_a_deletion_quoted_two_spaces_short_deletes_the_line(self):
        content = "    raise Error('bad')\n    self._w = w\n    def get(self):"
        result = edit_text(content, "  raise Error('bad')\n  self._w = w", "  raise Error('bad')")
        assert result.strategy == "line_trimmed"
        assert result.new_content == "    raise Error('bad')\n    def get(self):"

    def test_a_deletion_quoted_with_trailing_whitespace_deletes_the_line(self):
        content = "def f():\n    setup()\n    trace('x')\n    return 1\n"
        result = edit_text(content, "    setup()  \n    trace('x')", "    setup()  ")
        assert result.new_content == "def f():\n    setup()\n    return 1\n"

    def test_the_same_deletion_sent_again_changes_nothing(self):
        content = "    raise Error('bad')\n    def get(self):"
        result = edit_text(content, "  raise Error('bad')\n  self._w = w", "  raise Error('bad')")
        assert result.strategy == "already_applied" and result.new_content == content


class TestRetries:
    def test_an_insert_retried_with_trailing_whitespace_is_not_applied_twice(self):
        content = "def f():\n    a = 1\n    # note\n    b = 2\n"
        result = edit_text(content, "    a = 1  \n", "    a = 1  \n    # note\n")
        assert result.strategy == "already_applied" and result.new_content == content

    def test_an_insert_retried_with_shifted_indentation_is_not_applied_twice(self):
        content = "def f():\n    total = compute()\n    log(total)\n    return total\n"
        old = "  total = compute()\n  return total"
        result = edit_text(content, old, "  total = compute()\n  log(total)\n  return total")
        assert result.strategy == "already_applied" and result.new_content == content

    def test_the_first_sending_of_that_insert_is_applied(self):
        content = "def f():\n    total = compute()\n    return total\n"
        old = "  total = compute()\n  return total"
        result = edit_text(content, old, "  total = compute()\n  log(total)\n  return total")
        assert result.new_content == (
            "def f():\n    total = compute()\n    log(total)\n    return total\n"
        )

    def test_a_respaced_quote_inside_the_written_text_is_a_retry(self):
        content = "run(alpha, beta)\ncleanup(alpha)\n"
        result = edit_text(content, "run(alpha,beta)", "run(alpha,beta)\ncleanup(alpha)")
        assert result.strategy == "already_applied" and result.new_content == content

    def test_replace_all_retried_through_a_tolerant_tier_changes_nothing(self):
        content = "a = fetch_rows(db); flush(db)\nb = fetch_rows(db); flush(db)\n"
        old, new = "fetch_rows (db)", "fetch_rows (db); flush(db)"
        result = edit_text(content, old, new, replace_all=True)
        assert result.strategy == "already_applied" and result.new_content == content

    def test_that_replace_all_sent_first_is_applied_everywhere(self):
        content = "a = fetch_rows(db)\nb = fetch_rows(db)\n"
        old, new = "fetch_rows (db)", "fetch_rows (db); flush(db)"
        result = edit_text(content, old, new, replace_all=True)
        assert result.new_content.count("flush(db)") == 2

    def test_replace_all_whose_quote_is_gone_and_replacement_stands_everywhere(self):
        content = "a = fetch_rows_limited(db)\nb = fetch_rows_limited(db)\n"
        result = edit_text(content, "fetch_rows(db)", "fetch_rows_limited(db)", replace_all=True)
        assert result.strategy == "already_applied" and result.new_content == content


class TestCopiesAtAnotherDepth:
    INNER = '    "types": "./index.d.ts",\n    "default": "./index.js"\n'
    DEEPER = INNER.replace("    ", "      ")
    FILE = '{\n  "a": {\n' + DEEPER + '  },\n  "b": {\n' + INNER + "  }\n}\n"
    OLD = INNER.rstrip("\n")
    NEW = OLD.replace('"types"', '"typings"')

    def test_the_copy_quoted_at_its_own_depth_is_edited(self):
        result = edit_text(self.FILE, self.OLD, self.NEW)
        assert result.strategy == "exact"

    def test_sent_again_the_copy_at_another_depth_is_not_edited(self):
        once = edit_text(self.FILE, self.OLD, self.NEW).new_content
        with pytest.raises(AmbiguousMatch):
            edit_text(once, self.OLD, self.NEW)


class TestBoundaries:
    def test_new_string_twice_in_the_file_is_no_proof_of_one_edit(self):
        content = "total = compute(a, b)\n\ntotal = compute(a, b)\n"
        with pytest.raises(NoMatch):
            edit_text(content, "total = compute(a)", "total = compute(a, b)")

    def test_new_string_twice_is_the_retry_of_an_edit_of_two_places(self):
        content = "total = compute(a, b)\n\ntotal = compute(a, b)\n"
        result = edit_text(
            content, "total = compute(a)", "total = compute(a, b)", expected_replacements=2
        )
        assert result.strategy == "already_applied" and result.new_content == content

    def test_an_old_quote_right_beside_new_string_is_edited(self):
        content = "def f():\n    return compute(a, b)\n    return compute(a)\n"
        result = edit_text(content, "  return compute(a)", "  return compute(a, b)")
        assert result.new_content == (
            "def f():\n    return compute(a, b)\n    return compute(a, b)\n"
        )

    @pytest.mark.parametrize(
        ("new", "applied"), [("total = 12345", False), ("total = 123456", True)]
    )
    def test_twelve_characters_make_new_string_distinctive(self, new, applied):
        content = f"def f():\n    {new}\n"
        if applied:
            result = edit_text(content, "total = 9", new)
            assert result.strategy == "already_applied"
        else:
            with pytest.raises(NoMatch):
                edit_text(content, "total = 9", new)

    def test_several_line_trimmed_copies_of_new_string_are_no_proof(self):
        content = "if a:\n    x = load(path)\n    y = 2\nx = load(path)\ny = 2\n"
        with pytest.raises(NoMatch):
            edit_text(content, "  x = load(name)\n  y = 2", "  x = load(path)\n  y = 2")

    def test_several_line_trimmed_copies_each_holding_the_quote_are_a_retry(self):
        content = "if a:\n    x = 1\n    y = 2\nx = 1\ny = 2\n"
        old, new = "      x = 1", "      x = 1\n      y = 2"
        result = edit_text(content, old, new, replace_all=True)
        assert result.strategy == "already_applied" and result.new_content == content

    def test_a_quote_inside_one_copy_and_also_elsewhere_is_ambiguous(self):
        content = "if a:\n    x = 1\n    y = 2\nx = 1\n"
        with pytest.raises(AmbiguousMatch):
            edit_text(content, "      x = 1", "      x = 1\n      y = 2")


class TestFuzzyQuotes:
    BLOCK = (
        "        if kind in {name}:\n            ok = True\n            break\n        count += 1\n"
    )

    def file_with(self, second: str) -> str:
        return (
            "def scan(items):\n    for kind in items:\n"
            + self.BLOCK.format(name="_joiners_l_or_d")
            + "\n"
            + self.BLOCK.format(name=second)
            + "    return ok\n"
        )

    def test_a_fuzzy_quote_of_a_sibling_while_new_string_stands_is_refused(self):
        # The rename landed; sent again, its quote only nearly matches the sibling block.
        content = self.file_with("_joiners_r_or_d_list")
        old = "\n\n" + self.BLOCK.format(name="_joiners_r_or_d") + "\n\n"
        new = "\n\n" + self.BLOCK.format(name="_joiners_r_or_d_list") + "\n\n"
        with pytest.raises(AmbiguousMatch) as info:
            edit_text(content, old, new)
        assert "lines 8-11" in str(info.value) and "lines 3-6" in str(info.value)

    def test_the_same_rename_on_the_file_before_it_landed_is_made(self):
        content = self.file_with("_joiners_r_or_d")
        old = "\n\n" + self.BLOCK.format(name="_joiners_r_or_d") + "\n\n"
        new = "\n\n" + self.BLOCK.format(name="_joiners_r_or_d_list") + "\n\n"
        result = edit_text(content, old, new)
        assert result.new_content == self.file_with("_joiners_r_or_d_list")

    def test_a_deletion_with_a_typo_in_the_deleted_line_is_made(self):
        content = (
            "def f():\n    first = 1\n    second = 2\n    third = 3\n    fourth = 4\n    return 0\n"
        )
        old = "    first = 1\n    second = 2\n    thrid = 3\n    fourth = 4\n"
        new = "    first = 1\n    second = 2\n    fourth = 4\n"
        result = edit_text(content, old, new)
        assert result.new_content == content.replace("    third = 3\n", "")


class TestUnderAnElisionMarker:
    """A line inserted right beside a ``// ...`` marker, once made, stands in the stretch the
    marker skips: the quote still matches, and the retry must not insert it again."""

    BEFORE = (
        "function link() {\n  setup({\n    arb: tree,\n  })\n  finish()\n  more()\n\n"
        "  // collect names\n  const names = []\n}\n"
    )
    AFTER = BEFORE.replace("  // collect names", "  // TODO: check\n  // collect names")
    OLD = "  setup({\n    arb: tree,\n  })\n  // ... rest of the function ...\n\n  // collect names"
    NEW = OLD.replace("  // collect names", "  // TODO: check\n  // collect names")

    def test_the_insertion_sent_first_inserts_the_line(self):
        result = edit_text(self.BEFORE, self.OLD, self.NEW)
        assert result.strategy == "elision" and result.new_content == self.AFTER

    def test_the_insertion_sent_again_changes_nothing(self):
        result = edit_text(self.AFTER, self.OLD, self.NEW)
        assert result.strategy == "already_applied" and result.new_content == self.AFTER

    def test_an_insertion_after_the_quoted_first_line_sent_again_changes_nothing(self):
        old = "  })\n  // ... rest of the function ...\n  // collect names"
        new = "  })\n  log(tree)\n  // ... rest of the function ...\n  // collect names"
        once = edit_text(self.BEFORE, old, new).new_content
        assert once == self.BEFORE.replace("  })\n", "  })\n  log(tree)\n")
        result = edit_text(once, old, new)
        assert result.strategy == "already_applied" and result.new_content == once

    def test_a_deletion_under_a_marker_deletes(self):
        old = "  setup({\n  // ... rest of the function ...\n  // collect names\n  const names = []"
        new = "  setup({\n  // ... rest of the function ...\n  const names = []"
        result = edit_text(self.AFTER, old, new)
        assert result.strategy == "elision"
        assert result.new_content == self.AFTER.replace("  // collect names\n", "")

    def test_a_deletion_beside_a_marker_deletes(self):
        # The deleted line is the one a retried insertion would have put there.
        old = "  setup({\n  // ... rest of the function ...\n  // TODO: check\n  // collect names"
        new = "  setup({\n  // ... rest of the function ...\n  // collect names"
        result = edit_text(self.AFTER, old, new)
        assert result.strategy == "elision" and result.new_content == self.BEFORE

    def test_a_line_like_one_in_the_skipped_stretch_is_still_inserted(self):
        # ``more()`` stands in the skipped stretch, but not right before the kept line.
        new = self.OLD.replace("  // collect names", "  more()\n  // collect names")
        result = edit_text(self.BEFORE, self.OLD, new)
        assert result.new_content == self.BEFORE.replace(
            "  // collect names", "  more()\n  // collect names"
        )
