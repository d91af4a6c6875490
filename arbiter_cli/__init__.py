"""The arbiter command line (see arbiter_cli.main)."""
