"""Two `arbiter serve` processes sharing one PostgreSQL and one Chroma server behave as
one service: state written through either is seen through the other, limits and Discord
de-duplication hold across them, and killing one with -9 loses no acknowledged write.

Run alone with `pytest -m cluster`; `make test` runs it with everything else.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from cluster_support import Cluster

from ingest.settings import REPO_ROOT

pytestmark = pytest.mark.cluster

OPENING = ("Alpha Strike with my unit at 4 Might, four enemy targets chosen; my unit drops to "
           "2 Might. How many targets must I drop?")
FOLLOW_UP = "What if it dropped to 1 Might instead?"
QUESTIONS = [
    OPENING,
    "Can I choose a unit at a battlefield I don't control as the target of a spell?",
    "Can an attack with 0 ATK target a minion?",
]


def _post(cluster: Cluster, which: int, path: str, body: dict[str, object],
          ip: str | None = None) -> httpx.Response:
    headers = {"X-Forwarded-For": ip or cluster.client_ip()}
    return httpx.post(cluster.urls[which] + path, json=body, headers=headers, timeout=60)


def _get(cluster: Cluster, which: int, path: str) -> httpx.Response:
    return httpx.get(cluster.urls[which] + path, headers={"X-Forwarded-For": cluster.client_ip()},
                     timeout=60)


def _export(cluster: Cluster) -> dict[str, dict[str, Any]]:
    """`arbiter feedback export` against the shared database (a process of its own)."""
    done = subprocess.run(
        [sys.executable, "-m", "arbiter_cli", "feedback", "export"],
        env=cluster.env, cwd=REPO_ROOT, capture_output=True, text=True, check=False, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return {row["answer_id"]: row for row in map(json.loads, done.stdout.splitlines())}


def test_conversation_started_on_one_process_continues_on_the_other(cluster: Cluster) -> None:
    opening = _post(cluster, 0, "/v1/ask", {"question": OPENING}).json()
    assert opening["value"] == 2
    follow = _post(cluster, 1, "/v1/ask",
                   {"question": FOLLOW_UP, "conversation_id": opening["conversation_id"]}).json()
    assert follow["conversation_id"] == opening["conversation_id"]
    assert follow["value"] == 3  # only answerable with the opening's scenario, kept by process A
    stored = _get(cluster, 1, f"/v1/answers/{opening['answer_id']}")
    assert stored.status_code == 200 and stored.json()["question"] == OPENING


def test_feedback_written_through_one_is_exported_through_the_other(cluster: Cluster) -> None:
    answer = _post(cluster, 0, "/v1/ask", {"question": QUESTIONS[1]}).json()
    rated = _post(cluster, 0, "/v1/feedback",
                  {"answer_id": answer["answer_id"], "helpful": False, "comment": "via A"})
    assert rated.status_code == 200
    # B knows the answer too, and takes feedback on it.
    assert _post(cluster, 1, "/v1/feedback", {"answer_id": answer["answer_id"], "helpful": True,
                                              "comment": "via B"}).status_code == 200
    row = _export(cluster)[answer["answer_id"]]
    assert [(f["helpful"], f["comment"]) for f in row["feedback"]] == [
        (False, "via A"), (True, "via B")
    ]


def test_rate_limit_hit_through_one_holds_on_the_other(cluster: Cluster) -> None:
    ip = cluster.client_ip()  # one client; the limit is 1 per minute
    assert httpx.get(f"{cluster.urls[0]}/v1/games", headers={"X-Forwarded-For": ip}).status_code == 200
    assert httpx.get(f"{cluster.urls[0]}/v1/games", headers={"X-Forwarded-For": ip}).status_code == 429
    limited = httpx.get(f"{cluster.urls[1]}/v1/games", headers={"X-Forwarded-For": ip})
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    other = httpx.get(f"{cluster.urls[1]}/v1/games", headers={"X-Forwarded-For": cluster.client_ip()})
    assert other.status_code == 200


def test_replayed_discord_interaction_sent_to_the_second_is_refused(cluster: Cluster) -> None:
    body = json.dumps({
        "id": "1300000000000000001", "application_id": "123456", "type": 2, "token": "tok",
        "version": 1, "guild_id": "g1",
        "member": {"user": {"id": "u1", "username": "judge"}, "permissions": "0"},
        "data": {"id": "1", "name": "games", "type": 1, "options": []},
    }).encode()
    timestamp = str(int(time.time()))
    headers = {
        "X-Signature-Ed25519": cluster.signing_key.sign(timestamp.encode() + body).signature.hex(),
        "X-Signature-Timestamp": timestamp,
        "Content-Type": "application/json",
    }
    first = httpx.post(f"{cluster.urls[0]}/discord/interactions", content=body, headers=headers)
    assert first.status_code == 200 and first.json()["type"] == 4
    replay = httpx.post(f"{cluster.urls[1]}/discord/interactions", content=body, headers=headers)
    assert replay.status_code == 409 and "already received" in replay.json()["error"]


@dataclass
class Burst:
    answers: dict[str, str] = field(default_factory=dict)  # acknowledged: answer id -> question
    feedback: dict[str, str] = field(default_factory=dict)  # acknowledged: answer id -> comment
    acked_on_a: int = 0
    failed_on_a: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Condition = field(default_factory=threading.Condition)


def test_process_killed_with_9_mid_burst_loses_no_acknowledged_write(cluster: Cluster) -> None:
    burst = Burst()
    kill_after = 6  # acknowledged writes through A before it is killed

    def worker(which: int, number: int) -> None:
        for i in range(15):
            question = f"{QUESTIONS[(number + i) % len(QUESTIONS)]} (burst {which}.{number}.{i})"
            try:
                reply = _post(cluster, which, "/v1/ask", {"question": question})
                assert reply.status_code == 200, reply.text
                answer_id = reply.json()["answer_id"]
                with burst.lock:
                    burst.answers[answer_id] = question
                    burst.acked_on_a += which == 0
                    burst.lock.notify_all()
                comment = f"burst feedback {which}.{number}.{i}"
                rated = _post(cluster, which, "/v1/feedback",
                              {"answer_id": answer_id, "helpful": i % 2 == 0, "comment": comment})
                assert rated.status_code == 200, rated.text
                with burst.lock:
                    burst.feedback[answer_id] = comment
                    burst.acked_on_a += which == 0
                    burst.lock.notify_all()
            except httpx.TransportError as exc:
                with burst.lock:
                    if which == 0:
                        burst.failed_on_a += 1
                    else:
                        burst.errors.append(f"process B failed: {exc!r}")
            except AssertionError as exc:
                with burst.lock:
                    burst.errors.append(str(exc))

    threads = [threading.Thread(target=worker, args=(which, n)) for which in (0, 1) for n in (0, 1)]
    for t in threads:
        t.start()
    with burst.lock:
        reached = burst.lock.wait_for(lambda: burst.acked_on_a >= kill_after, timeout=300)
    assert reached, "process A acknowledged too few writes"
    os.kill(cluster.processes[0].pid, signal.SIGKILL)
    for t in threads:
        t.join()
    assert cluster.processes[0].wait(timeout=30) == -signal.SIGKILL
    assert burst.errors == []
    assert burst.failed_on_a > 0, "A was not killed mid-burst"

    for answer_id, question in burst.answers.items():
        stored = _get(cluster, 1, f"/v1/answers/{answer_id}")
        assert stored.status_code == 200 and stored.json()["question"] == question
    exported = _export(cluster)
    for answer_id, comment in burst.feedback.items():
        assert comment in [f["comment"] for f in exported[answer_id]["feedback"]]
