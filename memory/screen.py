"""Safety screen: a guideline is text that ends up in a system prompt, so check it first.

Guidelines are learned from trajectories, and trajectories contain tool observations that an
attacker may control (a reservation note, an email body, a web page). A guideline that repeats
such text would carry a prompt injection into every later run. Before a guideline becomes active
the screen rejects text that

- tries to override the system prompt ("ignore previous instructions", "you are now", ...);
- asks to reveal data or send it elsewhere (URLs, e-mail addresses, "send ... to", "reveal");
- names tools outside the task's tool set;
- carries secrets or PII (API keys, Luhn-valid card numbers, SSNs, e-mails, phone numbers).

The checks are patterns, not a classifier: they are cheap, explainable (each reason names the
rule) and err on the side of quarantine, which only costs a human look.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from oncourse.consistency.guidelines import Guideline
from pydantic import BaseModel, Field

_OVERRIDE = [
    r"\b(ignore|disregard|forget|override|bypass)\b[^.]{0,40}\b(instructions?|rules?|prompts?|"
    r"polic(y|ies)|guidelines?|guardrails?)\b",
    r"\byou are now\b",
    r"\bfrom now on,? you\b",
    r"\bsystem prompt\b",
    r"\bnew instructions?\b",
    r"\b(developer|admin|god|jailbreak|dan) mode\b",
    r"\bact as (an? )?(unrestricted|different|new)\b",
    r"\bpretend (to be|you are)\b",
    r"<\s*/?\s*(system|instructions?)\s*>",
]
_EXFILTRATION = [
    r"\bhttps?://\S+",
    r"\bwww\.[a-z0-9-]+\.[a-z]{2,}",
    r"\b(send|forward|e-?mail|post|upload|transmit|leak|exfiltrate|copy)\b[^.]{0,60}\bto\b"
    r"[^.]{0,30}(@|https?://|\bexternal\b|\bthird[- ]party\b|\bserver\b|\bendpoint\b|\bwebhook\b)",
    r"\b(reveal|disclose|print|output|share|leak)\b[^.]{0,30}\b(system prompt|instructions|"
    r"password|passwords|credentials|api keys?|secret|secrets|tokens?|card numbers?)\b",
    r"\bexfiltrat",
]
_SECRETS = {
    "an API key": r"\b(sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|"
    r"gh[pousr]_[A-Za-z0-9]{20,}|xox[baprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,})",
    "a credential assignment": r"\b(api[_-]?key|secret|password|passwd|token)\s*[:=]\s*\S{6,}",
    "a bearer token": r"\bbearer\s+[A-Za-z0-9._~+/-]{16,}",
    "a social security number": r"\b\d{3}-\d{2}-\d{4}\b",
    "an e-mail address": r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b",
}
_PHONE = re.compile(r"(?<![\w-])\+?\(?\d[\d\s().-]{7,}\d(?![\w-])")
_CARD = re.compile(r"(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)")
_TOOL_MENTION = re.compile(
    r"\b(?i:call|calls|calling|invoke|invoking|use|using|run|running|tool)\s+[`'\"]?"
    r"([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b"
)
_BACKTICKED = re.compile(r"`([A-Za-z][A-Za-z0-9_]*)`")


class ScreenResult(BaseModel):
    """The screen's verdict on one guideline."""

    ok: bool = Field(description="True when nothing was found.")
    reasons: list[str] = Field(default_factory=list, description="One line per finding.")


def luhn_valid(digits: str) -> bool:
    """Luhn checksum (ISO/IEC 7812-1), the check digit scheme of payment card numbers."""
    numbers = [int(c) for c in digits if c.isdigit()]
    if len(numbers) < 13:
        return False
    total = 0
    for position, value in enumerate(reversed(numbers)):
        if position % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _pattern_hits(text: str) -> list[str]:
    reasons: list[str] = []
    lowered = text.lower()
    for pattern in _OVERRIDE:
        match = re.search(pattern, lowered)
        if match:
            reasons.append(f"tries to override the system prompt: {match.group(0)!r}")
    for pattern in _EXFILTRATION:
        match = re.search(pattern, lowered)
        if match:
            reasons.append(f"asks to reveal or send data elsewhere: {match.group(0)!r}")
    for label, pattern in _SECRETS.items():
        if re.search(pattern, text, flags=re.IGNORECASE):
            reasons.append(f"carries {label}")
    for match in _CARD.finditer(text):
        if luhn_valid(match.group(0)):
            reasons.append("carries a payment card number (Luhn-valid)")
            break
    for match in _PHONE.finditer(text):
        digits = sum(c.isdigit() for c in match.group(0))
        # Dates (8 digits) and short codes are not phone numbers; 10-15 digits are.
        if 10 <= digits <= 15 and not luhn_valid(match.group(0)):
            reasons.append("carries a phone number")
            break
    return reasons


def named_tools(text: str) -> set[str]:
    """Tool-like names the text tells the agent to use (`call x_y`, `use x_y`, backticked)."""
    found = {m.group(1) for m in _TOOL_MENTION.finditer(text)}
    found |= {m.group(1) for m in _BACKTICKED.finditer(text) if "_" in m.group(1)}
    return found


def screen_text(text: str, allowed_tools: Iterable[str] | None = None) -> ScreenResult:
    """Screen free text; `allowed_tools` (when given) is the task's tool set."""
    reasons = _pattern_hits(text)
    if allowed_tools is not None:
        allowed = set(allowed_tools)
        outside = sorted(named_tools(text) - allowed)
        if outside:
            reasons.append(f"names tools outside the task's tool set: {', '.join(outside)}")
    return ScreenResult(ok=not reasons, reasons=list(dict.fromkeys(reasons)))


def screen(guideline: Guideline, allowed_tools: Iterable[str] | None = None) -> ScreenResult:
    """Screen a guideline's instruction, trigger and rationale, and its scope's tool names."""
    allowed = None if allowed_tools is None else set(allowed_tools)
    text = "\n".join([guideline.trigger, guideline.instruction, guideline.rationale])
    result = screen_text(text, allowed)
    reasons = list(result.reasons)
    if allowed is not None:
        outside = sorted(set(guideline.scope.tools) - allowed)
        if outside:
            reasons.append(f"scope names tools outside the task's tool set: {', '.join(outside)}")
    return ScreenResult(ok=not reasons, reasons=reasons)


def active_reasons(
    guideline: Guideline, allowed_tools: set[str] | None, known_tools: set[str] | None = None
) -> list[str]:
    """Why a guideline may not be active ([] when it may): the screen every path to active uses.

    Args:
        guideline: the guideline about to become active.
        allowed_tools: the task's tool set when the caller knows it (text and scope checked).
        known_tools: the store's known tools; without `allowed_tools`, tool names in the text
            are checked against these plus the guideline's own scope (when that is not empty).
    """
    if allowed_tools is not None:
        return screen(guideline, allowed_tools).reasons
    reasons = list(screen(guideline).reasons)
    known = set(known_tools or ()) | set(guideline.scope.tools)
    if known:
        outside = sorted(named_tools(_texts(guideline)) - known)
        if outside:
            reasons.append(f"names tools the store does not know: {', '.join(outside)}")
    return reasons


def _texts(guideline: Guideline) -> str:
    return "\n".join([guideline.trigger, guideline.instruction, guideline.rationale])


__all__ = [
    "ScreenResult",
    "active_reasons",
    "luhn_valid",
    "named_tools",
    "screen",
    "screen_text",
]
