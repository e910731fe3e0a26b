"""The public API is curated: every exported name exists, nothing private leaks, SDKs stay lazy."""

from __future__ import annotations

import subprocess
import sys

import editengine

EXPECTED = {
    "DEFAULT_CASCADE", "AmbiguousMatch", "AnthropicProvider", "BadRequest", "BinaryFile",
    "CallbackProvider", "Cascade", "ConfirmRequest", "Correction", "CountMismatch", "Decision",
    "EditEngine", "EditError", "EditRejected", "EditResult", "EditSpec", "FileError",
    "FileNotFound", "FileTooLarge", "FixRequest", "Fixer", "FixerError", "FixerTimeout",
    "InvalidCorrection", "JsonlSink", "LLMFixer", "Match", "MatchError", "MemorySink",
    "MultiEditFailed", "NoMatch", "NotAFile", "OpenAIProvider", "PathOutsideWorkspace",
    "Provider", "ProviderConfigError", "ProviderError", "ProviderReply", "ReadTracker", "Region",
    "RelatednessGuard", "ReplayProvider", "ScriptedProvider", "StaleFile", "Telemetry",
    "TextEdit", "Tier", "TierAttempt", "UnmatchedElision", "UnsupportedEncoding", "WriteFailed",
    "__version__", "default_tiers", "edit_text", "make_fixer",
}  # fmt: skip
EXPECTED |= {"Journal", "JournalCorrupt", "JournalError", "NothingToUndo", "UndoResult"}
EXPECTED |= {"OverwriteRequired"}
EXPECTED |= {"PatchError", "PatchFailed", "PatchResult", "apply_patch"}
EXPECTED |= {"EngineCommandFailed", "EvaluationError", "InvalidDataset", "PromptTooLarge"}
EXPECTED |= {"TooManyPlaces"}
EXPECTED |= {"Diagnostic", "SyntaxBroken"}


def test_exported_names_are_exactly_the_curated_set():
    assert set(editengine.__all__) == EXPECTED
    for name in editengine.__all__:
        assert getattr(editengine, name) is not None


def test_every_error_has_a_distinct_stable_code():
    errors = [
        getattr(editengine, name)
        for name in editengine.__all__
        if isinstance(getattr(editengine, name), type)
        and issubclass(getattr(editengine, name), editengine.EditError)
    ]
    # A refinement that keeps its parent's code (TooManyPlaces is an AmbiguousMatch) adds none.
    codes = [error.code for error in errors if "code" in vars(error)]
    assert len(codes) == len(set(codes))
    assert editengine.NoMatch.code == "no_match" and editengine.AmbiguousMatch.code == "ambiguous"


def test_importing_the_package_loads_no_llm_sdk():
    code = "import sys, editengine; print('openai' in sys.modules, 'anthropic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_docstring_examples_run():
    import doctest

    # edit_text's examples: it is published under the package root, so doctest finds it there.
    failures, tried = doctest.testmod(editengine)
    assert tried >= 1 and failures == 0
