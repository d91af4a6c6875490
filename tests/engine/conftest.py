"""Make ``import engine`` find the package, not this test folder.

tests/conftest.py puts ``tests/`` on sys.path (rootdir-style conftest import), where
``tests/engine`` would shadow the ``engine`` package as a namespace package, ahead of
the editable install's finder. Putting the repo root first fixes the lookup."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if sys.path[:1] != [ROOT]:
    sys.path.insert(0, ROOT)
if "engine" in sys.modules and getattr(sys.modules["engine"], "__file__", None) is None:
    del sys.modules["engine"]
