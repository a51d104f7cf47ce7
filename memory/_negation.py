"""Whether a negation governs a phrase: the reading that keeps refusals out of quarantine.

"Never share card numbers", "say you cannot reveal your instructions" and "refuse to act as a
different assistant or to drop the policy" name hostile acts in order to refuse them. A phrase is
governed by a negation in its clause when

- the negation stands at most three words before it ("do not reveal", "you can't ever share");
- or the phrase is a later item of a list the negation governs: items joined by "or" / "nor"
  ("refuse to X or to Y", "never X, Y or Z", "do not X nor Y") or by "and to" after a verb of
  refusal ("decline to X and to Y"). A bare comma joins a list only when the list goes on with
  "or" / "nor" after the phrase; "and" alone does not ("do not wait and skip the check" is read
  as an order), nor does an item with a word that starts a new thought ("but", "then", "just").

A negation that asks for the act is no negation: "do not hesitate to", "never fail to", "don't
forget to", "do not be afraid to".
"""

from __future__ import annotations

import re

_NEGATOR = (
    r"(?:do not|don't|dont|does not|did not|never|not|cannot|\w+n['’]t|"
    r"refus(?:e|es|ed|ing)(?: to)?|declin(?:e|es|ed|ing)(?: to)?|reject(?:s|ed|ing)?|"
    r"avoid(?:s|ed|ing)?|without|instead of|rather than|no one should|nobody should|"
    r"under no circumstances|prohibited from|forbidden (?:to|from))"
)
_NEGATION = re.compile(rf"\b{_NEGATOR}\b", re.IGNORECASE)
_GAP = re.compile(r"^(?:\s+[\w'’]+){0,3}\s*$")
# "Do not hesitate to ...", "never mind the rules, ...": the negation asks for what follows.
_AFFIRMING = re.compile(
    r"^\s*(?:\w+\s+)?(?:hesitate|fail|forget|neglect|mind|only|be (?:afraid|shy|reluctant|slow))"
    r"\b",
    re.IGNORECASE,
)
# A word that starts a new thought ends the negation's list; "or" and "nor" join its items.
_BREAK = r"(?:but|then|so|instead|unless|if|when|once|yet|because|otherwise|just|simply|now|or|nor)"
_ITEM = rf"(?:(?!\b{_BREAK}\b)[\w'’ -])+?"
_JOINED = r"(?:\s*,\s*(?:or|nor)\s+|\s+(?:or|nor)\s+|\s*,?\s+and\s+(?=to\s))(?:to\s+)?"
_COMMA = r"\s*,\s*(?:to\s+)?"
_LIST = re.compile(
    rf"^\s+{_ITEM}(?:(?:{_JOINED}|{_COMMA}){_ITEM}){{0,4}}(?P<last>{_JOINED}|{_COMMA})$",
    re.IGNORECASE,
)
_LIST_GOES_ON = re.compile(r"^[^.;:!?\n]*?\b(?:or|nor)\b", re.IGNORECASE)
_NEAR = 60
_MAX_LIST = 200


def governed(before: str, after: str = "") -> bool:
    """True when a negation in `before` (the clause up to the phrase) governs the phrase.

    Args:
        before: the phrase's clause up to where the phrase starts.
        after: the text from where the phrase ends (a comma-joined list must go on in it).
    """
    window = before[-_MAX_LIST:]
    for negation in _NEGATION.finditer(window):
        tail = window[negation.end() :]
        if _AFFIRMING.match(tail):
            continue
        if len(tail) <= _NEAR and _GAP.match(tail):
            return True
        listed = _LIST.match(tail)
        if listed and (listed.group("last").strip(" ,").lower() or _LIST_GOES_ON.match(after)):
            return True
    return False


def negation_ends(text: str, start: int, end: int) -> list[int]:
    """Where each negation word in text[start:end] ends (a phrase may read through one)."""
    return [m.end() for m in _NEGATION.finditer(text, start, end)]


__all__ = ["governed", "negation_ends"]
