"""Consistency Analyzer on hand-built runs: every status, benign forks, first/last-step forks."""

from __future__ import annotations

import uuid
from math import comb

import pytest
from oncourse.consistency.align import align_runs
from oncourse.consistency.analyzer import TaskAnalysis, analyze_runs
from oncourse.consistency.canonical import CanonicalConfig, Canonicaliser
from oncourse.consistency.forks import NO_STEP, best_split, fisher_p
from oncourse.consistency.trajectory import Action, Step, Trajectory

Spec = tuple  # (tool, args) or (tool, args, observation)


def run(task: str, rid: str, success: bool, *steps: Spec, text: str = "Help me.") -> Trajectory:
    made = []
    for spec in steps:
        tool, args = spec[0], spec[1]
        obs = spec[2] if len(spec) > 2 else f"{tool} ok"
        made.append(Step(action=Action(tool=tool, args=args), observation=obs))
    return Trajectory(task_id=task, run_id=rid, success=success, steps=made, task=text)


def one(trajs: list[Trajectory], **kwargs) -> TaskAnalysis:
    analyses = analyze_runs(trajs, **kwargs)
    assert len(analyses) == 1
    return analyses[0]


def hyper_p(a: int, b: int, c: int, d: int) -> float:
    """Two-sided Fisher p computed by hand: sum of hypergeometric tables no likelier than ours."""
    row1, col1, n = a + b, a + c, a + b + c + d

    def prob(x: int) -> float:
        return comb(col1, x) * comb(n - col1, row1 - x) / comb(n, row1)

    observed = prob(a)
    lo, hi = max(0, row1 + col1 - n), min(row1, col1)
    return sum(prob(x) for x in range(lo, hi + 1) if prob(x) <= observed * (1 + 1e-7))


LOOKUP = ("get_order", {"order_id": "A1"})
USER = ("get_user", {"user_id": "u7"})
REFUND = ("refund_order", {"order_id": "A1", "amount": 20})
CANCEL = ("cancel_order", {"order_id": "A1"})
DONE = ("respond", {"text": "Your request is complete."})


# -- statuses ------------------------------------------------------------------------------------


def test_identical_successful_runs_are_consistent_pass():
    trajs = [run("t", f"t:{i}", True, USER, LOOKUP, REFUND, DONE) for i in range(3)]
    a = one(trajs)
    assert (a.status, a.n_runs, a.n_success, a.divergence, a.n_forks) == (
        "consistent_pass",
        3,
        3,
        None,
        0,
    )
    assert a.distinct_paths == 1


def test_successful_runs_on_different_paths_are_fragile_with_benign_forks():
    trajs = [
        run("t", "t:0", True, USER, LOOKUP, REFUND, DONE),
        run("t", "t:1", True, USER, LOOKUP, ("get_policy", {"topic": "refunds"}), REFUND, DONE),
    ]
    a = one(trajs)
    assert a.status == "fragile"
    assert a.divergence is None
    [fork] = a.benign_forks
    # The extra lookup is one gap column; the refund after it is still aligned (no shift).
    assert (fork.step, fork.column) == (2, 2)
    tools = {b.action.tool: b.runs for b in fork.branches}
    assert tools == {"get_policy": ["t:1"], NO_STEP: ["t:0"]}
    assert a.n_forks == 1


def test_identical_actions_with_mixed_outcomes_are_mixed_no_fork():
    trajs = [run("t", f"t:{i}", i < 2, USER, LOOKUP, REFUND, DONE) for i in range(4)]
    a = one(trajs)
    assert (a.status, a.n_success, a.divergence, a.n_forks) == ("mixed_no_fork", 2, None, 0)


def test_mixed_outcomes_whose_only_fork_is_benign_are_mixed_no_fork():
    extra = ("get_policy", {"topic": "refunds"})
    trajs = [
        run("t", "t:0", True, USER, extra, LOOKUP, REFUND),
        run("t", "t:1", False, USER, extra, LOOKUP, REFUND),
        run("t", "t:2", True, USER, LOOKUP, REFUND),
        run("t", "t:3", False, USER, LOOKUP, REFUND),
    ]
    a = one(trajs)
    assert a.status == "mixed_no_fork"
    assert [f.step for f in a.benign_forks] == [1]


