"""The installed package's version (the API version and ``arbiter --version``)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def package_version() -> str:
    try:
        return version("arbiter")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"
