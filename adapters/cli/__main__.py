"""Allow `python -m adapters.cli`."""

from adapters.cli import main

main()