def test_all_failing_identical_runs_report_the_common_failing_step():
    trajs = []
    for i in range(3):
        traj = run("t", f"t:{i}", False, USER, LOOKUP, REFUND, DONE)
        traj.steps[2].error = "payment declined"
        trajs.append(traj)
    a = one(trajs)
    assert a.status == "consistent_fail"
    assert a.failing_step == 2


def test_all_failing_runs_on_different_paths_have_no_common_failing_step():
    trajs = [
        run("t", "t:0", False, USER, LOOKUP, REFUND),
        run("t", "t:1", False, USER, LOOKUP, CANCEL),
    ]
    a = one(trajs)
    assert a.status == "consistent_fail"
    assert a.failing_step is None
    assert a.divergence is None
    assert len(a.benign_forks) == 1


# -- fork position and the outcome contrast --------------------------------------------------------


def test_fork_at_the_first_step():
    trajs = [
        run("t", "t:0", True, LOOKUP, REFUND, DONE),
        run("t", "t:1", True, LOOKUP, REFUND, DONE),
        run("t", "t:2", False, USER, REFUND, DONE),
        run("t", "t:3", False, USER, REFUND, DONE),
    ]
    a = one(trajs)
    assert a.status == "divergent"
    d = a.divergence
    assert (d.step, d.column, d.kind, d.perfect) == (0, 0, "action", True)
    assert [(b.action.tool, b.runs, b.successes, b.success_rate) for b in d.branches] == [
        ("get_order", ["t:0", "t:1"], 2, 1.0),
        ("get_user", ["t:2", "t:3"], 0, 0.0),
    ]
    assert d.p_value == pytest.approx(hyper_p(2, 0, 0, 2))
    assert d.p_value == pytest.approx(1 / 3)
    assert d.context.shared_prefix == []
    assert [o.step for o in d.context.preceding_observations] == [-1, -1]


def test_fork_at_the_last_step_carries_prefix_and_preceding_observations():
    trajs = [
        run("t", "t:0", True, USER, ("get_order", {"order_id": "A1"}, "2 orders: A1, B2"), REFUND),
        run("t", "t:1", False, USER, ("get_order", {"order_id": "A1"}, "2 orders: A1, B2"), CANCEL),
        run("t", "t:2", True, USER, ("get_order", {"order_id": "A1"}, "2 orders: A1, B2"), REFUND),
    ]
    a = one(trajs)
    d = a.divergence
    assert (a.status, d.step, d.column) == ("divergent", 2, 2)
    assert [b.action.tool for b in d.branches] == ["refund_order", "cancel_order"]
    assert [a.tool for a in d.context.shared_prefix] == ["get_user", "get_order"]
    assert [(o.run_id, o.step, o.observation) for o in d.context.preceding_observations] == [
        ("t:0", 1, "2 orders: A1, B2"),
        ("t:1", 1, "2 orders: A1, B2"),
    ]
    assert d.context.task == "Help me."
    assert [x.tool for x in d.context.alternatives] == ["refund_order", "cancel_order"]
    assert d.p_value == pytest.approx(hyper_p(2, 0, 0, 1))


def test_run_that_stops_early_is_its_own_branch():
    trajs = [
        run("t", "t:0", True, USER, LOOKUP, REFUND),
        run("t", "t:1", True, USER, LOOKUP, REFUND),
        run("t", "t:2", False, USER, LOOKUP),
    ]
    d = one(trajs).divergence
    assert (d.step, [b.action.tool for b in d.branches]) == (2, ["refund_order", NO_STEP])
    assert d.branches[1].steps == [-1]


def test_best_split_of_three_branches_matches_hand_fisher():
    # branches (sorted best first): 2/2, 0/1, 0/2 -> best split {first} vs rest = [[2,0],[0,3]]
    separation, p, cut = best_split([2, 1, 2], [2, 0, 0])
    assert (separation, cut) == (1.0, 1)
    assert p == pytest.approx(hyper_p(2, 0, 0, 3))
    assert p == pytest.approx(0.1)
    assert fisher_p(3, 1, 1, 3) == pytest.approx(hyper_p(3, 1, 1, 3))


