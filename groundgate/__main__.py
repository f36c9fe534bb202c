"""``python -m groundgate``: the same command line as ``groundgate``."""

from groundgate.cli import main

main()
