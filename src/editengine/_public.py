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
import sys
from collections.abc import Mapping
from typing import Any


def is_private(module: str) -> bool:
    """``editengine._errors`` and ``editengine.engine._core`` are; ``editengine.patch`` is not."""
    return any(part.startswith("_") for part in module.split("."))


def publish(namespace: Mapping[str, Any], *, also: tuple[str, ...] = ()) -> None:
    """Set ``__module__`` of the package's exported names defined below it in private modules.

    ``also`` names private modules outside the package whose exported names it holds (a
    public module whose private parts sit beside it rather than below it).
    """
    package = namespace["__name__"]
    for name in namespace["__all__"]:
        if name not in namespace:
            continue  # served by the module's __getattr__ from another package, published there
        value = namespace[name]
        if not (inspect.isclass(value) or inspect.isfunction(value)):
            continue  # constants and instances show their class's module, published in turn
        if value.__name__ != name:
            continue  # an alias: its own name is published where it is defined
        for item in inspect.getmro(value) if inspect.isclass(value) else (value,):
            module = getattr(item, "__module__", "") or ""
            if (module.startswith(package + ".") or module in also) and is_private(module):
                if inspect.isclass(item):
                    _resolve_annotations(item, module)
                item.__module__ = package


def _resolve_annotations(cls: type, module: str) -> None:
    """Evaluate ``cls``'s own string annotations where it was defined, while its module
    still says where: ``typing.get_type_hints`` (and pydantic, and dataclass tools) look
    names up in the module ``__module__`` names, which does not hold ``ClassVar`` or
    ``Literal``. An annotation naming what only a type checker imports stays a string."""
    annotations = inspect.get_annotations(cls)  # its own, as written: strings
    if not annotations:
        return
    namespace = vars(sys.modules[module])
    for name, annotation in annotations.items():
        if isinstance(annotation, str):
            try:
                annotations[name] = eval(annotation, namespace, dict(vars(cls)))
            except Exception:  # a name only a type checker sees: left as written
                continue
    cls.__annotations__ = annotations
