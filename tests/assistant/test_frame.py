"""The typed frame: evidence spans index the question as read. Pure units."""

from __future__ import annotations

from assistant.frame import frame_of, locate


def test_evidence_is_located_in_the_question_it_came_from() -> None:
    q = 'is "kill a unit" targeting the unit?'
    ev = locate(q, '"kill a unit"')
    assert ev.stated and q[ev.start:ev.end] == '"kill a unit"'  # type: ignore[misc]
    ev = locate(q, "Kill")
    assert ev.stated and q[ev.start:ev.end].lower() == "kill"  # type: ignore[misc]


def test_words_the_question_never_says_are_unstated() -> None:
    ev = locate("can i add a target?", "known example Alpha Strike")
    assert not ev.stated and ev.start is None and ev.end is None


def test_a_frame_lists_its_unstated_slots() -> None:
    f = frame_of("grammar", "riftbound", "is_target", "grammar: targeted", "is it targeted?",
                 [("question kind=is_target", "targeted"), ("targets chosen=2", "default")], False, ())
    assert [s.name for s in f.unstated] == ["targets chosen=2"]
    assert f.slots[0].evidence.start == 6
