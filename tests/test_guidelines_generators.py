"""Guideline generators: the lessons of real tau-bench forks, abstentions, the LLM generator."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from _sample import SAMPLE
from oncourse.adapters.models.scripted import ScriptedModel
from oncourse.consistency._roles import task_gist
from oncourse.consistency.analyzer import TaskAnalysis, analyze_runs, group_runs
from oncourse.consistency.errors import ConfigError
from oncourse.consistency.forks import Branch, Divergence, ForkContext, ObservationAt
from oncourse.consistency.generators import (
    ContrastiveGuidelineGenerator,
    LLMGuidelineGenerator,
    describe_observation,
    make_generator,
)
from oncourse.consistency.guidelines import GuidelineGenerator, NoGuideline
from oncourse.consistency.trajectory import Action, Step, Trajectory

DATA = SAMPLE.parent
needs_sample = pytest.mark.skipif(
    not SAMPLE.exists(), reason="shared tau-bench sample absent (../shared/data)"
)


@cache
def _sample():
    from oncourse.adapters.importers import load_trajectories

    trajs = load_trajectories([SAMPLE])
    return analyze_runs(trajs), group_runs(trajs)


@cache
def _sample_guidelines():
    analyses, groups = _sample()
    out = {}
    for analysis in analyses:
        if analysis.divergence is not None:
            generated = ContrastiveGuidelineGenerator().generate(analysis, groups[analysis.task_id])
            (out[analysis.task_id],) = generated
    return out


def run_values(path: Path) -> set[str]:
    """Every id, flight number, amount, date and name the sample's runs pass as tool arguments."""
    values: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, bool) or value is None:
            return
        elif isinstance(value, int | float):
            if abs(value) >= 10:
                values.add(str(int(value)) if float(value).is_integer() else str(value))
        elif re.search(r"\d", str(value)) or str(value)[:1].isupper():
            values.add(str(value))

    for trial in json.loads(path.read_text()):
        walk(trial["info"]["task"]["user_id"])
        for message in trial["traj"]:
            for call in message.get("tool_calls") or []:
                walk(json.loads(call["function"]["arguments"]))
    return {v for v in values if len(v) >= 2}


def test_both_generators_satisfy_the_protocol():
    assert isinstance(ContrastiveGuidelineGenerator(), GuidelineGenerator)
    assert isinstance(LLMGuidelineGenerator(ScriptedModel([])), GuidelineGenerator)
    assert isinstance(make_generator("contrastive"), ContrastiveGuidelineGenerator)
    with pytest.raises(ConfigError, match="needs a model"):
        make_generator("llm")
    with pytest.raises(ConfigError, match="unknown generator"):
        make_generator("telepathy")


# -- the public sample: each mixed task's lesson, checked against the transcripts -------------


@needs_sample
def test_sample_guidelines_carry_each_tasks_lesson():
    g = _sample_guidelines()
    assert sorted(g, key=int) == ["5", "15", "30", "40", "45"]
    # 40: the profile the agent looked up says 'regular', not the Gold tier the user claimed;
    # the one failing run issued a certificate anyway.
    assert g["40"].instruction.startswith(
        "When the get_user_details result shows membership 'regular', do not call "
        "send_certificate; tell the user why it cannot be done instead."
    )
    assert "membership is regular" in g["40"].instruction  # the passing run's own reason
    # 45: eligible per the looked-up records, the passing runs issued the certificate; a
    # failing one handed the user over instead.
    assert g["45"].instruction.startswith(
        "When the get_user_details result shows membership 'gold' and the "
        "get_reservation_details result shows insurance 'yes', call send_certificate rather "
        "than call transfer_to_human_agents."
    )
    # 30: a business-cabin reservation may be cancelled; a failing run refused and transferred.
    assert g["30"].instruction.startswith(
        "When the get_reservation_details result shows cabin 'business', call cancel_reservation "
        "rather than call transfer_to_human_agents."
    )
    assert "business class flight, it can be cancelled" in g["30"].instruction
    # 15: after the downgrade fails for lack of seats, no other change is wanted.
    assert g["15"].instruction.startswith(
        'When update_reservation_flights returns an error ("Error: not enough seats on flight '
        '[value]"), do not call cancel_reservation or update_reservation_flights again with '
        "other arguments; tell the user why it cannot be done instead."
    )
    # 5: the passing run made all three changes, after finding the reservation.
    assert g["5"].instruction.startswith(
        "Make every change the user asked for: call update_reservation_passengers, "
        "update_reservation_flights and update_reservation_baggages rather than end without them."
    )
    assert "get_reservation_details" in g["5"].instruction


