"""Episodic guideline memory: the store, retrieval by meaning, and prompt injection."""

from oncourse.memory.admit import Admission, admit
from oncourse.memory.backend import StorageBackend, StoreSession, open_backend
from oncourse.memory.embedding import MiniLMEmbedder
from oncourse.memory.inject import Injection, inject, memory_hook
from oncourse.memory.screen import ScreenResult, screen, screen_text
from oncourse.memory.store import GuidelineMemory, ImportReport, SearchHit

__all__ = [
    "Admission",
    "GuidelineMemory",
    "ImportReport",
    "Injection",
    "MiniLMEmbedder",
    "ScreenResult",
    "SearchHit",
    "StorageBackend",
    "StoreSession",
    "admit",
    "inject",
    "memory_hook",
    "open_backend",
    "screen",
    "screen_text",
]
