"""Guideline generators: contrastive from real tau-bench forks, LLM with a scripted model."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from oncourse.adapters.models.scripted import ScriptedModel
from oncourse.consistency._roles import task_gist
from oncourse.consistency.errors import ConfigError, ModelCallError
from oncourse.consistency.forks import Branch, Divergence, ForkContext, ObservationAt
from oncourse.consistency.generators import (
    ContrastiveGuidelineGenerator,
    LLMGuidelineGenerator,
    describe_observation,
    make_generator,
)
from oncourse.consistency.guidelines import GuidelineGenerator
from oncourse.consistency.trajectory import Action

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SAMPLE = DATA / "tau-bench-airline-gpt-4o-sample.json"
needs_sample = pytest.mark.skipif(
    not SAMPLE.exists(), reason="shared tau-bench sample absent (../shared/data)"
)


@cache
def _sample_analyses():
    from oncourse.adapters.importers import load_trajectories
    from oncourse.consistency.analyzer import analyze_runs

    return analyze_runs(load_trajectories([SAMPLE]))


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


def _hand_divergence(observation: str = '[{"id": 1}, {"id": 2}]') -> Divergence:
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
    return Divergence(
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


class _Analysis:
    """A TaskAnalysis-shaped object (the generator reads attributes only)."""

    def __init__(self, divergence, benign_forks=()):
        self.task_id = "inv-1"
        self.divergence = divergence
        self.benign_forks = list(benign_forks)


def test_both_generators_satisfy_the_protocol():
    assert isinstance(ContrastiveGuidelineGenerator(), GuidelineGenerator)
    assert isinstance(LLMGuidelineGenerator(ScriptedModel([])), GuidelineGenerator)
    assert isinstance(make_generator("contrastive"), ContrastiveGuidelineGenerator)
    with pytest.raises(ConfigError, match="needs a model"):
        make_generator("llm")
    with pytest.raises(ConfigError, match="unknown generator"):
        make_generator("telepathy")


@needs_sample
def test_contrastive_on_real_forks_one_guideline_per_divergent_task_without_run_values():
    analyses = _sample_analyses()
    divergent = [a for a in analyses if a.divergence is not None]
    assert divergent, "the sample has mixed-outcome tasks"
    forbidden = run_values(SAMPLE)
    assert {"mia_li_3668", "HAT136"} <= forbidden  # the check would catch the obvious leaks
    generator = ContrastiveGuidelineGenerator()
    for analysis in divergent:
        (guideline,) = generator.generate(analysis)
        text = " ".join([guideline.instruction, guideline.trigger, guideline.rationale])
        leaked = [v for v in forbidden if re.search(rf"(?<!\w){re.escape(v)}(?!\w)", text)]
        assert leaked == [], (analysis.task_id, leaked, text)
        win = max(analysis.divergence.branches, key=lambda b: b.success_rate)
        assert guideline.instruction.endswith(".")
        assert " rather than " in guideline.instruction or "a different" in guideline.instruction
        assert guideline.provenance[0].source_tasks == [analysis.task_id]
        assert guideline.provenance[0].fork_step == analysis.divergence.step
        assert max(guideline.provenance[0].branch_success_rates.values()) == win.success_rate
        assert set(guideline.provenance[0].source_runs) == {
            r for b in analysis.divergence.branches for r in b.runs
        }
    assert all(not generator.generate(a) for a in analyses if a.divergence is None)


def test_contrastive_names_roles_not_values_when_only_arguments_differ():
    (guideline,) = ContrastiveGuidelineGenerator().generate(_Analysis(_hand_divergence()))
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


VALID = json.dumps(
    {
        "instruction": "When several unpaid invoices match, pay the one whose period the user "
        "named rather than the first listed.",
        "trigger": "The invoice list returns several unpaid invoices from the same vendor",
        "rationale": "Runs that paid the first listed invoice failed.",
        "tools": ["pay_invoice"],
    }
)


def test_llm_generator_retries_invalid_output_then_accepts():
    model = ScriptedModel(["Sure! Here is a guideline: be careful.", "```json\n" + VALID + "\n```"])
    (guideline,) = LLMGuidelineGenerator(model, max_retries=2).generate(
        _Analysis(_hand_divergence())
    )
    assert guideline.trigger.startswith("The invoice list returns")
    assert guideline.provenance[0].generator == "llm"
    assert guideline.provenance[0].model == "scripted"
    assert len(model.requests) == 2
    retry = model.requests[1].messages
    assert retry[-2].content.startswith("Sure!")  # its own bad reply was shown back
    assert "invalid guideline JSON" in retry[-1].content


def test_llm_generator_rejects_quoted_run_values_and_gives_up_after_the_retries():
    leaky = json.dumps(
        {
            "instruction": "Pay invoice INV-20931 for Contoso.",
            "trigger": "Paying Contoso invoices",
            "rationale": "",
            "tools": [],
        }
    )
    model = ScriptedModel([leaky, leaky, "{}"])
    with pytest.raises(ModelCallError, match="invalid_output.*after 3 attempts") as info:
        LLMGuidelineGenerator(model, max_retries=2).generate(_Analysis(_hand_divergence()))
    assert info.value.kind == "invalid_output"
    assert len(model.requests) == 3
    assert "INV-20931" in model.requests[1].messages[-1].content  # told what it leaked


def test_llm_prompt_carries_the_fork_context():
    model = ScriptedModel([VALID])
    benign = _hand_divergence()
    generator = LLMGuidelineGenerator(model)
    generator.generate(_Analysis(_hand_divergence(), benign_forks=[benign]))
    sent = json.loads(model.requests[0].messages[1].content)
    assert sent["task_instruction"].startswith("Pay the March invoice")
    assert sent["preceding_tool"] == "list_invoices"
    assert sent["winning_action"]["tool"] == "pay_invoice"
    assert sent["winning_success_rate"] == 1.0
    assert [a["success_rate"] for a in sent["losing_actions"]] == [0.0]
    assert len(sent["benign_forks_to_ignore"]) == 1
    assert model.requests[0].settings.temperature == 0.0


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
