"""Episodic guideline memory: the store, retrieval by meaning, and prompt injection."""

from memory.embedding import MiniLMEmbedder

__all__ = ["MiniLMEmbedder"]
