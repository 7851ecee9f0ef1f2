"""The `judge` commands, one module per family; `judge/cli.py` registers them."""
