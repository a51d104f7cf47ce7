"""The agent's and the user's words in a run: stated reasons, the request, values turned to roles.

Used by `consistency.lessons` to say why a branch passed: the sentences in which the passing run
gives a reason or a verdict ("since your membership is regular, I'm unable to ..."), with names,
ids, amounts and dates replaced by roles, and the request the user made, in the third person.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from oncourse.consistency._roles import leaves, parse_observation, third_person
from oncourse.consistency.forks import NO_STEP
from oncourse.consistency.trajectory import RESPOND_TOOL, Action, Step, Trajectory

Move = Literal["refuse", "transfer", "ask", "act", "reply", "stop"]

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_REASON = re.compile(
    r"\b(since|because|due to|as a result|therefore|so that|which makes|eligible|not eligible|"
    r"cannot|can't|can not|unable|not able|not possible|can be|allowed|not allowed|only|"
    r"according to|listed as|shows?|is not|isn't|aren't|are not|no record)\b",
    re.IGNORECASE,
)
_REFUSE = re.compile(
    r"\b(cannot|can't|can not|unable|not able|not possible|not eligible|no record|"
    r"not allowed|won't be able)\b",
    re.IGNORECASE,
)
_CONNECTIVE = re.compile(
    r"^(unfortunately|however|so|therefore|thus|this|that|as a result)\b", re.I
)
_TRANSFER = re.compile(
    r"\btransfer (you|the user|this|your (call|case|request))\b|\bhuman agent|"
    r"\b(speak|talk) (to|with) (a|an|another) (human|person|agent|representative|specialist)",
    re.IGNORECASE,
)
_BOOLEAN = {"yes", "no", "true", "false"}
_STOP = set(
    "a an the i i'm i've i'd me my we our you your to of and or in on for with at by from is are "
    "was were be been am it its this that there here have has had do does did can could would will "
    "please hi hello hey thanks thank just so some any all about as if but not".split()
)
_ASK = re.compile(
    r"^(can|could|would|will) you (please )?(help me( to| with)?|assist me( with)?|please )?",
    re.IGNORECASE,
)
_SECOND_PERSON = [
    (re.compile(r"\byou are\b|\byou're\b", re.IGNORECASE), "the user is"),
    (re.compile(r"\byou have\b|\byou've\b", re.IGNORECASE), "the user has"),
    (re.compile(r"\byour\b", re.IGNORECASE), "the user's"),
    (re.compile(r"\byou\b", re.IGNORECASE), "the user"),
]


def mentions(text: str, word: str) -> bool:
    """Whether `text` names `word` as a whole word (underscores read as spaces)."""
    spaced = word.replace("_", " ")
    return bool(re.search(rf"(?<![\w-]){re.escape(spaced)}(?![\w-])", text, re.IGNORECASE))


def agent_texts(step: Step) -> list[str]:
    """The agent's own words at a step: its reply, its reasoning, a note it wrote."""
    out = [step.thought or ""]
    if step.action.tool == RESPOND_TOOL:
        out.append(str(step.action.args.get("text") or step.action.args.get("content") or ""))
    else:
        out.extend(v for v in step.action.args.values() if isinstance(v, str) and len(v) > 40)
    return [t for t in out if t]


def reason_sentences(run: Trajectory, start: int, end: int) -> list[str]:
    """Sentences of the agent in steps [start, end] that give a reason or a verdict."""
    out: list[str] = []
    for step in run.steps[max(0, start) : end + 1]:
        for text in agent_texts(step):
            previous = ""
            for sentence in _SENTENCE.split(text.replace("**", "")):
                sentence = sentence.strip(" -*\t")
                if 4 <= len(sentence.split()) <= 60 and _REASON.search(sentence):
                    if previous and _CONNECTIVE.match(sentence):
                        sentence = f"{previous} {sentence}"
                    out.append(sentence)
                previous = sentence
    return out


def run_specific_strings(runs: Sequence[Trajectory]) -> set[str]:
    """Names, ids, e-mails, dates and amounts in the runs' arguments and observations."""
    out: set[str] = set()
    for run in runs:
        for step in run.steps:
            for source in (step.action.args, parse_observation(step.observation)):
                for key, value in leaves(source):
                    if isinstance(value, bool) or value is None:
                        continue
                    text = str(value).strip()
                    if len(text) < 2 or len(text) > 80:
                        continue
                    if key is None and " " in text:
                        continue  # a whole text observation, not a value
                    if len(text.split()) >= 5:
                        # A sentence (a message body that quotes the request) is words, not a
                        # value: scrubbing it would blank out the request it repeats.
                        continue
                    named = key is not None and ("name" in key.lower())
                    if named and text[:1].isupper():
                        out.add(text)
                    elif any(c.isdigit() for c in text) and (len(text) >= 3 or key is None):
                        out.add(text)
    return out


_AMOUNT = re.compile(r"\$\s?\d[\d,]*(\.\d+)?")
_DIGITS = re.compile(r"\b(?=[\w-]*\d)[\w-]{2,}\b")


def abstract_text(text: str, specific: set[str]) -> str:
    """A run's sentence with its values replaced by roles and 'you' by 'the user'."""
    for value in sorted(specific, key=len, reverse=True):
        named = value[:1].isupper() and not any(c.isdigit() for c in value)
        role = "[name]" if named else "[value]"
        text = re.sub(rf"(?<![\w@.]){re.escape(value)}(?![\w@])", role, text)
    text = _AMOUNT.sub("[amount]", text)
    text = _DIGITS.sub("[value]", text)
    text = re.sub(r"(\[value\]\s*){2,}", "[value] ", text)
    text = re.sub(r"\[name\](\s*\[name\])+", "[name]", text)
    for pattern, replacement in _SECOND_PERSON:
        text = pattern.sub(replacement, text)
    return " ".join(text.split())


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z'-]+", text.lower()) if w not in _STOP}


def consensus_request(firsts: Sequence[str], seen: Sequence[str], specific: set[str]) -> str:
    """The sentence of the first user messages that shares the most with every run's view.

    Each run's first user message is split into sentences; a sentence scores by how many runs
    (of both branches) also saw each of its words before the decision. The best one, in the third
    person with values abstracted, is the request.
    """
    views = [_words(v) for v in seen]
    best, best_score = "", 0.0
    for message in firsts:
        for sentence in _SENTENCE.split(message or ""):
            words = _words(sentence)
            if len(words) < 3:
                continue
            score = sum(sum(w in view for view in views) for w in words) / (len(words) ** 0.5)
            if score > best_score:
                best, best_score = sentence.strip(), score
    best = _ASK.sub("the user asks to ", best)
    best = third_person(best)
    best = re.sub(r"\byou\b", "the agent", best, flags=re.IGNORECASE)
    best = abstract_text(best, specific)
    return best[:1].upper() + best[1:].rstrip(" .!?") if best else ""


def decision_move(action: Action, text: str) -> Move:
    """What a branch did at the decision: refused, offered a transfer, asked, acted, replied."""
    if action.tool == NO_STEP:
        return "stop"
    if action.tool != RESPOND_TOOL:
        return "act"
    if _REFUSE.search(text):
        return "refuse"
    if _TRANSFER.search(text):
        return "transfer"
    return "ask" if "?" in text else "reply"


__all__ = [
    "Move",
    "abstract_text",
    "agent_texts",
    "consensus_request",
    "decision_move",
    "mentions",
    "reason_sentences",
    "refuses",
    "run_specific_strings",
]


def refuses(text: str) -> bool:
    """Whether a sentence refuses or says something cannot be done."""
    return bool(_REFUSE.search(text))
