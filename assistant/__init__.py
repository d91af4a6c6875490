"""Arbiter's assistant: plain-English rules questions -> scenario -> engine verdict ->
verified citations.

    from assistant import Assistant
    a = Assistant(settings)            # index opened lazily, loaded once
    answer = a.ask("Does \"Kill a unit\" target the unit?", game="riftbound")
    done = a.explained("...", game="riftbound")   # the answer and the Frame it was decided from
"""

from assistant.answer import Answer, Citation, Passage, TraceStep
from assistant.frame import Evidence, Frame, Slot
from assistant.seams import ConversationStore, MemoryConversationStore, RuleIndexLike
from assistant.service import Assistant, Explained

__all__ = [
    "Answer",
    "Assistant",
    "Citation",
    "ConversationStore",
    "Evidence",
    "Explained",
    "Frame",
    "MemoryConversationStore",
    "Passage",
    "RuleIndexLike",
    "Slot",
    "TraceStep",
]
