"""The package's version: written here once, read by the build (``[tool.hatch.version]``)
and by ``editengine.__version__``."""

__version__ = "0.2.0"
