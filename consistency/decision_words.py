"""Decision words: what a reply decides (refuse, confirm, ask, transfer, done), by its wording.

Two replies worded differently may decide the same thing ("I can't change a basic economy
booking" and "Unfortunately that fare cannot be modified" both refuse); two replies that share
most words may decide opposite things ("I can issue the certificate" vs "I can't issue the
certificate"). Embeddings see the first kind of sameness poorly at small N and the second kind
not at all, so the analyzer compares replies on both: their meaning cluster and the set of
decisions their wording shows. The word lists are generic conversational English, not any
benchmark's vocabulary.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

DecisionWord = Literal["refuse", "confirm", "ask", "transfer", "done"]

_PATTERNS: dict[DecisionWord, re.Pattern[str]] = {
    "refuse": re.compile(
        r"\b(?:unable to|cannot|can't|can not|could not|couldn't|not able to|not possible|"
        r"not eligible|isn't eligible|ineligible|not allowed|not permitted|no record of|"
        r"won't be able|unfortunately|i'm afraid|decline|denied|not entitled|there is no|"
        r"there are no|none of (?:the|your)|did not find|didn't find|does not (?:appear|show)|"
        r"doesn't (?:appear|show)|no (?:longer )?available)\b"
    ),
    "confirm": re.compile(
        r"\b(?:would you like (?:me )?to|shall i|shall we|do you want (?:me )?to|please confirm|"
        r"(?:can|could) you (?:please )?confirm|confirm (?:that|if|whether)|"
        # "Are you ready to proceed?" asks for a go-ahead; "once you are ready to proceed, let
        # me know" defers until the user has what is missing, and confirms nothing.
        r"(?:like|want) to proceed|are you ready to proceed|should i (?:go ahead|proceed)|"
        r"i can offer|i can issue|i will proceed|i'll proceed|i will now|i'll now|"
        # "I need to confirm the details ... once you confirm, I can proceed": a go-ahead asked.
        r"i (?:need|would like|want) to confirm|once you confirm|i can proceed|"
        r"i(?: will|'ll) go ahead)\b"
    ),
    "ask": re.compile(
        r"\b(?:could you (?:please )?(?:provide|tell|share|specify|give|let me know|check)|"
        r"can you (?:please )?(?:provide|tell|share|specify|give)|please (?:provide|share|"
        r"specify|let me know (?:which|what|the|your))|may i have|what is your|which (?:one|of))\b"
        # A question that asks the user to choose or name something ("Which line should get
        # roaming?"); "What can I do for you?" is a greeting, not a question about the task.
        r"|(?:^|[.!?:]\s+)(?:which|what)\b(?! can i\b)[^.!?]*\?"
    ),
    "transfer": re.compile(
        r"\b(?:transfer(?:ring|red)? you|human agent|live agent|a representative|escalat\w*|"
        r"hand (?:you )?over)\b"
    ),
    "done": re.compile(
        r"\b(?:has been|have been|was successfully|successfully|i have (?:issued|updated|"
        r"cancell?ed|booked|processed|sent|added|made|changed|refunded|applied|removed))\b"
    ),
}


@lru_cache(maxsize=65536)
def decision_words(text: str) -> frozenset[DecisionWord]:
    """The decisions a reply's wording shows (empty for a reply that only informs)."""
    lowered = text.lower().replace("’", "'")
    return frozenset(word for word, pattern in _PATTERNS.items() if pattern.search(lowered))


PRIORITY: tuple[DecisionWord, ...] = ("refuse", "transfer", "done", "confirm", "ask")
"""The order in which one word stands for a reply that shows several."""


def main_decision(text: str) -> str:
    """The one decision a reply stands for (`PRIORITY` order), or `inform`."""
    words = decision_words(text)
    return next((word for word in PRIORITY if word in words), "inform")


__all__ = ["PRIORITY", "DecisionWord", "decision_words", "main_decision"]
