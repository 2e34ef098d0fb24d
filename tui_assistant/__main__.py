"""`python -m tui_assistant` is the same as the `tui-assistant` console script."""

from tui_assistant.cli import main

raise SystemExit(main())
