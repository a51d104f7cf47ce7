"""`SimulatedModel`: a seeded, stochastic stand-in for an LLM, so the whole loop runs offline.

It plays the ReAct protocol through the same seam as a provider. Each turn it reads the chat
(system prompt, task, tool calls and JSON observations), proposes candidate tool calls from the
tool schemas and the values it has seen, scores them with generic heuristics (see
`_simulated_policy`) and samples one from a softmax at its temperature. The random draw is
seeded from the run's seed and the conversation so far, so a run is reproducible per seed and
runs differ across seeds.

Guidelines reach it only as text in the system prompt (bullets under a heading that mentions
guidelines) and are read as plain English (`_simulated_guidelines`): negation understood, meaning
compared by sentence embeddings with natural descriptions of the candidate moves built from the
tools' own documentation. A fitting guideline raises the chance of the moves it supports by a
bounded amount; it never forces one. It never sees task ids,
families, hidden parameters or checkers: only messages and tool specs. Everything it returns
says `simulated`.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading

import numpy as np
from oncourse.adapters.models._simulated_guidelines import (
    ReadingWeights,
    guideline_boosts,
    keep_tool_mass,
)
from oncourse.adapters.models._simulated_policy import RESPOND, Candidate, Scorer, Weights
from oncourse.adapters.models._simulated_reading import read_conversation
from oncourse.consistency.chat import (
    AssistantMessage,
    Message,
    ModelSettings,
    ToolCall,
    ToolSpec,
    Usage,
)
from oncourse.consistency.text import TextEmbedder


def _tokens(text: str) -> int:
    return max(1, (len(text) + 3) // 4)


class SimulatedModel:
    """Offline stand-in for an LLM agent (see the module docstring); results say `simulated`.

    Args:
        temperature: Sampling temperature used when the settings give none.
        min_temperature: Floor applied to any temperature, including 0: like a hosted model,
            the simulated one is not deterministic at temperature 0 (batching, routing).
        seed: Seed used when the settings give none.
        embedder: Embedder for guideline support; all-MiniLM-L6-v2 when None (loaded lazily,
            only once a prompt holds guidelines).
        weights: The heuristics' weights.
        reading: How strongly guidelines move the choice (bounded; see `ReadingWeights`).
    """

    name = "simulated"
    provider = "simulated"
    simulated = True

    def __init__(
        self,
        temperature: float = 1.0,
        min_temperature: float = 0.5,
        seed: int = 0,
        embedder: TextEmbedder | None = None,
        weights: Weights | None = None,
        reading: ReadingWeights | None = None,
    ):
        self.temperature = float(temperature)
        self.min_temperature = float(min_temperature)
        self.seed = int(seed)
        self.weights = weights or Weights()
        self.reading = reading or ReadingWeights()
        self._embedder = embedder
        self._lock = threading.Lock()

    @property
    def embedder(self) -> TextEmbedder:
        """The embedder used to read guidelines (created on first use)."""
        with self._lock:
            if self._embedder is None:
                from oncourse.memory.embedding import MiniLMEmbedder

                self._embedder = MiniLMEmbedder()
            return self._embedder

    def distribution(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings | None = None
    ) -> list[tuple[Candidate, float]]:
        """The candidates for the next move with their probabilities, most likely first."""
        settings = settings or ModelSettings()
        conv = read_conversation(messages)
        scorer = Scorer(conv, tools, self.weights)
        candidates = scorer.candidates()
        logits = np.array([c.score for c in candidates], dtype=np.float64)
        temperature = settings.temperature if settings.temperature is not None else None
        temperature = max(
            self.min_temperature, self.temperature if temperature is None else temperature
        )
        if conv.guidelines:
            groups = [c.tool for c in candidates]
            boosts = guideline_boosts(
                conv.guidelines,
                scorer.context(),
                [c.detail or c.rendering for c in candidates],
                groups,
                self.embedder,
                self.reading,
            )
            if not self.reading.across_tools:
                boosts = keep_tool_mass(logits, boosts, groups, temperature)
            logits += boosts
        scaled = (logits - logits.max()) / temperature
        probs = np.exp(scaled)
        probs /= probs.sum()
        order = np.argsort(-probs, kind="stable")
        return [(candidates[i], float(probs[i])) for i in order]

    def _draw(self, messages: list[Message], settings: ModelSettings) -> float:
        seed = settings.seed if settings.seed is not None else self.seed
        conv = read_conversation(messages)
        digest = hashlib.blake2b(f"{seed}\n{conv.digest()}".encode(), digest_size=8).digest()
        return random.Random(int.from_bytes(digest, "little")).random()

    def complete(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> AssistantMessage:
        """Sample the next move: one tool call, or a final text reply."""
        ranked = self.distribution(messages, tools, settings)
        # Inverse-CDF sampling in a fixed candidate order: with the same draw, two prompts that
        # differ only where a guideline applies make the same choice everywhere else.
        fixed = sorted(
            ranked,
            key=lambda cp: (cp[0].tool, json.dumps(cp[0].arguments, sort_keys=True, default=str)),
        )
        u = self._draw(messages, settings)
        total = 0.0
        chosen, p_chosen = fixed[-1]
        for cand, prob in fixed:
            total += prob
            if u < total:
                chosen, p_chosen = cand, prob
                break
        tokens_in = sum(_tokens(m.content) for m in messages) + sum(
            _tokens(json.dumps(t.parameters)) for t in tools
        )
        raw = {"simulated": True, "candidates": len(ranked), "p_chosen": round(p_chosen, 4)}
        if chosen.tool == RESPOND:
            text = str(chosen.arguments.get("text", ""))
            return AssistantMessage(
                content=text,
                usage=Usage(tokens_in=tokens_in, tokens_out=_tokens(text)),
                model=self.name,
                raw=raw,
            )
        call_id = (
            "call_"
            + hashlib.blake2b(f"{len(messages)}:{chosen.tool}".encode(), digest_size=4).hexdigest()
        )
        arguments = json.dumps(chosen.arguments)
        return AssistantMessage(
            content="",
            tool_calls=[ToolCall(id=call_id, name=chosen.tool, arguments=dict(chosen.arguments))],
            usage=Usage(tokens_in=tokens_in, tokens_out=_tokens(arguments)),
            model=self.name,
            raw=raw,
        )
