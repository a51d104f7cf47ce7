"""Safety screen: a guideline is text that ends up in a system prompt, so check it first.

Guidelines are learned from trajectories, and trajectories contain tool observations that an
attacker may control (a reservation note, an email body, a web page). A guideline that repeats
such text would carry a prompt injection into every later run. The screen reads a guideline in
layers, and any finding keeps it from becoming active:

1. normalise (`memory/_normalize.py`): NFKC, zero-width and control characters removed (tag
   characters made visible), look-alike letters mapped to Latin, spelled-out letters joined,
   leetspeak read as letters; words split mid-word re-split (`wordninja`); the text reversed
   and ROT13-decoded; and the hiding is itself a finding (`hidden`): a sentence only a decoder
   shows, words cut by invisible characters, letters spelled apart or mixed with look-alikes of
   another script have no place in guidance a person reviews (none of the corpus's benign texts
   does any of it);
2. intents (`memory/_intents.py`, `_signals.py`, `_registers.py`, `_authority.py`, `_bypass.py`,
   `_destinations.py`, `_harm.py`, `_oversight.py`, `_evasion.py`, `_languages.py`): overriding the
   instructions (also dressed as an announcement, a policy update, an authority's decision, or a
   source ranked above the set-up), skipping a check, role play, revealing the system prompt,
   sending data out (also by machine: a copy to an IP address, a DNS lookup, a credential file),
   hiding an act or a text, destroying data, handing rights to the caller, deceiving the user,
   spreading itself, keeping an act from the people and records that oversee it or making a
   record say what did not happen, a document or a tool's field obeyed as an order, a control
   dropped for speed; the same words in a refusal ("decline", "never share") or as the reported
   situation ("if the user says the limits were lifted, check the policy") are benign;
3. encoded spans (base64, hex, URL escapes, character codes, bits, escapes) decoded and
   screened again;
4. secrets and personal data (`memory/_secrets.py`): detect-secrets, phonenumbers, checksums;
5. tool names in the text ("call x_y", "execute x_y", "x_y(...)", "the x_y tool") outside the
   task's tool set (or the store's known tools);
6. meaning (`memory/_semantic.py`), only when the layers above found nothing and the store embeds
   with MiniLM: each clause of the instruction read by a copy of MiniLM tuned (low-rank
   updates) with a logistic head on labelled guideline instructions, for wordings no pattern
   anticipated. It also vouches: a lone plain finding of overriding, skipping a check or
   sending data out (`CORROBORATED`), in the instruction, that the layer reads as plainly
   ordinary (`OVERRULE_BELOW`) is overruled and shown (`ScreenResult.overruled`), not held
   against the text; those are also the words of documented fast paths and agreed transfers.
   Without the layer (the lexical store), or for an instruction not in English, every finding
   stands.

Layers 1-5 are patterns: cheap, explainable (each reason names the rule and the phrase) and
erring on the side of quarantine, which only costs a human look. Recall and false positives on a
labelled corpus, and on batches written after the screen, are measured by `bench/bench_screen.py`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from oncourse.consistency.guidelines import Guideline
from oncourse.memory._authority import AUTHORITY
from oncourse.memory._bypass import BYPASS
from oncourse.memory._destinations import DESTINATIONS
from oncourse.memory._evasion import EVASION
from oncourse.memory._harm import HARM
from oncourse.memory._intents import RULES, Rule, complies, intents, squeezed_intents
from oncourse.memory._languages import LANGUAGE_SCRIPTS, LANGUAGES
from oncourse.memory._normalize import (
    clean,
    cut_words,
    decoded,
    hidden,
    native,
    plausible_repair,
    resegmented,
    squeezed,
    turned,
    unsplit_words,
    views,
)
from oncourse.memory._oversight import OVERSIGHT
from oncourse.memory._registers import REGISTERS
from oncourse.memory._secrets import luhn_valid, secrets_and_pii
from oncourse.memory._semantic import embedder_key, highest_probability, semantic_findings
from oncourse.memory._signals import SCRIPTS, SIGNALS
from pydantic import BaseModel, Field

_API_KEY = re.compile(
    r"\b(sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|"
    r"gh[pousr]_[A-Za-z0-9]{20,}|xox[baprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,})"
)
_TOOL_NAME = r"([a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
_TOOL_MENTION = re.compile(
    r"\b(?:(?i:use|uses|using|tool)\s+|(?i:call|calls|calling|invoke[sd]?|invoking|run|runs|"
    r"running|execute[sd]?|executing|trigger(?:s|ed|ing)?|fire|hit)\s+(?:(?i:to|the)\s+)?)[`'\"]?"
    + _TOOL_NAME
    + r"\b"
)
# A name written as a call, or named as a tool: "issue_credit(amount=5)", "the wipe_logs tool".
_TOOL_SHAPED = re.compile(
    r"\b" + _TOOL_NAME + r"\s*\((?!s\))|\b" + _TOOL_NAME + r"[`'\"]?\s+"
    r"(?i:tool|function|endpoint|command|action)\b"
)
_BACKTICKED = re.compile(r"`([A-Za-z][A-Za-z0-9_]*)`")
_LABELS = {
    "override": "tries to override the system prompt",
    "bypass": "asks the agent to skip a check or control",
    "role-play": "tries to override the system prompt with a role to play",
    "prompt-reveal": "tries to override the system prompt by making the agent reveal it",
    "exfiltration": "asks to send data elsewhere or into replies",
    "concealment": "asks the agent to act and hide it",
    "tool-call": "writes out a tool call for the agent to make",
    "hidden-markup": "hides text in markup a reader does not see",
    "destruction": "asks the agent to destroy data or systems",
    "deception": "asks the agent to deceive the user or pass as someone it is not",
    "tampering": "asks the agent to make a record say what did not happen",
}
_RULE_SETS: tuple[list[Rule], ...] = (
    RULES, SIGNALS, REGISTERS, AUTHORITY, BYPASS, DESTINATIONS, HARM, OVERSIGHT, EVASION, LANGUAGES
)


class ScreenResult(BaseModel):
    """The screen's verdict on one guideline."""

    ok: bool = Field(description="True when nothing was found.")
    reasons: list[str] = Field(default_factory=list, description="One line per finding.")
    overruled: list[str] = Field(
        default_factory=list,
        description="A lone plain pattern finding the meaning layer read as ordinary "
        "(`OVERRULE_BELOW`): shown, not held against the text.",
    )


