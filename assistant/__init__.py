"""Arbiter's assistant: plain-English rules questions -> scenario -> engine verdict ->
verified citations.

    from assistant import Assistant
    a = Assistant(settings)            # index opened lazily, loaded once
    answer = a.ask("Does \"Kill a unit\" target the unit?", game="riftbound")
"""

from assistant.answer import Answer, Citation, Passage, TraceStep
from assistant.seams import ConversationStore, MemoryConversationStore, RuleIndexLike
from assistant.service import Assistant

__all__ = [
    "Answer",
    "Assistant",
    "Citation",
    "ConversationStore",
    "MemoryConversationStore",
    "Passage",
    "RuleIndexLike",
    "TraceStep",
]