def test_earliest_separating_fork_wins_over_a_weaker_earlier_one():
    # Step 1 splits {0,1,2} (2 of 3 pass) from {3} (fails): no better than guessing "pass".
    # Step 3 separates perfectly.
    trajs = [
        run("t", "t:0", True, USER, LOOKUP, DONE, REFUND),
        run("t", "t:1", True, USER, LOOKUP, DONE, REFUND),
        run("t", "t:2", False, USER, LOOKUP, DONE, CANCEL),
        run("t", "t:3", True, USER, ("get_order", {"order_id": "B2"}), DONE, REFUND),
    ]
    a = one(trajs)
    assert a.divergence.step == 3
    assert a.divergence.perfect


# -- benign forks must not be chosen as the divergence ---------------------------------------------


def test_swapped_read_only_calls_are_not_a_fork():
    trajs = [
        run("t", "t:0", True, USER, LOOKUP, REFUND),
        run("t", "t:1", True, LOOKUP, USER, REFUND),
        run("t", "t:2", False, LOOKUP, USER, CANCEL),
        run("t", "t:3", False, USER, LOOKUP, CANCEL),
    ]
    a = one(trajs)
    assert a.n_forks == 1
    assert a.divergence.step == 2
    # The step index is the run's own: both orders reach the fork at step 2.
    assert a.divergence.branches[0].steps == [2, 2]


def test_swapped_writes_are_a_fork_of_kind_shift():
    notify = ("send_email", {"to": "u7"})
    trajs = [
        run("t", "t:0", True, REFUND, notify),
        run("t", "t:1", False, notify, REFUND),
    ]
    analyses = analyze_runs(trajs)
    kinds = {f.kind for f in analyses[0].benign_forks} | {analyses[0].divergence.kind}
    assert kinds == {"shift"}


def test_extra_harmless_step_does_not_shift_later_steps():
    weather = ("get_weather", {"city": "Oslo"})
    trajs = [
        run("t", "t:0", True, USER, LOOKUP, weather, ("check_stock", {"sku": 9}), REFUND),
        run("t", "t:1", True, USER, LOOKUP, ("check_stock", {"sku": 9}), REFUND),
        run("t", "t:2", False, USER, LOOKUP, weather, ("check_stock", {"sku": 9}), CANCEL),
        run("t", "t:3", False, USER, LOOKUP, ("check_stock", {"sku": 9}), CANCEL),
    ]
    a = one(trajs)
    assert a.status == "divergent"
    # The refund/cancel fork: step 3 in the runs without the extra lookup (4 in the others).
    assert a.divergence.step == 3
    assert sorted(a.divergence.branches[0].steps) == [3, 4]
    [benign] = a.benign_forks
    assert benign.step == 2
    assert {b.action.tool: b.success_rate for b in benign.branches} == {
        "get_weather": 0.5,
        NO_STEP: 0.5,
    }


def test_per_run_ids_from_a_write_are_masked():
    def booked(rid: str, success: bool, code: str, last: Spec) -> Trajectory:
        request = str(uuid.uuid5(uuid.NAMESPACE_DNS, rid))  # a fresh uuid per run
        return run(
            "t",
            rid,
            success,
            USER,
            ("book_trip", {"to": "Oslo"}, {"reservation_id": code, "status": "ok"}),
            ("get_reservation", {"reservation_id": code}),
            ("add_bag", {"reservation_id": code, "request_id": request}),
            last,
        )

    trajs = [
        booked("t:0", True, "ZX81QA", DONE),
        booked("t:1", False, "KP22LM", ("respond", {"text": "I could not add the bag, sorry."})),
        booked("t:2", True, "QQ90RT", DONE),
        booked("t:3", False, "LM55NB", ("respond", {"text": "I could not add the bag, sorry."})),
    ]
    a = one(trajs)
    assert a.n_forks == 1
    assert a.divergence.step == 4
    assert a.volatile_ids == {
        "t:0": ["ZX81QA"],
        "t:1": ["KP22LM"],
        "t:2": ["QQ90RT"],
        "t:3": ["LM55NB"],
    }


