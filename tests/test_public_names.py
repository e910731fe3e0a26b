"""Public objects name the import users write: no private module in a ``__module__``, a
repr, a base class or ``help()``, every error class importable from ``editengine``, and each
published name importable (and picklable) from the module it names."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
import pydoc
import re
from collections.abc import Iterator
from typing import Any

import pytest

import editengine
from editengine._public import is_private

PUBLIC_PACKAGES = [
    "editengine",
    "editengine.engine",
    "editengine.matching",
    "editengine.files",
    "editengine.fixer",
    "editengine.providers",
    "editengine.telemetry",
    "editengine.evaluation",
    "editengine.patch",
    "editengine.mcp_server",
    "editengine.tools",
    "editengine.diagnostics",
    "editengine.verdict",
    "editengine.reports",
    "editengine.journal",
]
PRIVATE_PATH = re.compile(r"\beditengine(\.\w+)*\._\w+")


def _exported() -> Iterator[tuple[str, str, Any]]:
    for package in PUBLIC_PACKAGES:
        if package == "editengine.mcp_server":
            pytest.importorskip("mcp")
        module = importlib.import_module(package)
        for name in module.__all__:
            yield package, name, getattr(module, name)


def test_every_public_package_is_listed() -> None:
    found = {
        info.name
        for info in pkgutil.iter_modules(editengine.__path__, "editengine.")
        if info.ispkg
        and not is_private(info.name)
        and info.name not in ("editengine.cli", "editengine.bench")
    }
    assert found <= set(PUBLIC_PACKAGES), found - set(PUBLIC_PACKAGES)


def test_no_public_object_names_a_private_module() -> None:
    leaks = []
    for package, name, value in _exported():
        owners = inspect.getmro(value) if inspect.isclass(value) else (value, type(value))
        for owner in owners:
            module = getattr(owner, "__module__", None)
            if isinstance(module, str) and module.startswith("editengine") and is_private(module):
                leaks.append(f"{package}.{name}: {owner!r} in {module}")
        if PRIVATE_PATH.search(repr(value)):
            leaks.append(f"{package}.{name}: repr {value!r}")
    assert leaks == []


def test_a_published_name_is_importable_from_the_module_it_names() -> None:
    for package, name, value in _exported():
        if inspect.isclass(value) or inspect.isfunction(value):
            home = importlib.import_module(value.__module__)
            assert getattr(home, value.__qualname__, None) is value, (package, name)


def test_errors_pickle_and_print_under_their_public_path() -> None:
    error = editengine.NoMatch("no match", hint="quote it exactly")
    assert type(pickle.loads(pickle.dumps(error))) is editengine.NoMatch
    assert repr(editengine.NoMatch) == "<class 'editengine.NoMatch'>"
    assert editengine.EditEngine.__module__ == "editengine.engine"


def test_every_error_class_is_exported_from_the_package_root() -> None:
    for info in pkgutil.walk_packages(editengine.__path__, "editengine."):
        if "mcp_server" in info.name and importlib.util.find_spec("mcp") is None:
            continue
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    stack: list[type[editengine.EditError]] = [editengine.EditError]
    missing = []
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        if getattr(editengine, cls.__name__, None) is not cls:
            missing.append(cls.__name__)
    assert missing == [], "export these from editengine (__init__ and __all__)"


def test_help_on_the_package_names_no_private_module_but_its_file_list() -> None:
    text = pydoc.render_doc(editengine, renderer=pydoc.plaintext)
    body = text.split("PACKAGE CONTENTS")[0] + text.split("CLASSES")[-1]
    assert [m.group(0) for m in PRIVATE_PATH.finditer(body)] == []


def test_type_hints_of_public_classes_still_resolve() -> None:
    """``get_type_hints`` looks names up in the module ``__module__`` names: publishing a
    class must not leave ``ClassVar`` or ``Literal`` unresolvable there."""
    import typing

    failures = []
    for package, name, value in _exported():
        if inspect.isclass(value):
            try:
                typing.get_type_hints(value)
            except Exception as error:
                failures.append(f"{package}.{name}: {type(error).__name__}: {error}")
    assert failures == []
    assert typing.get_type_hints(editengine.EditError)["code"] == typing.ClassVar[str]
