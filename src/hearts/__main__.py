from hearts.cli import main

raise SystemExit(main())
