"""Decision point vs consequence, context-driven forks and tool kinds, on planted real shapes."""

from __future__ import annotations

import pytest
from oncourse.consistency.analyzer import TaskAnalysis, analyze_runs
from oncourse.consistency.decision_words import decision_words, main_decision
from oncourse.consistency.tool_kinds import infer_tool_kinds
from oncourse.consistency.trajectory import Action, Step, Trajectory

from tests._planted_shapes import SHAPES, Truth

SEEDS = range(12)


def _decision_branch_step(a: TaskAnalysis, run_id: str) -> int:
    assert a.divergence is not None
    for branch in a.divergence.branches:
        if run_id in branch.runs:
            return branch.steps[branch.runs.index(run_id)]
    raise AssertionError(f"{run_id} is in no branch")


def _check(a: TaskAnalysis, truth: Truth) -> None:
    assert a.status == "divergent"
    assert _decision_branch_step(a, truth.run_id) == truth.decision
    assert a.divergence is not None and a.divergence.context_driven is truth.context_driven
    assert a.decision_step == a.divergence.step
    assert [c.role for c in a.candidates].count("decision") == 1
    # Never a scratch step, whatever the shape.
    kinds = a.tool_kinds
    assert all(kinds.get(b.action.tool) != "scratch" for b in a.divergence.branches)


# Replies that share a decision word and differ only in subject need meaning, not wording.
BY_MEANING = {"same_word_other_subject"}


@pytest.mark.parametrize("shape", sorted(set(SHAPES) - BY_MEANING))
@pytest.mark.parametrize("seed", SEEDS)
def test_planted_shape_decision_point(shape: str, seed: int):
    runs, truth = SHAPES[shape](seed)
    [a] = analyze_runs(runs)
    _check(a, truth)


def _hits(shape: str, seeds: range, embedder: object = None) -> int:
    hits = 0
    for seed in seeds:
        runs, truth = SHAPES[shape](seed)
        [a] = analyze_runs(runs, embedder)  # type: ignore[arg-type]
        try:
            _check(a, truth)
        except AssertionError:
            continue
        hits += 1
    return hits


@pytest.mark.slow
def test_same_word_other_subject_with_minilm():
    # The passing runs' "I can move your line to the X plan; would you like me to go ahead?"
    # and the failing runs' "Would you like me to send a survey?" both confirm: the model tells
    # their subjects apart, so the trace-back from the write reaches the proposal.
    from oncourse.memory.embedding import MiniLMEmbedder

    assert _hits("same_word_other_subject", range(24), MiniLMEmbedder()) == 24


def test_same_word_other_subject_lexically():
    # Hashed words see shared phrasing ("Got it. Would you like me to ...") as shared subject:
    # the lexical fallback reaches the proposal on most seeds, not all (measured: 18 of 24).
    assert _hits("same_word_other_subject", range(24)) >= 16


def test_lone_passing_run_scratch_steps_are_inferred_not_named():
    runs, truth = SHAPES["lone_pass_with_scratch"](3)
    [a] = analyze_runs(runs)
    scratch = {tool for tool, kind in a.tool_kinds.items() if kind == "scratch"}
    passing = next(r for r in runs if r.success)
    # The note (nothing comes back) and the calculator (a number its arguments fix) are scratch.
    assert scratch == {passing.steps[2].action.tool, passing.steps[3].action.tool}
    # The write the passing run then made is the consequence, after the decision.
    assert a.consequence_step is not None and a.decision_step is not None
    assert a.consequence is not None
    assert [b.action.tool for b in a.consequence.branches if b.successes] == [
        passing.steps[5].action.tool
    ]


def test_offer_the_user_accepts_is_the_decision_and_the_write_its_consequence():
    runs, _ = SHAPES["offer_accepted"](5)
    [a] = analyze_runs(runs)
    accepted = next(r for r in runs if not r.success)
    assert a.consequence_step == 3
    assert a.consequence is not None and a.consequence.context_driven
    [sent] = [b for b in a.consequence.branches if b.successes == 0]
    assert sent.runs == [accepted.run_id]
    assert sent.action.tool == accepted.steps[3].action.tool
    [decision] = [c for c in a.candidates if c.role == "decision"]
    assert (decision.kind, decision.step) == ("reply", 2)
    assert "proposed" in decision.why


