"""The LLM fixer step: asked only after NoMatch, never trusted, one round, lock not held."""

from __future__ import annotations

import pytest

from editengine._errors import FixerTimeout, NoMatch, ProviderError
from editengine.fixer._protocol import Correction

SOURCE = "def greet(name):\n    return 'hello ' + name\n\n\ndef main():\n    greet('x')\n"
# Quoted from a wrong memory (other names): no tier can place it, the fixer can.
WRONG_OLD = "def greeting(person_name):\n    return 'hello ' + person_name\n"
NEW = "def greeting(person_name):\n    return 'hi ' + person_name\n"


def corrected(search="    return 'hello ' + name", replace="    return 'hi ' + name", **extra):
    return Correction(
        search=search,
        replace=replace,
        explanation=extra.pop("explanation", "the function is called greet"),
        provider="fake",
        model="fake-1",
        latency_ms=12.5,
        input_tokens=100,
        output_tokens=20,
        **extra,
    )


def test_fixer_is_not_asked_when_the_cascade_matches(make_engine, write, fake_fixer):
    write("g.py", SOURCE)
    fixer = fake_fixer()
    make_engine(fixer=fixer).edit("g.py", "    return 'hello ' + name", "    return 'yo'")
    assert fixer.requests == []


def test_successful_correction_is_applied_and_reported(make_engine, write, fake_fixer, observer):
    path = write("g.py", SOURCE)
    fixer = fake_fixer(corrected())
    engine = make_engine(fixer=fixer, telemetry=observer)

    result = engine.edit("g.py", WRONG_OLD, NEW, instruction="Say hi instead of hello")

    assert path.read_text() == SOURCE.replace("'hello '", "'hi '")
    assert result.corrected_by_fixer
    assert result.fixer_explanation == "the function is called greet"
    assert "after the LLM fixer corrected old_string" in result.summary
    (request,) = fixer.requests
    assert request.file_path == "g.py"
    assert request.content == SOURCE
    assert (request.old_string, request.new_string) == (WRONG_OLD, NEW)
    assert request.instruction == "Say hi instead of hello"
    assert isinstance(request.error, NoMatch)
    state = observer.events[-1][1]
    assert state.fixer.outcome == "corrected"
    assert (state.fixer.provider, state.fixer.model, state.fixer.input_tokens) == (
        "fake",
        "fake-1",
        100,
    )
    assert state.outcome == "success"
    assert len(state.attempts) >= 2  # both cascade passes are in the trace


def test_instruction_is_synthesised_when_absent(make_engine, write, fake_fixer):
    write("g.py", SOURCE)
    fixer = fake_fixer(corrected())
    make_engine(fixer=fixer).edit("g.py", WRONG_OLD, NEW)
    assert "old_string" in fixer.requests[0].instruction
    assert "new_string" in fixer.requests[0].instruction


@pytest.mark.parametrize(
    ("failure", "outcome"),
    [
        (ProviderError("rate limited"), "error"),
        (FixerTimeout("no answer in 40 s"), "timeout"),
        (RuntimeError("bug in a fixer"), "error"),
    ],
)
def test_fixer_failure_returns_the_original_error_with_a_note(
    make_engine, write, fake_fixer, observer, failure, outcome
):
    path = write("g.py", SOURCE)
    engine = make_engine(fixer=fake_fixer(failure), telemetry=observer)
    with pytest.raises(NoMatch) as caught:
        engine.edit("g.py", WRONG_OLD, NEW)
    assert path.read_text() == SOURCE
    assert "The LLM fixer could not correct it:" in str(caught.value)
    assert observer.events[-1][1].fixer.outcome == outcome
    assert observer.events[-1][1].error_code == "no_match"


def test_ambiguous_correction_is_refused(make_engine, write, fake_fixer, observer):
    path = write("g.py", SOURCE)
    # "name" appears several times: the correction could land in the wrong place.
    engine = make_engine(
        fixer=fake_fixer(corrected(search="name", replace="person")), telemetry=observer
    )
    with pytest.raises(NoMatch) as caught:
        engine.edit("g.py", WRONG_OLD, NEW)
    assert path.read_text() == SOURCE
    assert "The LLM fixer proposed a correction, but" in str(caught.value)
    assert observer.events[-1][1].fixer.outcome == "failed_validation"


