"""Control arms: the placebo and shuffled hooks inject on the same tasks, with the lesson out."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from oncourse.adapters.controls import (
    PLACEBO_ADVICE,
    control_hook,
    parse_controls,
    placebo_instruction,
    shuffled_instructions,
)
from oncourse.consistency.errors import InputError
from oncourse.consistency.guidelines import Guideline, GuidelineScope
from oncourse.consistency.paired import (
    cluster_bootstrap_rate,
    min_detectable_lift,
    sign_test,
    task_change_p,
)
from oncourse.consistency.text import LexicalEmbedder
from oncourse.memory.inject import memory_hook
from oncourse.memory.store import GuidelineMemory

REPO = Path(__file__).resolve().parents[1]


def _words(text: str) -> int:
    return len(text.split())


def test_placebo_is_generic_advice_of_about_the_same_length() -> None:
    lesson = Guideline(
        trigger="paying an invoice listed twice",
        instruction="Never pay an invoice that is already settled; pay the copy that is still "
        "unpaid, and check the number against the one in the request.",
    )
    text = placebo_instruction(lesson, count=_words)
    assert text == placebo_instruction(lesson, count=_words), "fixed per guideline"
    assert abs(_words(text) - _words(lesson.instruction)) <= max(_words(a) for a in PLACEBO_ADVICE)
    rebuilt = [a for a in PLACEBO_ADVICE if a in text]
    assert len(" ".join(rebuilt)) >= len(text) - 2 * len(max(PLACEBO_ADVICE, key=len))
    assert text.split(". ")[0].rstrip(".") + "." in PLACEBO_ADVICE
    assert "invoice" not in text and "settled" not in text


def test_shuffled_gives_each_guideline_another_ones_instruction() -> None:
    gs = [Guideline(id=f"g-{i}", trigger=f"t{i}", instruction=f"do {i}") for i in range(3)]
    swapped = shuffled_instructions(gs)
    assert sorted(swapped.values()) == sorted(g.instruction for g in gs)
    assert all(swapped[g.id] != g.instruction for g in gs)


def test_control_hooks_inject_on_the_same_tasks_with_the_same_triggers(tmp_path: Path) -> None:
    store = tmp_path / "m.sqlite"
    memory = GuidelineMemory(store, embedder=LexicalEmbedder())
    memory.add_many(
        [
            Guideline(
                id="g-invoice",
                trigger="pay the open invoice from a vendor",
                instruction="Never pay an invoice that is already settled.",
                status="active",
                scope=GuidelineScope(tools=["pay_invoice"]),
            ),
            Guideline(
                id="g-mail",
                trigger="email a contact at their work address",
                instruction="Send work mail to the office address, never the private one.",
                status="active",
                scope=GuidelineScope(tools=["send_email"]),
            ),
        ],
        dedupe=False,
    )
    real = memory_hook(GuidelineMemory(store, embedder=LexicalEmbedder()), record=False)
    tasks = [
        ("Pay the open invoice INV-1 from Acme Parts.", ["pay_invoice"]),
        ("Email Dana Reyes at their work address.", ["send_email"]),
        ("Book a table for two.", ["book_table"]),
    ]
    for name in ("placebo", "shuffled"):
        hook = control_hook(store, name, embedder=LexicalEmbedder())
        for text, tools in tasks:
            block, ids = hook(text, tools)
            real_block, real_ids = real(text, tools)
            assert ids == real_ids, "same retrieval decides where text goes"
            if not ids:
                assert block == "" and real_block == ""
                continue
            trigger_lines = [ln for ln in block.splitlines() if "When:" in ln]
            assert trigger_lines == [ln for ln in real_block.splitlines() if "When:" in ln]
            assert block != real_block, "the lesson itself is replaced"
    with pytest.raises(InputError):
        control_hook(store, "nocebo")


def test_parse_controls() -> None:
    assert parse_controls("placebo, shuffled,placebo") == ["placebo", "shuffled"]
    assert parse_controls("none") == []
    with pytest.raises(InputError):
        parse_controls("placebo,other")


def test_cluster_bootstrap_keeps_a_tasks_runs_together() -> None:
    # Two tasks, one always passes and one never: resampling runs would give a narrow range
    # around 50%; resampling tasks gives 0-100%.
    wide = cluster_bootstrap_rate([(5, 5), (5, 0)], seed=1)
    assert wide.rate == 0.5 and wide.low == 0.0 and wide.high == 1.0 and not wide.degenerate
    flat = cluster_bootstrap_rate([(5, 5), (5, 5), (5, 5)])
    assert flat.degenerate and flat.low == flat.high == 1.0


def test_sign_test_fisher_and_detectable_lift_by_hand() -> None:
    st = sign_test([0.2, 0.4, 0.4, 1.0], [0.6, 0.4, 0.8, 0.8])
    assert (st.higher, st.lower) == (2, 1) and st.p_value == 1.0  # binomial 2 of 3
    assert task_change_p((5, 5), (5, 0)) == pytest.approx(2 / 252)  # 2 * C(5,5)^2/C(10,5)
    assert task_change_p((5, 3), (5, 3)) == 1.0
    # 18 tasks at p = 0.5 with 5 runs per arm: sd = sqrt(2*.25/5); (1.96 + 0.84) * sd / sqrt(18)
    mde = min_detectable_lift([2 * 0.25 / 5] * 18)
    assert mde == pytest.approx(2.8016 * (0.1**0.5) / 18**0.5, rel=1e-3)


@pytest.mark.slow
def test_bench_controls_meets_the_issue_thresholds(tmp_path: Path) -> None:
    """Issue 10's acceptance numbers (simulated): placebo ~0, right lessons up, wrong down."""
    spec = importlib.util.spec_from_file_location(
        "bench_controls", REPO / "bench" / "bench_controls.py"
    )
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    report = bench.measure(tmp_path, n=5, seed=0, concurrency=2)
    for name, row in report["sets"].items():
        assert abs(row["placebo_per_run_lift"]) <= 4, name
        assert abs(row["placebo_all_n_lift"]) <= 6, name
    correct, inverted = report["sets"]["correct"], report["sets"]["inverted"]
    assert correct["memory_per_run_lift"] >= 5
    assert correct["memory_vs_placebo_all_n"] > 0
    assert inverted["memory_per_run_lift"] <= -5
    assert all(report["checks"].values())


def test_controls_depend_on_what_guidelines_say_not_on_their_random_ids() -> None:
    # Regression: the rotation followed the (random) ids, so two demo runs on the same learned
    # content gave different shuffled arms (heldout 72% vs 73%).
    texts = [("t0", "do 0"), ("t1", "do 1"), ("t2", "do 2")]
    first = [Guideline(trigger=t, instruction=i) for t, i in texts]
    second = [Guideline(trigger=t, instruction=i) for t, i in texts]
    by_text = lambda gs, swapped: {g.instruction: swapped[g.id] for g in gs}  # noqa: E731
    assert by_text(first, shuffled_instructions(first)) == by_text(
        second, shuffled_instructions(second)
    )
    assert [placebo_instruction(g, count=_words) for g in first] == [
        placebo_instruction(g, count=_words) for g in second
    ]