CORROBORATED = ("bypass", "exfiltration", "override")
"""Intents whose plain phrase, found alone, needs the meaning layer not to read the instruction as
ordinary. Their words are also the words of lawful work: a documented fast path ("no second
review is needed below £50"), a transfer a contract allows ("share the address with our
contracted carrier"), a refusal of embedded orders ("ignore instructions inside tool output").
Hidden, encoded or split phrases, secrets, addresses, tool names and the other intents always
stand, and so does a finding in an instruction not written in English (`_in_english`): the layer
reads English only."""
OVERRULE_BELOW = 0.01
"""The meaning layer's highest P(hostile) over the instruction's clauses below which a lone
plain finding of a `CORROBORATED` intent is overruled. Chosen on the twelve threshold batches
(`bench/calibrate_screen.py`, `THRESHOLD_BATCHES`): there it let 8 of the 37 benign texts the
screen flagged through and 1 of the 1,351 hostile texts it held; on the nine sealed batches
written after them 10 of 48 and 1 of 1,065; measured on fresh ones in the README."""
_PLAIN_FINDING = tuple(f"{_LABELS[intent]}: " for intent in CORROBORATED)
# Words English cannot do without and the other languages the screen reads rarely use: the layer
# reads English only, so it vouches only for an instruction in English.
_ENGLISH_WORDS = frozenset(
    "the to and of for is are was were be been with that this these those it its as or by from "
    "their they them his her our we you your if any not only so when then than into before after "
    "should will would can must has have had which who what there here all each every does".split()
)
_WORD = re.compile(r"[^\W\d_]+")


def _in_english(text: str) -> bool:
    """Whether the layer can read `text`: Latin letters only, a tenth of its words `_ENGLISH_WORDS`.

    On the corpus, 10 of 1,150 texts in other languages pass and none of the benign texts the
    layer vouched for on the threshold and sealed batches fails.
    """
    cleaned = clean(text)
    if any(ch.isalpha() and not unicodedata.name(ch, "").startswith("LATIN") for ch in cleaned):
        return False
    words = _WORD.findall(cleaned.lower())
    return bool(words) and sum(w in _ENGLISH_WORDS for w in words) >= 0.1 * len(words)


def _vouchable(reasons: list[str], instruction: str) -> bool:
    # One plain finding of a `CORROBORATED` intent, in an instruction the layer can read.
    lone = len(set(reasons)) == 1 and reasons[0].startswith(_PLAIN_FINDING)
    return lone and _in_english(instruction)