@pytest.mark.parametrize(
    "correction",
    [
        corrected(search="", replace="everything"),
        corrected(search="greet", replace="greet"),
        corrected(search="not in the file at all", replace="qqq = 7"),
    ],
)
def test_unusable_corrections_are_refused(make_engine, write, fake_fixer, correction):
    path = write("g.py", SOURCE)
    with pytest.raises(NoMatch, match="The LLM fixer proposed a correction, but"):
        make_engine(fixer=fake_fixer(correction)).edit("g.py", WRONG_OLD, NEW)
    assert path.read_text() == SOURCE


class WithoutAlreadyApplied:
    """The default cascade minus its already-applied rule (as an ablation would run it), so
    that the fixer, not the cascade, is the one to say the edit is already there."""

    def __init__(self) -> None:
        from editengine import DEFAULT_CASCADE

        self.inner = DEFAULT_CASCADE

    def edit(self, content, old_string, new_string, **options):
        result = self.inner.edit(content, old_string, new_string, **options)
        if result.strategy == "already_applied":
            from editengine.matching._closest import closest_regions

            # As the cascade's own miss says it: with the places most like old_string.
            raise NoMatch(
                "old_string was not found in the file.",
                closest=closest_regions(content, old_string),
            )
        return result


def test_no_change_accepted_only_when_new_text_is_present(make_engine, write, fake_fixer):
    already = SOURCE.replace("'hello '", "'hi '")
    path = write("g.py", already)
    answer = Correction(search="", replace="", no_changes_required=True, explanation="already done")
    engine = make_engine(fixer=fake_fixer(answer), cascade=WithoutAlreadyApplied())
    # The place meant reads as new_string, names as the file has them. (new_string being
    # only *in* it is not enough: "    return 'hi ' + name" alone would ask for the def
    # line to go, and it is still there.)
    result = engine.edit("g.py", WRONG_OLD, "def greet(name):\n    return 'hi ' + name\n")
    assert result.no_change and result.corrected_by_fixer
    assert result.fixer_explanation == "already done"
    assert result.summary.startswith("No change: the LLM fixer found the edit already applied")
    assert path.read_text() == already


def test_no_change_refused_when_new_text_is_only_part_of_the_place(make_engine, write, fake_fixer):
    already = SOURCE.replace("'hello '", "'hi '")
    path = write("g.py", already)
    answer = Correction(search="", replace="", no_changes_required=True, explanation="already done")
    engine = make_engine(fixer=fake_fixer(answer), cascade=WithoutAlreadyApplied())
    with pytest.raises(NoMatch, match="in place of what old_string quotes"):
        engine.edit("g.py", WRONG_OLD, "    return 'hi ' + name\n")
    assert path.read_text() == already


def test_no_change_refused_when_new_text_is_absent(make_engine, write, fake_fixer, observer):
    path = write("g.py", SOURCE)
    answer = Correction(search="", replace="", no_changes_required=True, explanation="trust me")
    with pytest.raises(
        NoMatch, match="new_string is not in the file where old_string most nearly is"
    ):
        make_engine(fixer=fake_fixer(answer), telemetry=observer).edit("g.py", WRONG_OLD, NEW)
    assert path.read_text() == SOURCE
    assert observer.events[-1][1].fixer.outcome == "failed_validation"


def test_correction_that_changes_nothing_is_refused_unless_new_text_is_present(
    make_engine, write, fake_fixer
):
    path = write("g.py", SOURCE)
    # The correction's replacement is already in the file, the caller's new_string is not.
    fixer = fake_fixer(corrected(search="no such text", replace="    greet('x')"))
    with pytest.raises(NoMatch, match="The LLM fixer proposed a correction, but"):
        make_engine(fixer=fixer).edit("g.py", WRONG_OLD, NEW)
    assert path.read_text() == SOURCE


def test_no_change_refused_for_a_deletion(make_engine, write, fake_fixer):
    write("g.py", SOURCE)
    answer = Correction(search="", replace="", no_changes_required=True)
    with pytest.raises(NoMatch):
        make_engine(fixer=fake_fixer(answer)).edit("g.py", WRONG_OLD, "")


