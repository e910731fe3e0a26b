"""The public names of the fixer and provider packages (a removal breaks callers)."""

from __future__ import annotations

import editengine.fixer
import editengine.providers


def test_fixer_exports():
    assert set(editengine.fixer.__all__) >= {
        "CORRECTION_SCHEMA",
        "Correction",
        "FixRequest",
        "Fixer",
        "LLMFixer",
        "make_fixer",
    }
    for name in editengine.fixer.__all__:
        assert hasattr(editengine.fixer, name), name


def test_provider_exports():
    assert set(editengine.providers.__all__) >= {
        "AnthropicProvider",
        "CallbackProvider",
        "OpenAIProvider",
        "Provider",
        "ProviderReply",
        "ReplayProvider",
        "ScriptedProvider",
    }
    for name in editengine.providers.__all__:
        assert hasattr(editengine.providers, name), name


def test_the_core_import_does_not_load_the_sdks():
    import subprocess
    import sys

    code = (
        "import sys, editengine.fixer, editengine.providers\n"
        "print(sorted(m for m in ('openai', 'anthropic') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