def test_ids_picked_from_a_shared_lookup_are_not_masked():
    listing = ("list_reservations", {"user_id": "u7"}, '["AB12CD", "EF34GH"]')
    trajs = [
        run("t", "t:0", True, listing, ("cancel_reservation", {"reservation_id": "AB12CD"})),
        run("t", "t:1", False, listing, ("cancel_reservation", {"reservation_id": "EF34GH"})),
    ]
    a = one(trajs)
    assert a.divergence is not None
    assert a.divergence.step == 1
    assert a.volatile_ids == {}


def test_reply_forks_rank_after_tool_call_forks():
    trajs = [
        run("t", "t:0", True, ("respond", {"text": "Which order do you mean?"}), LOOKUP, REFUND),
        run("t", "t:1", True, ("respond", {"text": "Which order do you mean?"}), LOOKUP, REFUND),
        run(
            "t",
            "t:2",
            False,
            ("respond", {"text": "Please hold while I transfer you."}),
            LOOKUP,
            CANCEL,
        ),
    ]
    a = one(trajs)
    assert a.divergence.step == 2
    assert a.divergence.kind == "action"


def test_reworded_replies_with_lexical_fallback_match_when_wording_is_close():
    texts = [
        "Sure! Your refund is on its way.",
        "Your refund is on its way.",
        "Your refund is on its way!",
        "Of course. Your refund is on its way.",
    ]
    trajs = [
        run(
            "t",
            f"t:{i}",
            i % 2 == 0,
            USER,
            ("respond", {"text": texts[i]}),
            REFUND if i % 2 == 0 else CANCEL,
        )
        for i in range(4)
    ]
    a = one(trajs)
    assert a.n_forks == 1
    assert a.divergence.step == 2


@pytest.mark.slow
def test_reworded_replies_compared_by_meaning_with_minilm():
    from oncourse.memory.embedding import MiniLMEmbedder

    replies = [
        "I have cancelled your order and the refund is on its way.",
        "Your order has been cancelled, and your refund is on its way.",
        "I've cancelled the order; you will get your money back soon.",
        "The order is now cancelled and your refund has been started.",
    ]
    trajs = [
        run(
            "t",
            f"t:{i}",
            i in (0, 3),
            USER,
            LOOKUP,
            ("respond", {"text": replies[i]}),
            ("get_feedback", {"ask": True}) if i in (0, 3) else ("close_ticket", {"ask": False}),
        )
        for i in range(4)
    ]
    with_meaning = one(trajs, embedder=MiniLMEmbedder())
    assert with_meaning.n_forks == 1
    assert with_meaning.divergence.step == 3
    # The lexical fallback does not see these paraphrases as the same reply.
    by_words = one(trajs)
    assert by_words.n_forks > 1


# -- canonicalisation and alignment ----------------------------------------------------------------


def test_canonical_args_ignore_key_order_whitespace_case_and_number_form():
    canon = Canonicaliser(CanonicalConfig())
    trajs = [
        run("t", "a", True, ("set_cabin", {"cabin": " Economy ", "count": 2.0, "id": "FQ8APE"})),
        run("t", "b", True, ("set_cabin", {"id": "FQ8APE", "count": 2, "cabin": "economy"})),
        run("t", "c", True, ("set_cabin", {"id": "fq8ape", "count": "2", "cabin": "economy"})),
    ]
    sigs = [r.sigs[0] for r in canon.task(trajs).runs]
    assert sigs[0] == sigs[1]
    assert sigs[2] != sigs[0]  # ids keep their case


def test_volatile_patterns_mask_uuids_and_timestamps():
    canon = Canonicaliser()
    trajs = [
        run(
            "t",
            "a",
            True,
            ("log", {"at": "2024-05-01T10:00:00Z", "req": "123e4567-e89b-12d3-a456-426614174000"}),
        ),
        run(
            "t",
            "b",
            True,
            ("log", {"at": "2024-06-02 11:30:15", "req": "9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f"}),
        ),
        run("t", "c", True, ("log", {"at": "2024-06-02", "req": "9f8e7d6c"})),
    ]
    sigs = [r.sigs[0] for r in canon.task(trajs).runs]
    assert sigs[0] == sigs[1] != sigs[2]


