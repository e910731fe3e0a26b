"""Reports: what the telemetry report and the evaluation look like, in a terminal and on a page.

Rendering only; the figures come from :mod:`editengine.telemetry` (read, aggregate,
recommend, compare) and :mod:`editengine.evaluation` (runs and tallies), which never import
this package. The parts, each in its own module:

- :mod:`._render` — the telemetry report as terminal tables, laid out by :mod:`._grid` to fit
  the terminal, figures worded by :mod:`._formatting`;
- :mod:`._html` — the telemetry report as one self-contained page (optional extra ``html``),
  its charts in :mod:`._figures`, headline trends in :mod:`._trend`, similarity groups in
  :mod:`._similarity`;
- :mod:`._html_vs` — two reports compared on one page (``report --vs --html``);
- :mod:`._evaluation_html` — an evaluation run as a page (``editengine eval --html``);
- :mod:`._page` and :mod:`._palette` — the frame every page shares and one colour per name.
"""

from __future__ import annotations

from editengine._public import publish
from editengine.reports._html import render_html
from editengine.reports._html_vs import render_comparison_html

__all__ = ["render_comparison_html", "render_html"]


publish(globals())  # public names show this package, not their private module
