"""Episodic guideline memory: the store, retrieval by meaning, and prompt injection."""

from oncourse.memory.embedding import MiniLMEmbedder
from oncourse.memory.inject import Injection, inject, memory_hook
from oncourse.memory.screen import ScreenResult, screen, screen_text
from oncourse.memory.store import GuidelineMemory, ImportReport, SearchHit

__all__ = [
    "GuidelineMemory",
    "ImportReport",
    "Injection",
    "MiniLMEmbedder",
    "ScreenResult",
    "SearchHit",
    "inject",
    "memory_hook",
    "screen",
    "screen_text",
]
