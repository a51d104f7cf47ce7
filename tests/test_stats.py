"""Reliability estimators against hand computations, edge cases and properties."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oncourse.consistency.errors import StatsError
from oncourse.consistency.reliability import reliability_report
from oncourse.consistency.stats import (
    action_signature,
    bootstrap_mean_interval,
    distinct_final_answers,
    distinct_paths,
    group_by_task,
    identical_pair_share,
    pass_at_k,
    pass_hat_k,
    path_counter,
    path_label,
    step_count_spread,
    wilson_interval,
)
from oncourse.consistency.trajectory import Trajectory


def run(task_id: str, success: bool, *tools: str | tuple[str, dict], **extra) -> Trajectory:
    steps = []
    for tool in tools:
        name, args = (tool, {}) if isinstance(tool, str) else tool
        steps.append({"action": {"tool": name, "args": args}})
    return Trajectory.model_validate(
        {"task_id": task_id, "success": success, "steps": steps, **extra}
    )


def wilson_by_hand(c: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = c / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


# --- pass@k / pass^k -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (5, 2, 2, 1 - 3 / 10),  # 1 - C(3,2)/C(5,2)
        (5, 2, 1, 2 / 5),
        (4, 3, 2, 1.0),  # n - c = 1 < k: every pair holds a success
        (10, 1, 3, 1 - 84 / 120),  # 1 - C(9,3)/C(10,3)
        (4, 0, 2, 0.0),
        (4, 4, 4, 1.0),
    ],
)
def test_pass_at_k_by_hand(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (5, 2, 2, 1 / 10),  # C(2,2)/C(5,2)
        (4, 3, 2, 3 / 6),
        (5, 4, 5, 0.0),
        (10, 7, 3, 35 / 120),
        (4, 0, 1, 0.0),
        (4, 4, 4, 1.0),
        (5, 5, 3, 1.0),
    ],
)
def test_pass_hat_k_by_hand(n: int, c: int, k: int, expected: float) -> None:
    assert pass_hat_k(n, c, k) == pytest.approx(expected)


def test_fewer_runs_than_k_is_nan_not_zero() -> None:
    assert math.isnan(pass_hat_k(3, 3, 4))
    assert math.isnan(pass_at_k(3, 0, 4))


@pytest.mark.parametrize("k", [0, -1, True, 1.5, "2"])
def test_k_must_be_a_positive_integer(k: object) -> None:
    with pytest.raises(StatsError):
        pass_hat_k(5, 3, k)  # type: ignore[arg-type]
    with pytest.raises(StatsError):
        pass_at_k(5, 3, k)  # type: ignore[arg-type]


@pytest.mark.parametrize(("n", "c"), [(3, 4), (3, -1), (-1, 0)])
def test_counts_must_be_consistent(n: int, c: int) -> None:
    with pytest.raises(StatsError):
        pass_hat_k(n, c, 1)


@st.composite
def counts(draw: st.DrawFn) -> tuple[int, int]:
    n = draw(st.integers(min_value=1, max_value=40))
    return n, draw(st.integers(min_value=0, max_value=n))


@given(counts())
def test_pass_at_k_non_decreasing_and_pass_hat_non_increasing(nc: tuple[int, int]) -> None:
    n, c = nc
    at = [pass_at_k(n, c, k) for k in range(1, n + 1)]
    hat = [pass_hat_k(n, c, k) for k in range(1, n + 1)]
    assert all(b >= a - 1e-12 for a, b in zip(at, at[1:], strict=False))
    assert all(b <= a + 1e-12 for a, b in zip(hat, hat[1:], strict=False))
    assert all(0.0 <= v <= 1.0 for v in at + hat)
    assert at[0] == pytest.approx(hat[0]) == pytest.approx(c / n)


@given(counts(), st.integers(min_value=1, max_value=40))
def test_pass_hat_never_exceeds_pass_at(nc: tuple[int, int], k: int) -> None:
    n, c = nc
    if k > n:
        assert math.isnan(pass_hat_k(n, c, k)) and math.isnan(pass_at_k(n, c, k))
    else:
        assert pass_hat_k(n, c, k) <= pass_at_k(n, c, k) + 1e-12


# --- intervals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("c", "n", "lo_pct", "hi_pct"),
    [(10, 10, 72, 100), (5, 5, 57, 100), (24, 24, 86, 100), (34, 40, 71, 93), (45, 50, 79, 96)],
)
def test_wilson_matches_the_brief(c: int, n: int, lo_pct: int, hi_pct: int) -> None:
    lo, hi = wilson_interval(c, n)
    assert round(100 * lo) == lo_pct
    assert round(100 * hi) == hi_pct


@given(counts(), st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_wilson_equals_the_score_formula(nc: tuple[int, int], confidence: float) -> None:
    n, c = nc
    lo, hi = wilson_interval(c, n, confidence)
    hand_lo, hand_hi = wilson_by_hand(c, n, confidence)
    assert lo == pytest.approx(max(hand_lo, 0.0), abs=1e-9)
    assert hi == pytest.approx(min(hand_hi, 1.0), abs=1e-9)
    assert 0.0 <= lo <= c / n <= hi <= 1.0


def test_wilson_rejects_zero_runs_and_bad_confidence() -> None:
    with pytest.raises(StatsError):
        wilson_interval(0, 0)
    with pytest.raises(StatsError):
        wilson_interval(1, 2, confidence=1.0)


def test_bootstrap_is_seeded_and_near_the_normal_interval() -> None:
    values = np.random.default_rng(7).random(400)
    lo, hi = bootstrap_mean_interval(values, seed=3)
    assert (lo, hi) == bootstrap_mean_interval(values, seed=3)
    half = 1.96 * values.std(ddof=1) / math.sqrt(values.size)
    assert lo == pytest.approx(values.mean() - half, abs=0.006)
    assert hi == pytest.approx(values.mean() + half, abs=0.006)


def test_bootstrap_of_binary_values_matches_binomial_quantiles() -> None:
    from scipy.stats import binom

    values = [1.0] * 2 + [0.0] * 8  # resampled means follow Binomial(10, 0.2) / 10
    lo, hi = bootstrap_mean_interval(values)
    assert lo == pytest.approx(binom.ppf(0.025, 10, 0.2) / 10)
    assert hi == pytest.approx(binom.ppf(0.975, 10, 0.2) / 10)


def test_bootstrap_degenerate_and_bad_input() -> None:
    assert bootstrap_mean_interval([0.5]) == (0.5, 0.5)
    assert bootstrap_mean_interval([1.0, 1.0, 1.0]) == (1.0, 1.0)
    with pytest.raises(StatsError):
        bootstrap_mean_interval([])
    with pytest.raises(StatsError):
        bootstrap_mean_interval([0.5, float("nan")])


# --- paths -------------------------------------------------------------------------------------


def test_action_identity_ignores_key_order_and_reply_wording() -> None:
    a = run("t", True, ("search", {"q": "x", "limit": 2}), ("respond", {"text": "hello"}))
    b = run("t", True, ("search", {"limit": 2, "q": "x"}), ("respond", {"text": "hi there"}))
    c = run("t", True, ("search", {"limit": 3, "q": "x"}), ("respond", {"text": "hello"}))
    assert action_signature(a) == action_signature(b)
    assert action_signature(a) != action_signature(c)
    assert distinct_paths([a, b, c]) == 2
    assert path_label(a) == "search > respond"


def test_identical_pair_share_by_hand() -> None:
    groups = group_by_task(
        [
            run("t1", True, "a", "b"),
            run("t1", True, "a", "b"),
            run("t1", False, "a", "c"),
            run("t2", True, "x"),
            run("t2", True, "x"),
        ]
    )
    # t1: 3 pairs, 1 identical; t2: 1 pair, identical -> 2 of 4.
    assert identical_pair_share(groups) == pytest.approx(0.5)
    assert math.isnan(identical_pair_share(group_by_task([run("solo", True, "a")])))


def test_group_by_task_keeps_first_seen_order() -> None:
    groups = group_by_task([run("b", True), run("a", True), run("b", False)])
    assert list(groups) == ["b", "a"]
    assert [r.success for r in groups["b"]] == [True, False]


def test_step_count_spread_and_path_counter() -> None:
    runs = [run("t", True, "a", "b"), run("t", False, "a"), run("t", True, "a", "b", "c", "d")]
    assert step_count_spread(runs) == {"min": 1, "max": 4, "std": pytest.approx(np.std([2, 1, 4]))}
    runs.append(run("t", True, "a", "b"))
    assert path_counter(runs)[0] == {"path": "a > b", "runs": 2, "successes": 2}
    assert sorted(p["runs"] for p in path_counter(runs)) == [1, 1, 2]


def test_paths_with_same_tools_but_other_args_are_told_apart() -> None:
    runs = [run("t", True, ("get", {"id": 1})), run("t", False, ("get", {"id": 2}))]
    labels = [p["path"] for p in path_counter(runs)]
    assert labels == ["get [args variant 1]", "get [args variant 2]"]


def test_distinct_final_answers_ignores_case_and_spacing() -> None:
    runs = [
        run("t", True, final_answer="Paris"),
        run("t", True, final_answer=" paris "),
        run("t", False, final_answer="Lyon"),
        run("t", False),
    ]
    assert distinct_final_answers(runs) == 3


# --- the report --------------------------------------------------------------------------------


def _three_tasks() -> list[Trajectory]:
    return (
        [run("all", True, "a") for _ in range(3)]
        + [run("one", i == 0, "a", "b" if i == 0 else "c") for i in range(3)]
        + [run("none", False, "a") for _ in range(3)]
    )


def test_report_by_hand() -> None:
    report = reliability_report(_three_tasks())
    assert report["tasks"] == 3 and report["runs"] == 9 and report["k"] == 3
    assert report["runs_per_task"] == {"min": 3, "max": 3}
    assert report["pass@1"] == pytest.approx((1 + 1 / 3 + 0) / 3)
    assert report["pass^k"] == pytest.approx({"1": 4 / 9, "2": 1 / 3, "3": 1 / 3})
    # pass@2 of "one": 1 - C(2,2)/C(3,2) = 2/3.
    assert report["pass@k"] == pytest.approx({"1": 4 / 9, "2": (1 + 2 / 3) / 3, "3": 2 / 3})
    assert report["gap_points"] == pytest.approx(100 * (4 / 9 - 1 / 3))
    assert report["pass@1_wilson"] == pytest.approx(list(wilson_by_hand(4, 9)))
    # "one" has paths a>b, a>c, a>c: 1 identical pair of 3; the others 3 of 3 each.
    assert report["identical_pair_share"] == pytest.approx(7 / 9)
    assert [t["distinct_paths"] for t in report["per_task"]] == [1, 2, 1]
    assert [f["task_id"] for f in report["flaky"]] == ["one"]
    lo, hi = report["pass^N_bootstrap"]
    assert 0.0 <= lo <= 1 / 3 <= hi <= 1.0


def test_report_with_unequal_runs_and_k_above_some_counts() -> None:
    trajs = [run("two", True), run("two", True)] + [run("three", i == 0) for i in range(3)]
    report = reliability_report(trajs)
    assert report["unequal_runs"] is True
    assert report["k"] == 2
    assert report["pass@1"] == pytest.approx((1 + 1 / 3) / 2)
    assert report["pass@1_pooled"] == pytest.approx(3 / 5)
    assert report["pass^k"]["2"] == pytest.approx((1 + 0) / 2)

    over = reliability_report(trajs, k=3)
    assert over["pass^k"]["3"] is None and over["pass@k"]["3"] is None
    assert over["gap_points"] is None and over["pass^N_bootstrap"] is None
    assert over["tasks_with_fewer_than_k_runs"] == ["two"]
    per_task = {t["task_id"]: t for t in over["per_task"]}
    assert per_task["two"]["pass^k"]["3"] is None
    assert per_task["three"]["pass^k"]["3"] == 0.0


def test_report_flaky_tasks_worst_first() -> None:
    trajs = (
        [run("mostly", i != 0, "a") for i in range(4)]
        + [run("rarely", i == 0, "a") for i in range(4)]
        + [run("half", i < 2, "a") for i in range(4)]
    )
    assert [f["task_id"] for f in reliability_report(trajs)["flaky"]] == [
        "rarely",
        "half",
        "mostly",
    ]


@pytest.mark.parametrize("k", [0, -2, True])
def test_report_rejects_bad_k(k: object) -> None:
    with pytest.raises(StatsError):
        reliability_report(_three_tasks(), k=k)  # type: ignore[arg-type]


def test_report_rejects_an_empty_task_set() -> None:
    with pytest.raises(StatsError):
        reliability_report([])


def test_report_provenance_flags_simulated_runs() -> None:
    real = run("t", True, meta={"model": "gpt-4o", "started_at": "2026-01-02T00:00:00Z"})
    sim = run("t", False, meta={"provider": "simulated", "started_at": "2026-01-01T00:00:00Z"})
    assert reliability_report([real])["provenance"]["simulated"] is False
    prov = reliability_report([real, sim])["provenance"]
    assert prov["simulated"] is True
    assert prov["models"] == ["gpt-4o"]
    assert prov["dates"] == {"first": "2026-01-01T00:00:00Z", "last": "2026-01-02T00:00:00Z"}


def test_distinct_instructions_counts_texts_not_ids() -> None:
    trajs = [run("a", True, task="Do X"), run("b", True, task="Do X"), run("c", True)]
    assert reliability_report(trajs)["distinct_instructions"] == 2