def test_alignment_maps_each_run_to_columns():
    al = align_runs([[1, 2, 3], [1, 9, 2, 3], [1, 2, 3]], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    assert al.n_columns == 4
    assert al.columns == [[0, 2, 3], [0, 1, 2, 3], [0, 2, 3]]
    assert al.matrix.tolist() == [[1, -1, 2, 3], [1, 9, 2, 3], [1, -1, 2, 3]]


def test_alignment_of_identical_runs_is_the_identity():
    al = align_runs([[4, 5], [4, 5]], [0] * 6)
    assert al.columns == [[0, 1], [0, 1]]


def test_json_dump_has_the_contract_keys():
    trajs = [
        run("t", "t:0", True, USER, REFUND),
        run("t", "t:1", False, USER, CANCEL),
    ]
    data = one(trajs).model_dump(mode="json")
    assert {"task_id", "n_runs", "n_success", "status", "divergence", "benign_forks"} <= set(data)
    div = data["divergence"]
    assert {"step", "column", "context", "branches", "p_value"} <= set(div)
    assert {"task", "preceding_observations", "shared_prefix"} <= set(div["context"])
    branch = div["branches"][0]
    assert {"action", "runs", "successes", "success_rate"} <= set(branch)
    assert set(branch["action"]) == {"tool", "args"}
    assert branch == {**branch, "runs": ["t:0"], "successes": 1, "success_rate": 1.0}


def test_tasks_are_reported_in_input_order_and_runs_without_ids_are_named():
    trajs = [
        Trajectory(task_id="b", success=True, steps=[Step(action=Action(tool="x"))]),
        Trajectory(task_id="a", success=True, steps=[Step(action=Action(tool="x"))]),
        Trajectory(task_id="b", success=False, steps=[Step(action=Action(tool="y"))]),
    ]
    analyses = analyze_runs(trajs)
    assert [a.task_id for a in analyses] == ["b", "a"]
    assert analyses[0].run_ids == ["b#0", "b#2"] or analyses[0].run_ids == ["b#0", "b#1"]
    assert analyze_runs([]) == []


def test_workers_give_the_same_result_as_one_process():
    trajs = []
    for t in range(450):
        trajs += [
            run(f"t{t}", f"t{t}:0", True, USER, LOOKUP, REFUND),
            run(f"t{t}", f"t{t}:1", t % 3 == 0, USER, LOOKUP, CANCEL if t % 2 else REFUND),
        ]
    single = [a.model_dump(mode="json") for a in analyze_runs(trajs)]
    double = [a.model_dump(mode="json") for a in analyze_runs(trajs, workers=2)]
    assert single == double


def test_extra_lookup_in_the_only_failing_run_ranks_after_a_different_write():
    # The extra read separates the outcomes as well as the write does (one failing run), but an
    # extra lookup changes nothing: the write is the divergence.
    weather = ("get_weather", {"city": "Oslo"})
    trajs = [run("t", f"t:{i}", True, USER, LOOKUP, REFUND) for i in range(3)]
    trajs.append(run("t", "t:3", False, USER, weather, LOOKUP, CANCEL))
    a = one(trajs)
    assert a.n_forks == 2
    assert (a.divergence.step, a.divergence.kind) == (2, "action")
    assert sorted(a.divergence.branches[0].steps + a.divergence.branches[1].steps) == [2, 2, 2, 3]


def test_free_text_scan_finds_what_the_templates_hold():
    # The worker path embeds texts found by a quick scan; they must be the templates' texts.
    canon = Canonicaliser()
    trajs = [
        run(
            "t",
            "a",
            True,
            ("respond", {"text": "  Sure,   your refund\nis on its way.  "}),
            (
                "note",
                {
                    "items": [{"why": "the user asked twice for a refund on 2024-05-01T10:00"}],
                    "short": "two words",
                },
            ),
            ("think", {"thought": "ok"}),
        ),
    ]
    templates = canon.templates(trajs)
    held = [x for run_t in templates for t in run_t for x in t.texts]
    assert sorted(canon.free_texts(trajs)) == sorted(held)
    assert "the user asked twice for a refund on <timestamp>" in held
    assert "Sure, your refund is on its way." in held
