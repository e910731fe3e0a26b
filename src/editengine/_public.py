"""Public names say where users import them from, not which private module holds them.

Each package's ``__init__`` ends with ``publish(globals())``: every class and function it
exports that is defined in one of its private modules (``editengine.engine._core``) gets the
package as its ``__module__`` (``editengine.engine``), so reprs, tracebacks, ``help()`` and
pickles name the import users write. A package's ``__init__`` finishes before its parent's,
so a name exported at several levels keeps the deepest package that holds it. A private
base class of an exported class (``EngineCore`` under ``EditEngine``) takes the package's
name too: ``help()`` and the method resolution order then read the public path throughout.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any


def is_private(module: str) -> bool:
    """``editengine._errors`` and ``editengine.engine._core`` are; ``editengine.patch`` is not."""
    return any(part.startswith("_") for part in module.split("."))


def publish(namespace: Mapping[str, Any]) -> None:
    """Set ``__module__`` of the package's exported names defined below it in private modules."""
    package = namespace["__name__"]
    for name in namespace["__all__"]:
        value = namespace[name]
        if not (inspect.isclass(value) or inspect.isfunction(value)):
            continue  # constants and instances show their class's module, published in turn
        if value.__name__ != name:
            continue  # an alias: its own name is published where it is defined
        for item in inspect.getmro(value) if inspect.isclass(value) else (value,):
            module = getattr(item, "__module__", "") or ""
            if module.startswith(package + ".") and is_private(module):
                item.__module__ = package
