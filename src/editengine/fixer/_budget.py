"""How large a fixer prompt may be: a budget in bytes and in estimated tokens, per model.

Lines are a poor measure of size: a 310-line file of minified code can weigh 1.2 MB, about
300k tokens, more than the context of the models the fixer defaults to. So the prompt is
held to the smaller of two limits:

- ``max_bytes``: UTF-8 bytes of the system and user prompts together;
- a token limit: ``max_tokens`` if given, else ``context_share`` of the model's context
  window (:data:`MODEL_CONTEXT_TOKENS`) less the tokens kept for the answer, turned into
  bytes with ``bytes_per_token``.

Tokens are estimated, not counted (no tokenizer is bundled): ``bytes / bytes_per_token``,
rounded up. Three bytes per token is on the safe side for code and prose in any script
(English code averages nearer four; CJK text about three).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from editengine._errors import BadRequest

# Context windows in tokens, matched by model-name prefix (longest prefix first).
MODEL_CONTEXT_TOKENS: dict[str, int] = {
    "gpt-4.1": 1_047_576,
    "gpt-4o": 128_000,
    "gpt-4-turbo": 128_000,
    "gpt-4": 8_192,
    "gpt-3.5-turbo": 16_385,
    "gpt-5": 400_000,
    "o1": 200_000,
    "o3": 200_000,
    "o4-mini": 200_000,
    "claude": 200_000,
}
# Below this no prompt fits: the fixer's instructions and the edit's frame take ~3.5 KB.
MIN_PROMPT_BYTES = 8_000
# A model not in the table is assumed to have a modest window.
DEFAULT_CONTEXT_TOKENS = 128_000


def context_tokens(model: str | None) -> int:
    """The context window of ``model`` in tokens (by name prefix), or the default."""
    name = (model or "").lower()
    for prefix in sorted(MODEL_CONTEXT_TOKENS, key=len, reverse=True):
        if name.startswith(prefix):
            return MODEL_CONTEXT_TOKENS[prefix]
    return DEFAULT_CONTEXT_TOKENS


@dataclass(frozen=True)
class PromptBudget:
    """The most a fixer prompt may weigh; see the module docstring."""

    max_bytes: int = 80_000
    max_tokens: int | None = None
    bytes_per_token: float = 3.0
    context_share: float = 0.5

    def __post_init__(self) -> None:
        if self.max_bytes < MIN_PROMPT_BYTES:
            raise BadRequest(
                f"PromptBudget: max_bytes must be at least {MIN_PROMPT_BYTES:,} "
                f"(got {self.max_bytes:,}): the fixer's instructions alone take about 3.5 KB."
            )
        if self.max_tokens is not None and self.max_tokens < 500:
            raise BadRequest(
                f"PromptBudget: max_tokens must be at least 500 (got {self.max_tokens})."
            )
        if not self.bytes_per_token > 0:
            raise BadRequest(
                f"PromptBudget: bytes_per_token must be positive (got {self.bytes_per_token})."
            )
        if not 0 < self.context_share <= 1:
            raise BadRequest(
                f"PromptBudget: context_share must be in (0, 1] (got {self.context_share})."
            )

    def token_limit(self, model: str | None, output_tokens: int = 0) -> int:
        """Estimated prompt tokens allowed for ``model`` when ``output_tokens`` are kept free."""
        if self.max_tokens is not None:
            return self.max_tokens
        window = context_tokens(model)
        return max(500, int(window * self.context_share) - max(0, output_tokens))

    def limit_bytes(self, model: str | None, output_tokens: int = 0) -> int:
        """The prompt's byte limit for ``model``: the tighter of the two limits."""
        by_tokens = int(self.token_limit(model, output_tokens) * self.bytes_per_token)
        # No prompt fits below the floor: a model that small gets the floor and its answer.
        return max(MIN_PROMPT_BYTES, min(self.max_bytes, by_tokens))

    def estimate_tokens(self, size_bytes: int) -> int:
        return math.ceil(size_bytes / self.bytes_per_token)
