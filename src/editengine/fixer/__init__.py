"""The LLM fixer: when no cascade tier can place an edit, ask a model to correct it.

:class:`LLMFixer` implements the :class:`Fixer` protocol on any
:class:`~editengine.providers.Provider`; :func:`make_fixer` builds one on OpenAI or
Anthropic. The engine validates every :class:`Correction` before writing.
"""

from editengine._public import publish
from editengine.fixer._budget import PromptBudget
from editengine.fixer._cache import CorrectionCache, correction_key
from editengine.fixer._deadline import Backoff
from editengine.fixer._factory import PROVIDER_NAMES, make_fixer, make_provider
from editengine.fixer._llm import LLMFixer
from editengine.fixer._prompt import Prompt, PromptBuilder
from editengine.fixer._protocol import Correction, Fixer, FixRequest
from editengine.fixer._schema import CORRECTION_SCHEMA, ProposedCorrection, parse_correction
from editengine.fixer._window import LineSpan, WindowPolicy

__all__ = [
    "CORRECTION_SCHEMA",
    "PROVIDER_NAMES",
    "Backoff",
    "Correction",
    "CorrectionCache",
    "FixRequest",
    "Fixer",
    "LLMFixer",
    "LineSpan",
    "Prompt",
    "PromptBudget",
    "PromptBuilder",
    "ProposedCorrection",
    "WindowPolicy",
    "correction_key",
    "make_fixer",
    "make_provider",
    "parse_correction",
]


publish(globals())  # public names show this package, not their private module
