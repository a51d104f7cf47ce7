"""The eval report shows every arm side by side: held-out first, train in-sample, placebo beside."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _outcome_runs import searched_runs as _runs
from oncourse.adapters._html_eval import arms_section, ordered_splits
from oncourse.adapters.eval_models import EvalResult
from oncourse.adapters.evaluation import compare_control, evaluate_split, write_eval_report


def _split(name: str, memory_wins: bool) -> tuple[str, object]:
    base = _runs(f"{name}-a", "PPFFF") + _runs(f"{name}-b", "PPPPP")
    placebo = _runs(f"{name}-a", "PPFFF") + _runs(f"{name}-b", "PPPPP")
    mem = _runs(f"{name}-a", "PPPPP" if memory_wins else "PPFFF") + _runs(f"{name}-b", "PPPPP")
    controls = {
        "placebo": compare_control("placebo", placebo, mem),
        "shuffled": compare_control("shuffled", base, mem),
    }
    return name, evaluate_split(name, base, mem, controls=controls)


def _result() -> EvalResult:
    # Train listed first on purpose: the report must still lead with the held-out splits.
    splits = dict([_split("train", True), _split("heldout", True), _split("heldout-novel", False)])
    return EvalResult(
        suite="mini-apps", model="simulated", n=5, seed=0, simulated=True, memory="m.sqlite",
        memory_fingerprint="x", active_guidelines=1, controls=["placebo", "shuffled"],
        started_at="2026-12-01T00:00:00+00:00", finished_at="2026-12-01T00:01:00+00:00",
        splits=splits,
    )  # fmt: skip


def test_held_out_splits_come_first_and_train_is_labelled_in_sample() -> None:
    result = _result()
    assert [name for name, _ in ordered_splits(result)] == ["heldout", "heldout-novel", "train"]
    text = arms_section(result)
    assert text.index("<b>heldout</b>") < text.index("<b>heldout-novel</b>")
    assert text.index("<b>heldout-novel</b>") < text.index("train (in-sample)")
    assert "<b>train</b>" not in text


def test_every_arm_has_a_row_and_memory_is_tested_against_each_control() -> None:
    text = arms_section(_result())
    table, tests = text.split("Memory against each arm")
    # Per split: baseline, placebo, shuffled, memory, in that order.
    first = table[table.index("<b>heldout</b>") : table.index("<b>heldout-novel</b>")]
    rows = [first.index(f"<td>{arm}</td>") for arm in ("baseline", "placebo", "shuffled", "memory")]
    assert rows == sorted(rows)
    assert "70% [" in first and "100% [" in first  # baseline / memory per-run rates
    # Memory vs placebo on heldout: one task up by 60 points of 2 -> +30.0 per-run points.
    assert tests.count("<td>placebo</td>") == 3 and tests.count("<td>shuffled</td>") == 3
    assert "+30.0" in tests
    assert "not shown" in tests  # one task up is no evidence (sign p = 1)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian package chromium is absent")
def test_the_eval_report_with_its_arms_renders_in_headless_chromium(tmp_path: Path) -> None:
    from tests.test_html_report import _distinct_filtered_bytes, _screenshot

    result = _result()
    runs = _runs("heldout-a", "PPPPP") + _runs("heldout-b", "PPPPP")
    page = write_eval_report(result, runs, None, tmp_path)
    text = page.read_text()
    assert text.index("Arms: baseline, controls") < text.index("Lift of the all-N rate")
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    _screenshot(page, tmp_path / "report.png")
    _screenshot(blank, tmp_path / "blank.png")
    assert (tmp_path / "report.png").exists(), "chromium wrote no screenshot"
    blank_colours = _distinct_filtered_bytes(tmp_path / "blank.png")
    assert _distinct_filtered_bytes(tmp_path / "report.png") > 10 * blank_colours