@needs_sample
def test_sample_guidelines_never_rest_on_scratch_steps_or_quote_run_values():
    forbidden = run_values(SAMPLE)
    assert {"sophia_silva_7557", "HAT290"} <= forbidden  # the check would catch the obvious leaks
    for task_id, guideline in _sample_guidelines().items():
        text = " ".join([guideline.instruction, guideline.trigger, guideline.rationale])
        leaked = [v for v in forbidden if re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", text)]
        assert leaked == [], (task_id, leaked, text)
        assert not re.search(r"\b(think|calculate)\b", text), (task_id, text)
        assert "think" not in guideline.scope.tools


@needs_sample
def test_sample_triggers_come_from_what_the_agent_saw_not_the_simulator_script():
    analyses, groups = _sample()
    raw = json.loads(SAMPLE.read_text())
    for task_id, guideline in _sample_guidelines().items():
        hidden = next(t["info"]["task"]["instruction"] for t in raw if str(t["task_id"]) == task_id)
        firsts = " ".join(run.task or "" for run in groups[task_id]).lower()
        words = [w for w in re.findall(r"[a-z]{5,}", guideline.trigger.lower())]
        rewritten = {"their", "asks", "would", "needs", "wants", "themselves", "agent", "name"}
        assert words and all(w in firsts or w in rewritten for w in words), (
            task_id,
            guideline.trigger,
        )
        assert "agent asks" not in guideline.trigger and hidden[:40] not in guideline.trigger
    trigger = _sample_guidelines()["40"].trigger
    assert "flight" in trigger and "cancel" in trigger, trigger


@needs_sample
def test_sample_provenance_names_the_fork_and_its_runs():
    analyses, _ = _sample()
    for analysis in analyses:
        if analysis.divergence is None:
            continue
        provenance = _sample_guidelines()[analysis.task_id].provenance[0]
        assert provenance.source_tasks == [analysis.task_id]
        assert provenance.fork_step == analysis.divergence.step
        assert set(provenance.source_runs) == {
            r for b in analysis.divergence.branches for r in b.runs
        }
        assert provenance.generator == "contrastive"


# -- runs built by hand: any record shape, abstentions --------------------------------------------


def _run(task_id: str, i: int, success: bool, steps: list[tuple[str, dict, object]]) -> Trajectory:
    return Trajectory(
        task_id=task_id,
        run_id=f"{task_id}:{i}",
        success=success,
        task="Please pay the March invoice from our cleaning vendor.",
        steps=[Step(action=Action(tool=t, args=a), observation=o) for t, a, o in steps],
    )


INVOICES = json.dumps(
    [
        {"invoice_id": "inv_100", "status": "open", "period": "march", "total": 1250},
        {"invoice_id": "inv_200", "status": "paid", "period": "march", "total": 1250},
    ]
)


def _analyzed(runs: list[Trajectory]) -> tuple[TaskAnalysis, list[Trajectory]]:
    (analysis,) = analyze_runs(runs)
    assert analysis.divergence is not None
    return analysis, runs


def _invoice_runs() -> list[Trajectory]:
    def steps(invoice: str):
        return [
            ("list_invoices", {"vendor": "VEND-7781"}, INVOICES),
            ("pay_invoice", {"invoice_id": invoice}, "Paid."),
        ]

    return [_run("inv", i, i < 2, steps("inv_100" if i < 2 else "inv_200")) for i in range(4)]


def test_the_chosen_item_is_told_apart_by_the_fields_of_the_records_looked_up():
    analysis, runs = _analyzed(_invoice_runs())
    (guideline,) = ContrastiveGuidelineGenerator().generate(analysis, runs)
    assert guideline.instruction.startswith(
        "Call pay_invoice on the invoice whose status is 'open', not the one whose status is "
        "'paid'."
    )
    assert "inv_100" not in guideline.instruction and "1250" not in guideline.instruction


def test_nested_records_of_any_shape_are_compared_too():
    order = {
        "order_id": "#W5501",
        "items": [
            {"item_id": "100001", "options": {"color": "blue", "size": "m"}},
            {"item_id": "100002", "options": {"color": "red", "size": "m"}},
        ],
    }

    def steps(item: str):
        return [
            ("get_order_details", {"order_id": "#W5501"}, json.dumps(order)),
            ("return_items", {"order_id": "#W5501", "item_ids": [item]}, "Return started."),
        ]

    runs = [_run("ord", i, i < 2, steps("100001" if i < 2 else "100002")) for i in range(4)]
    analysis, runs = _analyzed(runs)
    (guideline,) = ContrastiveGuidelineGenerator().generate(analysis, runs)
    assert (
        "call return_items on the item whose options color is 'blue', not the one whose "
        "options color is 'red'" in guideline.instruction.lower()
    )


def test_scratch_only_contrast_is_an_abstention():
    def steps(with_note: bool):
        note = [("think", {"thought": "The invoice list has two rows; check the status."}, "")]
        return [("list_invoices", {"vendor": "V-1"}, INVOICES), *(note if with_note else [])]

    runs = [_run("note", i, i < 2, steps(i < 2)) for i in range(4)]
    (analysis,) = analyze_runs(runs)
    # A note never makes the divergence: no deciding fork, nothing to write about.
    assert analysis.status == "mixed_no_fork" and analysis.divergence is None
    assert ContrastiveGuidelineGenerator().generate(analysis, runs) == []


def test_stopping_without_content_is_an_abstention():
    def steps(reply: bool):
        said = [("respond", {"text": "Here is the list you asked for."}, "ok")]
        return [("list_invoices", {"vendor": "V-1"}, INVOICES), *(said if reply else [])]

    runs = [_run("stop", i, i < 2, steps(i < 2)) for i in range(4)]
    analysis, runs = _analyzed(runs)
    with pytest.raises(NoGuideline, match="no passing run states a reason"):
        ContrastiveGuidelineGenerator().generate(analysis, runs)


def test_a_context_driven_fork_is_an_abstention():
    # Every run asks the same question; the user's answers differ, and each run pays what its
    # user named: the fork follows what the user said, not an agent decision.
    def steps(answer: str, invoice: str):
        return [
            ("list_invoices", {"vendor": "VEND-7781"}, INVOICES),
            ("respond", {"text": "Which of the two invoices should I pay?"}, answer),
            ("pay_invoice", {"invoice_id": invoice}, "Paid."),
        ]

    runs = [
        _run("ctx", i, i < 2, steps(*pick))
        for i, pick in enumerate(
            [
                ("The open one, please.", "inv_100"),
                ("The open one, please.", "inv_100"),
                ("Pay the one from last quarter that you already settled again.", "inv_200"),
                ("Pay the one from last quarter that you already settled again.", "inv_200"),
            ]
        )
    ]
    analysis, runs = _analyzed(runs)
    assert analysis.divergence is not None and analysis.divergence.context_driven
    with pytest.raises(NoGuideline, match="context-driven"):
        ContrastiveGuidelineGenerator().generate(analysis, runs)


def test_a_refusal_in_words_carries_the_passing_runs_reason():
    account = json.dumps({"account_id": "acc-1201", "status": "frozen", "tier": "basic"})

    def steps(passing: bool):
        said = (
            "Since the account status is frozen, I can't make the transfer."
            if passing
            else "Sure, shall I go ahead and make the transfer of the full balance now?"
        )
        return [
            ("get_account", {"account_id": "acc-1201"}, account),
            ("respond", {"text": said}, "Thanks."),
        ]

    runs = [_run("acct", i, i < 2, steps(i < 2)) for i in range(4)]
    analysis, runs = _analyzed(runs)
    (guideline,) = ContrastiveGuidelineGenerator().generate(analysis, runs)
    assert guideline.instruction.startswith(
        "When the get_account result shows status 'frozen', tell the user it cannot be done and "
        "why rather than ask the user before you act."
    )
    assert "acc-1201" not in guideline.instruction


# -- without the runs: the fork's two actions ------------------------------------------------------


def _hand_analysis(observation: str = '[{"id": 1}, {"id": 2}]', benign=()) -> TaskAnalysis:
    win = Action(tool="pay_invoice", args={"invoice_id": "INV-20931", "amount": 1250.0})
    lose = Action(tool="pay_invoice", args={"invoice_id": "INV-20944", "amount": 1250.0})
    context = ForkContext(
        task="Pay the March invoice from Contoso for $1250 (vendor id VEND-7781).",
        preceding_observations=[
            ObservationAt(run_id="r1", step=1, tool="list_invoices", observation=observation)
        ],
        shared_prefix=[Action(tool="list_invoices", args={"vendor": "VEND-7781"})],
        alternatives=[win, lose],
    )
    divergence = Divergence(
        step=2,
        column=2,
        kind="action",
        effect="separating",
        branches=[
            Branch(action=win, runs=["r1", "r2"], successes=2, success_rate=1.0, steps=[2, 2]),
            Branch(action=lose, runs=["r3", "r4"], successes=0, success_rate=0.0, steps=[2, 2]),
        ],
        p_value=0.33,
        separation=1.0,
        context=context,
        perfect=True,
    )
    return TaskAnalysis(
        task_id="inv-1",
        n_runs=4,
        n_success=2,
        status="divergent",
        divergence=divergence,
        benign_forks=list(benign),
        run_ids=["r1", "r2", "r3", "r4"],
    )


def test_without_runs_the_fork_is_contrasted_by_roles_not_values():
    (guideline,) = ContrastiveGuidelineGenerator().generate(_hand_analysis())
    text = guideline.instruction + guideline.trigger
    for value in ("INV-20931", "INV-20944", "1250", "VEND-7781", "Contoso"):
        assert value not in text
    assert guideline.instruction.startswith("When list_invoices returns several results, ")
    assert "check the invoice id against the task before you call pay_invoice" in text
    assert "the amount stated in the task" in text
    assert "(vendor id [id])" in guideline.trigger
    assert guideline.scope.tools == ["list_invoices", "pay_invoice"]


@pytest.mark.parametrize(
    ("observation", "shape"),
    [
        ("[]", "no results"),
        ('[{"a": 1}]', "one result"),
        ('{"reservations": ["X1", "X2"], "name": "Ann"}', "a record with several reservations"),
        ("Error: reservation not found", "an error"),
        ("Thanks, that works", "a text reply"),
    ],
)
def test_observation_shapes(observation, shape):
    from oncourse.consistency._roles import parse_observation

    assert describe_observation(parse_observation(observation)) == shape


def test_task_gist_abstracts_values():
    gist = task_gist(
        "You are mia_li_3668. You want to fly from New York to Seattle on May 20 (one way). "
        "You do not want to fly before 11am est."
    )
    assert gist == "The user wants to fly from [name] to [name] on [date] (one way)"


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        ("Yes, please go ahead with the cancellation.", "confirms"),
        ("No, I don't want insurance.", "declines"),
        ("Could you check the later flight instead?", "asks a question"),
        ("My user id is on the booking.", "replies"),
    ],
)
def test_user_replies_are_described_by_what_they_do(reply, kind):
    from oncourse.consistency.generators import describe_user_reply

    assert describe_user_reply(reply)[0] == kind


def test_a_flag_sets_the_chosen_item_apart_when_nothing_else_does():
    product = {
        "product_id": "6086499569",
        "variants": {
            "1434748144": {"item_id": "1434748144", "options": {"size": "m"}, "available": True},
            "9612497925": {"item_id": "9612497925", "options": {"size": "m"}, "available": False},
        },
    }

    def steps(item: str):
        return [
            ("get_product_details", {"product_id": "6086499569"}, json.dumps(product)),
            ("exchange_items", {"order_id": "#W7", "new_item_ids": [item]}, "Exchanged."),
        ]

    runs = [
        _run("swap", i, i < 2, steps("1434748144" if i < 2 else "9612497925")) for i in range(4)
    ]
    analysis, runs = _analyzed(runs)
    (guideline,) = ContrastiveGuidelineGenerator().generate(analysis, runs)
    assert (
        "call exchange_items on the new item whose available is true, not the one whose "
        "available is false" in guideline.instruction.lower()
    )