def test_context_driven_fork_is_weighed_but_the_agent_caused_one_is_chosen():
    runs, _ = SHAPES["user_said_otherwise"](2)
    [a] = analyze_runs(runs)
    by_step = {c.step: c for c in a.candidates}
    assert by_step[1].context_driven and by_step[1].kind == "read"
    assert not by_step[3].context_driven and by_step[3].role == "decision"
    assert by_step[1].score < by_step[3].score


def test_declared_tools_override_what_the_runs_suggest():
    runs, truth = SHAPES["lone_pass_with_scratch"](1)
    passing = next(r for r in runs if r.success)
    calc = passing.steps[3].action.tool
    write = passing.steps[5].action.tool
    [a] = analyze_runs(runs, read_only_tools=[write], scratch_tools=["respond_never_called"])
    assert a.tool_kinds[write] == "read"
    assert a.tool_kinds[calc] == "scratch"
    # With the write declared a read, no write differs: no consequence, and the reply decides.
    assert a.consequence_step is None
    assert _decision_branch_step(a, truth.run_id) == truth.decision


def _step(tool: str, obs: object, **args: object) -> Step:
    return Step(action=Action(tool=tool, args=dict(args)), observation=obs)


def test_tool_kinds_from_state_changes_and_repeated_reads():
    steps = [
        _step("load_cart", '{"items": 2}', user="u1"),
        _step("add_to_cart", "ok", user="u1", item="A7"),
        _step("load_cart", '{"items": 3}', user="u1"),
        _step("load_cart", '{"items": 3}', user="u1"),
        _step("rename_file", "Error: file not found", path="a/b1"),
        _step("rename_file", "Error: file not found", path="a/b1"),
        _step("respond", "thanks", text="Done."),
    ]
    kinds = infer_tool_kinds([Trajectory(task_id="t", success=True, steps=steps)])
    # add_to_cart changed what the same load_cart call returns; load_cart repeats itself; a
    # failed call repeated proves nothing, so rename_file stays a write by default.
    assert kinds == {
        "load_cart": "read",
        "add_to_cart": "write",
        "rename_file": "write",
        "respond": "reply",
    }


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Unfortunately, this fare cannot be changed.", "refuse"),
        ("I can offer you a $50 voucher. Would you like me to proceed?", "confirm"),
        ("Could you please provide your booking number?", "ask"),
        ("I'll transfer you to a human agent now.", "transfer"),
        ("Your refund has been processed.", "done"),
        ("Your flight leaves at 9am from gate 4.", "inform"),
        ("I’m unable to remove a passenger; would you like me to transfer you?", "refuse"),
    ],
)
def test_main_decision_of_a_reply(text: str, word: str):
    assert main_decision(text) == word


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Are you ready to proceed?", "confirm"),
        ("Once you have the order number and are ready to proceed, let me know.", "inform"),
        ("Yes, a gift card works. When you're ready to proceed, just tell me.", "inform"),
        ("If you would like to proceed with the refund, please let me know.", "confirm"),
        ("I need to confirm order 12. Once you confirm, I can proceed.", "confirm"),
    ],
)
def test_a_deferral_is_not_a_request_to_confirm(text: str, word: str):
    assert main_decision(text) == word


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("You have two lines on the account. Which line should get roaming?", "ask"),
        ("What size would suit you best?", "ask"),
        ("Hi, what can I do for you?", "inform"),
        ("Which plan you pick is up to you.", "inform"),
    ],
)
def test_a_question_that_makes_the_user_choose_asks(text: str, word: str):
    assert main_decision(text) == word


def test_opposite_decisions_share_most_words():
    assert "refuse" in decision_words("I can't issue the certificate for this trip.")
    assert "refuse" not in decision_words("I can issue the certificate for this trip.")
