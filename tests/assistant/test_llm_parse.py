"""The optional LLM-assisted parse, behind its seam.

No LLM runs here (none is installed and nothing may reach a network): a fake
chat model stands in for any LangChain chat model, implementing the one
method the assistant uses, ``with_structured_output(schema)``. What is tested
is ours: the LLM's scenario is validated by the engine's models before the
engine sees it, the verdict still comes from the engine, and a bad LLM output
is an abstention, never a crash.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableLambda

from assistant import Assistant

GOLDEN = Path(__file__).resolve().parents[2] / "engine" / "golden"
# A question the grammar cannot parse (an unknown card), so the LLM path is taken.
QUESTION = "Can the Gloomcaller Ability enter the Trigger Queue right now?"


class FakeChatModel:
    """Seam: returns a fixed structured output and records the prompts it got."""

    def __init__(self, output: Any) -> None:
        self.output = output
        self.prompts: list[str] = []

    def with_structured_output(self, schema: Any) -> RunnableLambda:  # type: ignore[type-arg]
        def run(prompt: Any) -> Any:
            self.prompts.append(str(prompt))
            return self.output

        return RunnableLambda(run)


def _golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / name).read_text())
    return data


def test_llm_scenario_is_checked_by_the_engine(default_settings, default_index) -> None:  # type: ignore[no-untyped-def]
    golden = _golden("mw_exact_3_only_2_ceases.json")
    llm = FakeChatModel(golden["scenario"])
    answer = Assistant(default_settings, index=default_index, llm=llm).ask(
        QUESTION, game="momon-wonder"
    )
    assert llm.prompts and QUESTION in llm.prompts[0]
    assert answer.verdict == golden["expect"]["verdict"]
    assert answer.citations[0].rule == golden["expect"]["rule"]["rule"]
    assert answer.scenario is not None and answer.scenario["game"] == "momon-wonder"
    assert all(default_index.verify_quote(c.doc, c.rule, c.quote) for c in answer.citations)


def test_malformed_llm_output_is_an_abstention(default_settings, default_index) -> None:  # type: ignore[no-untyped-def]
    broken = _golden("mw_exact_3_only_2_ceases.json")["scenario"]
    broken["ability"]["effects"][0]["selection"]["count"]["mode"] = "several"
    answer = Assistant(default_settings, index=default_index, llm=FakeChatModel(broken)).ask(
        QUESTION, game="momon-wonder"
    )
    assert answer.verdict == "unknown"
    assert answer.error


def test_llm_scenario_for_another_game_is_rejected(default_settings, default_index) -> None:  # type: ignore[no-untyped-def]
    other = _golden("mc_atk0_basic_attack.json")["scenario"]  # a marvel-champions scenario
    answer = Assistant(default_settings, index=default_index, llm=FakeChatModel(other)).ask(
        QUESTION, game="momon-wonder"
    )
    assert answer.verdict == "unknown"


def test_an_llm_reading_passes_the_same_gates_as_the_grammar(default_settings, default_index) -> None:  # type: ignore[no-untyped-def]
    # The question states a condition ("unless ...") the LLM's reading cites no words for:
    # unaccounted, so the answer abstains exactly as a grammar reading would.
    golden = _golden("mw_exact_3_only_2_ceases.json")
    question = "Can the Gloomcaller Ability enter the Trigger Queue unless its text allows fewer targets?"
    bare = Assistant(default_settings, index=default_index, llm=FakeChatModel(golden["scenario"])).ask(
        question, game="momon-wonder")
    assert bare.verdict == "unknown" and "unless" in (bare.error or "")
    cited = {"scenario": golden["scenario"],
             "evidence": [{"slot": "condition: the text does not allow fewer", "words": "unless its text allows fewer targets"}]}
    answered = Assistant(default_settings, index=default_index, llm=FakeChatModel(cited)).ask(question, game="momon-wonder")
    assert answered.verdict == golden["expect"]["verdict"]


def test_an_llm_reading_citing_words_the_question_does_not_say_is_rejected(default_settings, default_index) -> None:  # type: ignore[no-untyped-def]
    golden = _golden("mw_exact_3_only_2_ceases.json")
    forged = {"scenario": golden["scenario"], "evidence": [{"slot": "count", "words": "exactly three targets"}]}
    answer = Assistant(default_settings, index=default_index, llm=FakeChatModel(forged)).ask(QUESTION, game="momon-wonder")
    assert answer.verdict == "unknown"
    assert "does not say" in (answer.error or "")
