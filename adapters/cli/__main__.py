"""Allow `python -m adapters.cli`."""

from oncourse.adapters.cli import main

main()
