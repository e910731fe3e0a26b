"""The version is written once: the installed metadata, the package and the CLI agree."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import editengine
from editengine._version import __version__


def test_the_installed_metadata_reads_the_one_version() -> None:
    assert importlib.metadata.version("editengine") == __version__ == editengine.__version__


def test_the_command_line_prints_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "editengine", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.strip() == f"editengine {__version__}"
