"""Episodic guideline memory: the store, retrieval by meaning, and prompt injection."""

from memory.embedding import MiniLMEmbedder
from memory.inject import Injection, inject, memory_hook
from memory.screen import ScreenResult, screen, screen_text
from memory.store import GuidelineMemory, ImportReport, SearchHit

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
