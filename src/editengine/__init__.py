"""editengine: a self-correcting search/replace edit engine for AI coding agents.

``edit_text`` edits a string (pure, no I/O); ``EditEngine`` edits files in a workspace,
atomically and safely, with an optional LLM fixer; ``editengine.telemetry`` records what
happened and ``editengine.evaluation`` measures it.
"""

from __future__ import annotations

from editengine._edits import ConfirmRequest, Decision, EditSpec
from editengine._errors import (
    AmbiguousMatch,
    BadRequest,
    BinaryFile,
    CountMismatch,
    EditError,
    EditRejected,
    FileError,
    FileNotFound,
    FileTooLarge,
    FixerError,
    FixerTimeout,
    InvalidCorrection,
    JournalCorrupt,
    JournalError,
    MatchError,
    MultiEditFailed,
    NoMatch,
    NotAFile,
    NothingToUndo,
    OverwriteRequired,
    PatchError,
    PatchFailed,
    PathOutsideWorkspace,
    ProviderConfigError,
    ProviderError,
    StaleFile,
    SyntaxBroken,
    UnmatchedElision,
    UnsupportedEncoding,
    WriteFailed,
)
from editengine._public import publish
from editengine._read_tracker import ReadTracker
from editengine._results import Diagnostic, EditResult, Region, TextEdit, TierAttempt
from editengine._version import __version__
from editengine.engine import EditEngine, RelatednessGuard
from editengine.fixer import Correction, Fixer, FixRequest, LLMFixer, make_fixer
from editengine.journal import Journal, UndoResult
from editengine.matching import Match, Tier, default_tiers
from editengine.matching._cascade import DEFAULT_CASCADE, Cascade, edit_text
from editengine.patch import PatchResult, apply_patch
from editengine.providers import (
    AnthropicProvider,
    CallbackProvider,
    OpenAIProvider,
    Provider,
    ProviderReply,
    ReplayProvider,
    ScriptedProvider,
)
from editengine.telemetry import JsonlSink, MemorySink, Telemetry

__all__ = [
    "DEFAULT_CASCADE",
    "AmbiguousMatch",
    "AnthropicProvider",
    "BadRequest",
    "BinaryFile",
    "CallbackProvider",
    "Cascade",
    "ConfirmRequest",
    "Correction",
    "CountMismatch",
    "Decision",
    "EditEngine",
    "EditError",
    "EditRejected",
    "EditResult",
    "EditSpec",
    "FileError",
    "FileNotFound",
    "FileTooLarge",
    "FixRequest",
    "Fixer",
    "FixerError",
    "FixerTimeout",
    "InvalidCorrection",
    "JsonlSink",
    "LLMFixer",
    "Match",
    "MatchError",
    "MemorySink",
    "MultiEditFailed",
    "NoMatch",
    "NotAFile",
    "OpenAIProvider",
    "PatchError",
    "PatchFailed",
    "PatchResult",
    "PathOutsideWorkspace",
    "Provider",
    "ProviderConfigError",
    "ProviderError",
    "ProviderReply",
    "ReadTracker",
    "Region",
    "RelatednessGuard",
    "ReplayProvider",
    "ScriptedProvider",
    "StaleFile",
    "Telemetry",
    "TextEdit",
    "Tier",
    "TierAttempt",
    "UnmatchedElision",
    "UnsupportedEncoding",
    "WriteFailed",
    "__version__",
    "apply_patch",
    "default_tiers",
    "edit_text",
    "make_fixer",
]
__all__ += ["Journal", "JournalCorrupt", "JournalError", "NothingToUndo", "UndoResult"]

from editengine._errors import (  # noqa: E402  # appended to the list above
    EngineCommandFailed,
    EvaluationError,
    InvalidDataset,
    PromptTooLarge,
)
from editengine.matching._base import TooManyPlaces  # noqa: E402  # appended to the list above

__all__ += ["EngineCommandFailed", "EvaluationError", "InvalidDataset", "PromptTooLarge"]
__all__ += ["TooManyPlaces"]
__all__ += ["Diagnostic", "SyntaxBroken"]
__all__ += ["OverwriteRequired"]


publish(globals())  # public names show this package, not their private module