def test_file_changed_while_fixer_ran_correction_checked_on_new_content(
    make_engine, write, fake_fixer
):
    path = write("g.py", SOURCE)
    changed = "# header added by the user\n" + SOURCE

    fixer = fake_fixer(corrected(), during=lambda request: path.write_text(changed))
    result = make_engine(fixer=fixer).edit("g.py", WRONG_OLD, NEW)

    assert path.read_text() == changed.replace("'hello '", "'hi '")
    assert result.corrected_by_fixer
    assert any("changed on disk while the LLM fixer ran" in note for note in result.notes)
    import hashlib

    assert result.hash_before == hashlib.sha256(changed.encode()).hexdigest()


def test_file_changed_so_the_original_edit_now_matches(make_engine, write, fake_fixer):
    path = write("g.py", SOURCE)
    changed = SOURCE + WRONG_OLD
    fixer = fake_fixer(corrected(), during=lambda request: path.write_text(changed))
    result = make_engine(fixer=fixer).edit("g.py", WRONG_OLD, "# replaced\n")
    assert path.read_text() == SOURCE + "# replaced\n"
    assert not result.corrected_by_fixer
    assert any("original edit matches the new content" in note for note in result.notes)


def test_file_changed_and_correction_no_longer_fits(make_engine, write, fake_fixer):
    path = write("g.py", SOURCE)
    rewritten = "completely different file\n"
    fixer = fake_fixer(corrected(), during=lambda request: path.write_text(rewritten))
    with pytest.raises(NoMatch, match="The LLM fixer proposed a correction, but"):
        make_engine(fixer=fixer).edit("g.py", WRONG_OLD, NEW)
    assert path.read_text() == rewritten


def test_the_lock_is_not_held_while_the_fixer_runs(make_engine, write, fake_fixer):
    path = write("g.py", SOURCE)
    other_engine = make_engine(lock_timeout=1)

    def edit_meanwhile(request):
        # Times out (WriteFailed) if the first edit still held the file's lock.
        other_engine.edit("g.py", "def main():", "def main() -> None:")

    engine = make_engine(fixer=fake_fixer(corrected(), during=edit_meanwhile))
    engine.edit("g.py", WRONG_OLD, NEW)
    text = path.read_text()
    assert "def main() -> None:" in text and "'hi '" in text


def test_one_fixer_round_only(make_engine, write, fake_fixer):
    write("g.py", SOURCE)
    fixer = fake_fixer(corrected(search="still wrong", replace="qqq = 7"), corrected())
    with pytest.raises(NoMatch):
        make_engine(fixer=fixer).edit("g.py", WRONG_OLD, NEW)
    assert len(fixer.requests) == 1


def test_dry_run_with_fixer_writes_nothing(make_engine, write, fake_fixer):
    path = write("g.py", SOURCE)
    result = make_engine(fixer=fake_fixer(corrected())).edit("g.py", WRONG_OLD, NEW, dry_run=True)
    assert path.read_text() == SOURCE
    assert (
        result.dry_run and result.corrected_by_fixer and "+    return 'hi ' + name" in result.diff
    )


def test_multi_edit_does_not_call_the_fixer(make_engine, write, fake_fixer):
    write("g.py", SOURCE)
    fixer = fake_fixer(corrected())
    with pytest.raises(Exception, match="Edit 1 of 1"):
        make_engine(fixer=fixer).multi_edit("g.py", [{"old_string": WRONG_OLD, "new_string": NEW}])
    assert fixer.requests == []


async def test_async_path_awaits_acorrect(make_engine, write, fake_fixer):
    path = write("g.py", SOURCE)
    fixer = fake_fixer(corrected())
    result = await make_engine(fixer=fixer).aedit("g.py", WRONG_OLD, NEW)
    assert fixer.async_calls == 1
    assert result.corrected_by_fixer
    assert "'hi '" in path.read_text()


async def test_async_fixer_failure_returns_original_error(make_engine, write, fake_fixer):
    path = write("g.py", SOURCE)
    with pytest.raises(NoMatch, match="could not correct it"):
        await make_engine(fixer=fake_fixer(FixerTimeout("slow"))).aedit("g.py", WRONG_OLD, NEW)
    assert path.read_text() == SOURCE


def test_fixer_with_confirm(make_engine, write, fake_fixer):
    path = write("g.py", SOURCE)
    seen = []
    engine = make_engine(fixer=fake_fixer(corrected()), confirm=lambda r: seen.append(r) or True)
    engine.edit("g.py", WRONG_OLD, NEW)
    assert len(seen) == 1 and "'hi '" in seen[0].new_text
    assert "'hi '" in path.read_text()
