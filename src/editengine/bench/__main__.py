"""``python -m editengine.bench``: the speed figures of ``editengine bench``."""

from editengine.bench.speed import main

raise SystemExit(main())
