from editengine.cli import main

raise SystemExit(main())
