"""Clean cutting and the Discord payload validator."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from web.discord.limits import ELLIPSIS, measure, truncate
from web.discord.validate import message_problems, response_problems

words = st.lists(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1,
                         max_size=25), max_size=400).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(text=words, limit=st.integers(min_value=2, max_value=2500), suffix=st.sampled_from(["", " [link](https://x.example/?a=1)"]))
def test_truncate_fits_and_keeps_a_prefix(text: str, limit: int, suffix: str) -> None:
    out = truncate(text, limit, suffix)
    assert measure(out) <= limit
    if measure(text) + measure(suffix) <= limit:
        assert out == text + suffix
        return
    if measure(ELLIPSIS + suffix) >= limit:  # no room for the suffix: it is dropped
        assert out == truncate(text, limit)
        return
    body = out[: len(out) - len(suffix)] if suffix and out.endswith(suffix) else out
    assert body.endswith(ELLIPSIS)
    assert text.startswith(body[: -len(ELLIPSIS)])


def test_truncate_cuts_on_a_word_boundary() -> None:
    text = " ".join(f"word{i}" for i in range(1000))
    out = truncate(text, 100)
    kept = out.removesuffix(ELLIPSIS)
    assert measure(out) <= 100
    assert kept.split(" ")[-1] in text.split(" ")  # the last word kept is whole


def test_measure_counts_astral_characters_twice() -> None:
    assert measure("a😀") == 3
    assert measure(truncate("😀" * 3000, 2000)) <= 2000


def test_validator_catches_each_rule() -> None:
    ok = {"content": "x", "embeds": [{"title": "t", "fields": [{"name": "n", "value": "v"}]}]}
    assert message_problems(ok) == []
    assert message_problems({"content": "x" * 2001})
    assert message_problems({"embeds": [{"title": "t" * 257}]})
    assert message_problems({"embeds": [{"description": "d" * 4097}]})
    assert message_problems({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]})
    assert message_problems({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]})
    assert message_problems({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]})
    assert message_problems({"embeds": [{"fields": [{"name": "", "value": "v"}]}]})
    assert message_problems({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]})
    assert message_problems({"content": "x", "flags": 1 << 1})
    assert message_problems({"content": "x", "flags": 64}, edit=True)
    assert message_problems({})
    assert response_problems({"type": 5, "data": {"flags": 4}})
    assert response_problems({"type": 4})
    assert response_problems({"type": 9, "data": {}})
    assert response_problems({"type": 4, "data": {"content": "x", "flags": 64}}) == []
