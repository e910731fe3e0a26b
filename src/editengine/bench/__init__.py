"""Benchmarks: each module prints figures and is run with ``python -m``; none is a test.

=================================================  ===========================================
``python -m editengine.bench`` (``editengine bench``)  per-edit speed on generated and real code
``python -m editengine.bench.pathological``       inputs that make a naive matcher quadratic
``python -m editengine.bench.patch``              a 20-file, 100-hunk patch in each format
``python -m editengine.bench.journal``            what the undo journal costs per write
``python -m editengine.bench.telemetry [EVENTS]``  the report over many synthetic events
``python -m editengine.bench.fixer``              the fixer's prompt budget, deadline and guard
=================================================  ===========================================

The figures and what they mean: ``docs/performance.md``.
"""

__all__: list[str] = []  # the modules are run, not imported from here
