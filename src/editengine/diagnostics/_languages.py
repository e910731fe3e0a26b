"""Which language a file is written in, from its name, and the tree-sitter grammar that reads it.

The grammars are wheels installed with editengine (``tree-sitter-python``, ...): nothing is
downloaded at run time. A grammar is loaded the first time a file of its language is checked.
"""

from __future__ import annotations

import importlib
import os
import threading
from dataclasses import dataclass
from typing import Any

__all__ = ["LANGUAGES", "Language", "grammar_of", "language_of"]


@dataclass(frozen=True)
class Language:
    """A language the built-in check knows: its ``name`` (also the key of ``lsp=``), the LSP
    ``language_id``, the grammar's module and loader, and whether indentation is syntax."""

    name: str
    language_id: str
    module: str
    loader: str = "language"
    indented: bool = False


LANGUAGES: dict[str, Language] = {
    language.name: language
    for language in (
        Language("python", "python", "tree_sitter_python", indented=True),
        Language("javascript", "javascript", "tree_sitter_javascript"),
        Language("typescript", "typescript", "tree_sitter_typescript", "language_typescript"),
        Language("tsx", "typescriptreact", "tree_sitter_typescript", "language_tsx"),
        Language("go", "go", "tree_sitter_go"),
        Language("rust", "rust", "tree_sitter_rust"),
        Language("c", "c", "tree_sitter_c"),
        Language("cpp", "cpp", "tree_sitter_cpp"),
        Language("java", "java", "tree_sitter_java"),
        Language("json", "json", "tree_sitter_json"),
        Language("yaml", "yaml", "tree_sitter_yaml", indented=True),
        Language("toml", "toml", "tree_sitter_toml"),
        Language("bash", "shellscript", "tree_sitter_bash"),
        Language("make", "makefile", "tree_sitter_make", indented=True),
        Language("markdown", "markdown", "tree_sitter_markdown"),
    )
}

_SUFFIXES = {
    "python": (".py", ".pyi", ".pyw"),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"),
    "typescript": (".ts", ".mts", ".cts"),
    "tsx": (".tsx",),
    "go": (".go",),
    "rust": (".rs",),
    "c": (".c", ".h"),
    "cpp": (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp"),
    "java": (".java",),
    "json": (".json",),
    "yaml": (".yaml", ".yml"),
    "toml": (".toml",),
    "bash": (".sh", ".bash"),
    "make": (".mk", ".make"),
    "markdown": (".md", ".markdown"),
}
_BY_SUFFIX = {suffix: name for name, suffixes in _SUFFIXES.items() for suffix in suffixes}
_BY_NAME = {
    "makefile": "make",
    "gnumakefile": "make",
    ".bashrc": "bash",
    ".bash_profile": "bash",
    ".profile": "bash",
    "pipfile": "toml",
    "cargo.lock": "toml",
}


def language_of(path: str | os.PathLike[str] | None) -> Language | None:
    """The language of a file called ``path`` (only its name is read), or ``None``."""
    if path is None:
        return None
    name = os.path.basename(os.fspath(path)).lower()
    found = _BY_NAME.get(name)
    if found is None:
        _, suffix = os.path.splitext(name)
        found = _BY_SUFFIX.get(suffix)
    return LANGUAGES[found] if found else None


_loaded: dict[str, Any] = {}
_lock = threading.Lock()


def grammar_of(language: Language) -> Any:
    """The tree-sitter ``Language`` for ``language``; raises ``ImportError`` when its wheel (or
    tree-sitter itself) is not installed."""
    grammar = _loaded.get(language.name)
    if grammar is not None:
        return grammar
    with _lock:
        grammar = _loaded.get(language.name)
        if grammar is None:
            import tree_sitter

            module = importlib.import_module(language.module)
            grammar = tree_sitter.Language(getattr(module, language.loader)())
            _loaded[language.name] = grammar
    return grammar