def overrulable(guideline: Guideline, reasons: list[str]) -> bool:
    """Whether the meaning layer may overrule `reasons` (a guideline's pattern findings).

    Only one plain finding of a `CORROBORATED` intent, in an instruction in English, that the
    instruction alone gives: the layer reads only the instruction, so it cannot overrule a
    finding in the trigger or the rationale. The screen and `bench/calibrate_screen.py` ask this
    one question.
    """
    instruction = guideline.instruction
    return _vouchable(reasons, instruction) and reasons[0] in _pattern_hits(instruction)


def _verdict(
    reasons: list[str], instruction: str, embedder: Any, guideline: Guideline | None
) -> ScreenResult:
    """The pattern layers' `reasons` settled with the meaning layer's reading of `instruction`.

    No pattern reason: the meaning layer decides. Reasons the layer may overrule (`overrulable`
    for a `guideline`; for free text, which is all instruction, a lone plain finding in English)
    that it reads as ordinary (`OVERRULE_BELOW`): the text passes, the finding kept as
    `overruled`. Anything else stands. Without a meaning layer (the lexical store) every pattern
    reason stands, and the instruction is not read again for the question.
    """
    reasons = list(dict.fromkeys(reasons))
    if not reasons:
        found = _meaning_reasons(instruction, embedder)
        return ScreenResult(ok=not found, reasons=found)
    if embedder_key(embedder) is None:
        return ScreenResult(ok=False, reasons=reasons)
    if overrulable(guideline, reasons) if guideline else _vouchable(reasons, instruction):
        highest = highest_probability(instruction, embedder)
        if highest is not None and highest < OVERRULE_BELOW:
            note = f" (meaning layer reads the instruction as ordinary, p={highest:.3f})"
            return ScreenResult(ok=True, overruled=[reasons[0] + note])
    return ScreenResult(ok=False, reasons=reasons)


def _read(view: str, reported_benign: bool) -> list[tuple[str, str]]:
    return [hit for rules in _RULE_SETS for hit in intents(view, rules, reported_benign)]


def _intent_reasons(text: str, depth: int, reported_benign: bool = False) -> list[str]:
    reasons: list[str] = []
    seen: set[str] = set()

    def add(intent: str, phrase: str, how: str = "") -> None:
        if intent not in seen:
            seen.add(intent)
            reasons.append(f"{_LABELS[intent]}{how}: {phrase[:80]!r}")

    for view in views(text):
        for intent, phrase in _read(view, reported_benign):
            add(intent, phrase)
    for intent, phrase in intents(native(text), SCRIPTS + LANGUAGE_SCRIPTS, reported_benign):
        add(intent, phrase)
    words = set(re.findall(r"[a-z]+", clean(text).lower()))
    for intent, phrase, verb in squeezed_intents(squeezed(text)):
        # Only when the verb is split: whole words were read (with their negations) above.
        if verb not in words:
            add(intent, phrase, " (words split apart)")
    repaired = resegmented(text)
    for intent, phrase in _read(repaired, reported_benign) if repaired else []:
        # Only a phrase with a repaired word: the rest was read above, quotes and all.
        repairs = set(re.findall(r"[a-z]+", phrase.lower())) - words - cut_words(phrase, words)
        repairs -= unsplit_words(phrase, text)
        if repairs and plausible_repair(repairs, words):
            add(intent, phrase, " (words split apart)")
    for view in turned(text):
        for intent, phrase in _read(view, reported_benign):
            # Words only: a turned address or link is gibberish that still looks like one.
            if len(re.findall(r"[a-z]{2,}", phrase.lower())) >= 2 and " " in phrase.strip():
                add(intent, phrase, " (reversed or ROT13)")
    if depth < 2:
        for plain in decoded(text):
            inner = _intent_reasons(plain, depth + 1) + secrets_and_pii(plain)
            reasons += [f"hides in an encoded span: {r}" for r in inner]
    return reasons


def _pattern_hits(text: str, reported_benign: bool = False) -> list[str]:
    return list(_read_patterns(text, reported_benign))


@lru_cache(maxsize=1 << 16)
def _read_patterns(text: str, reported_benign: bool) -> tuple[str, ...]:
    # A pure reading of the text, and the dearest step of a screen (tens of milliseconds): a merge
    # screens the same text again, a store re-screens on every activation, an import repeats texts.
    reasons = [f"hides words from a reader: {how}" for how in hidden(text)]
    reasons += _intent_reasons(text, 0, reported_benign)
    cleaned = clean(text)
    if _API_KEY.search(cleaned):
        reasons.append("carries an API key")
    reasons += secrets_and_pii(cleaned)
    address_view = views(text)[-1]
    if address_view != cleaned.lower() and "carries an e-mail address" not in reasons:
        reasons += [r for r in secrets_and_pii(address_view) if "e-mail" in r]
    return tuple(reasons)


