"""The handle the cluster tests get: the two processes' URLs and what they share."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from subprocess import Popen

from nacl.signing import SigningKey


@dataclass
class Cluster:
    urls: list[str]
    processes: list[Popen[bytes]]
    env: dict[str, str]
    signing_key: SigningKey
    _addresses: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def client_ip(self) -> str:
        """A fresh client address, forwarded by the trusted proxy (127.0.0.1): each caller
        gets its own rate-limit bucket unless it reuses one on purpose."""
        n = next(self._addresses)
        return f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"
