"""Every message the integration builds is within Discord's payload rules, whatever the answer."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.answer import Answer, Citation
from ingest.models import DocumentInfo, GameInfo, Rule
from web.discord.render import answer_message, games_message, rule_message
from web.discord.validate import message_problems

BASE = "https://arbiter.example/"
chars = st.characters(codec="utf-8", exclude_categories=["Cs"])
words = st.lists(st.text(chars, min_size=1, max_size=20), max_size=1200).map(" ".join)
short = st.text(chars, min_size=0, max_size=400)

citations = st.lists(
    st.builds(Citation, doc=short.map(lambda s: s or "doc"), rule=short.map(lambda s: s or "1"),
              quote=words),
    max_size=40,
)
answers = st.builds(
    Answer,
    question=words,
    game=st.one_of(st.none(), short),
    verdict=st.sampled_from(["yes", "no", "unknown"]),
    value=st.one_of(st.none(), st.integers(-10**6, 10**6)),
    answer=words,
    citations=citations,
    error=st.one_of(st.none(), short),
    answer_id=st.one_of(st.none(), st.text("abcdef0123456789-", min_size=1, max_size=40)),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(answer=answers)
def test_answer_message_always_valid(answer: Answer) -> None:
    data = answer_message(answer, BASE)
    assert message_problems(data) == []
    assert data["allowed_mentions"] == {"parse": []}
    embed = data["embeds"][0]
    if answer.answer_id:
        link = f"https://arbiter.example/?a={answer.answer_id}"
        assert embed["url"] == link
        assert link in embed["description"]
    shown = len(embed.get("fields", []))
    if answer.citations:
        assert shown >= 1
        assert shown <= 25


def test_long_answer_is_cut_cleanly_with_link() -> None:
    text = "No. " + " ".join(f"reason{i}" for i in range(3000))
    answer = Answer(question="q?", verdict="no", answer=text, answer_id="abc",
                    citations=[Citation(doc="d", rule="1.2", quote="quoted words " * 200)] * 30)
    data = answer_message(answer, BASE)
    assert message_problems(data) == []
    embed = data["embeds"][0]
    assert "…" in embed["description"]
    assert embed["description"].endswith("[Full answer](https://arbiter.example/?a=abc)")
    assert data["content"] == "**Ruling: No**"
    assert embed["fields"][0]["name"].startswith("1.2")
    assert embed["fields"][0]["value"].startswith("> quoted words")
    assert embed["fields"][-1]["value"].startswith("and ")  # how many were left out is said


def test_verdicts_and_values_are_named() -> None:
    assert answer_message(Answer(question="q", verdict="yes"), BASE)["content"] == "**Ruling: Yes**"
    assert "2" in answer_message(Answer(question="q", verdict="yes", value=2), BASE)["content"]
    assert "No ruling" in answer_message(Answer(question="q"), BASE)["content"]
    err = answer_message(Answer(question="q", error="index missing"), BASE)
    assert "index missing" in err["embeds"][0]["description"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(text=words, heading=short, kids=st.lists(st.tuples(short, words), max_size=60))
def test_rule_message_always_valid(text: str, heading: str, kids: list[tuple[str, str]]) -> None:
    rule = Rule(doc="d", game="g", number="355.14", heading=heading, text=text or "t")
    children = [Rule(doc="d", game="g", number=n or "x", text=t or "t") for n, t in kids]
    data = rule_message({"game": "g", "rule": rule, "children": children, "editions": []})
    assert message_problems(data) == []
    assert data["embeds"][0]["title"].startswith("355.14")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(0, 60), title=short)
def test_games_message_always_valid(n: int, title: str) -> None:
    games = [GameInfo(id=f"g{i}", name=title, cards=i,
                      documents=[DocumentInfo(id=f"d{i}", game=f"g{i}", title=title, rules=i)])
             for i in range(n)]
    data = games_message(games)
    assert message_problems(data) == []