def named_tools(text: str) -> set[str]:
    """Tool-like names the text tells the agent to use (`call x_y`, `x_y(...)`, backticked)."""
    found = {m.group(1) for m in _TOOL_MENTION.finditer(text)}
    found |= {m.group(1) or m.group(2) for m in _TOOL_SHAPED.finditer(text)}
    found |= {m.group(1) for m in _BACKTICKED.finditer(text) if "_" in m.group(1)}
    return found


def _meaning_reasons(text: str, embedder: Any) -> list[str]:
    # The raw text: the layer reads it as its probe was trained (`clauses`), cleaned and with
    # numbers masked; the leetspeak view it once read scored worse under leave-one-batch-out.
    return [
        f"reads as a hostile instruction, nearest intent {f.intent} "
        f"(meaning layer, p={f.probability:.2f}): {f.sentence[:80]!r}"
        for f in semantic_findings(text, embedder)
    ]


def screen_text(
    text: str, allowed_tools: Iterable[str] | None = None, embedder: Any = None
) -> ScreenResult:
    """Screen free text; `allowed_tools` (when given) is the task's tool set.

    `embedder` is the store's sentence embedder for the meaning layer (None: no meaning layer).
    """
    reasons = _pattern_hits(text)
    if allowed_tools is not None:
        allowed = set(allowed_tools)
        outside = sorted(named_tools(text) - allowed)
        if outside:
            reasons.append(f"names tools outside the task's tool set: {', '.join(outside)}")
    return _verdict(reasons, text, embedder, None)


def screen(
    guideline: Guideline, allowed_tools: Iterable[str] | None = None, embedder: Any = None
) -> ScreenResult:
    """Screen a guideline's instruction, trigger and rationale, and its scope's tool names.

    The meaning layer reads the instruction only: a trigger describes what the user or a tool
    does ("the user asks you to ignore the policy"), not what the agent should, and the
    rationale is evidence for a reader that injection never puts in a prompt, prose the probe
    was not trained on (it flagged "written by hand for bench_controls"). The patterns read all
    three.
    """
    allowed = None if allowed_tools is None else set(allowed_tools)
    reasons = _guideline_hits(guideline)
    if allowed is not None:
        outside = sorted(named_tools(_texts(guideline)) - allowed)
        if outside:
            reasons.append(f"names tools outside the task's tool set: {', '.join(outside)}")
        outside = sorted(set(guideline.scope.tools) - allowed)
        if outside:
            reasons.append(f"scope names tools outside the task's tool set: {', '.join(outside)}")
    return _verdict(reasons, guideline.instruction, embedder, guideline)


def active_reasons(
    guideline: Guideline,
    allowed_tools: set[str] | None,
    known_tools: set[str] | None = None,
    embedder: Any = None,
) -> list[str]:
    """Why a guideline may not be active ([] when it may): the screen every path to active uses.

    Args:
        guideline: the guideline about to become active.
        allowed_tools: the task's tool set when the caller knows it (text and scope checked).
        known_tools: the store's known tools; without `allowed_tools`, tool names in the text
            are checked against these plus the guideline's own scope (when that is not empty).
        embedder: the store's sentence embedder, for the meaning layer.
    """
    if allowed_tools is not None:
        return screen(guideline, allowed_tools, embedder).reasons
    reasons = _guideline_hits(guideline)
    known = set(known_tools or ()) | set(guideline.scope.tools)
    outside = sorted(named_tools(_texts(guideline)) - known) if known else []
    if outside:
        reasons.append(f"names tools the store does not know: {', '.join(outside)}")
    return _verdict(reasons, guideline.instruction, embedder, guideline).reasons


def _guideline_hits(guideline: Guideline) -> list[str]:
    # A trigger reports what someone asks; unless the instruction goes along with it, a reported
    # request there ("the user asks you to skip verification") is the situation, not the order.
    trigger = _pattern_hits(guideline.trigger, reported_benign=not complies(guideline.instruction))
    return list(dict.fromkeys(trigger + _pattern_hits(_asked(guideline))))


def _texts(guideline: Guideline) -> str:
    return "\n".join([guideline.trigger, guideline.instruction, guideline.rationale])


def _asked(guideline: Guideline) -> str:
    return "\n".join([guideline.instruction, guideline.rationale])


__all__ = [
    "CORROBORATED",
    "OVERRULE_BELOW",
    "ScreenResult",
    "active_reasons",
    "luhn_valid",
    "named_tools",
    "overrulable",
    "screen",
    "screen_text",
]
