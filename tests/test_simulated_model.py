"""SimulatedModel: reproducible per seed, varied across seeds, blind to hidden labels, and moved by
guidelines only when their text fits the decision at hand."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from oncourse.adapters.agent import run_agent
from oncourse.adapters.models._simulated_reading import parse_guidelines, task_values
from oncourse.adapters.models.simulated import SimulatedModel
from oncourse.adapters.suites.mini_apps import mini_apps_suite
from oncourse.consistency.chat import ChatModel, Message, ModelSettings, ToolCall, ToolSpec
from oncourse.consistency.guidelines import Guideline
from oncourse.consistency.text import LexicalEmbedder
from oncourse.memory.inject import HEADER, render_guideline

SUITE = mini_apps_suite()
ROOT = Path(__file__).resolve().parents[1]

# A decision point with no wording cue: "office email" names neither `work_email` nor
# `personal_email`, so the model's own heuristics are unsure.
TASK = 'Send Maya Petrov a message at their office email, subject "Q3 budget review".'
CONTACT = {
    "contact_id": "c_1",
    "name": "Maya Petrov",
    "company": "Vandelay Industries",
    "work_email": "maya.petrov@vandelay.com",
    "personal_email": "mayapetrov76@outlook.com",
    "timezone": "Europe/Berlin",
}
TOOLS = [
    ToolSpec(
        name="search_contacts",
        description="Search the address book for contacts by name or company.",
        parameters={
            "type": "object",
            "required": ["query"],
            "properties": {
                "query": {"type": "string", "description": "Words of the contact's name."}
            },
        },
    ),
    ToolSpec(
        name="send_email",
        description="Send an email message to one recipient email address.",
        parameters={
            "type": "object",
            "required": ["to", "subject", "body"],
            "properties": {
                "to": {"type": "string", "description": "The recipient's email address."},
                "subject": {"type": "string", "description": "Subject line of the email."},
                "body": {"type": "string", "description": "Text of the email."},
            },
        },
    ),
]
RELEVANT = (
    "search_contacts has returned one result with a work_email and a personal_email",
    "When search_contacts returns one result, call send_email with the to from the work_email "
    "field of the search_contacts result rather than the personal_email field.",
)
UNRELATED = (
    "search_files has returned several results",
    "When search_files returns several results, call share_file with the file id of the "
    "final version rather than the draft.",
)


def _prompt(*guidelines: tuple[str, str]) -> str:
    base = "You complete office tasks with tools."
    if not guidelines:
        return base
    entries = [
        render_guideline(i + 1, Guideline(trigger=t, instruction=d))
        for i, (t, d) in enumerate(guidelines)
    ]
    return "\n\n".join([base, "\n".join([HEADER, *entries])])


def _after_lookup(system: str) -> list[Message]:
    call = ToolCall(id="call_1", name="search_contacts", arguments={"query": "Maya Petrov"})
    return [
        Message(role="system", content=system),
        Message(role="user", content=TASK),
        Message(role="assistant", tool_calls=[call]),
        Message(
            role="tool",
            tool_call_id="call_1",
            name="search_contacts",
            content=json.dumps([CONTACT]),
        ),
    ]


def _work_share(model: SimulatedModel, system: str, seeds: int = 40) -> tuple[float, float]:
    """(probability, sampled share over seeds) of mailing the work address at the decision."""
    messages = _after_lookup(system)
    prob = sum(
        p
        for c, p in model.distribution(messages, TOOLS)
        if c.arguments.get("to") == CONTACT["work_email"]
    )
    picks = [
        model.complete(messages, TOOLS, ModelSettings(seed=s)).tool_calls[0].arguments.get("to")
        for s in range(seeds)
    ]
    return prob, picks.count(CONTACT["work_email"]) / seeds


def test_it_is_a_chat_model_labelled_simulated() -> None:
    model = SimulatedModel(embedder=LexicalEmbedder())
    assert isinstance(model, ChatModel)
    assert (model.name, model.provider, model.simulated) == ("simulated", "simulated", True)
    reply = model.complete(_after_lookup(_prompt()), TOOLS, ModelSettings(seed=1))
    assert reply.model == "simulated" and reply.raw and reply.raw["simulated"] is True
    assert reply.usage.tokens_in > 0 and reply.usage.tokens_out > 0


def test_same_seed_same_reply_and_seeds_differ_at_a_decision_point() -> None:
    model = SimulatedModel(embedder=LexicalEmbedder())
    messages = _after_lookup(_prompt())
    first = model.complete(messages, TOOLS, ModelSettings(seed=7))
    again = SimulatedModel(embedder=LexicalEmbedder()).complete(
        messages, TOOLS, ModelSettings(seed=7)
    )
    assert first.tool_calls[0].arguments == again.tool_calls[0].arguments
    recipients = {
        model.complete(messages, TOOLS, ModelSettings(seed=s)).tool_calls[0].arguments["to"]
        for s in range(20)
    }
    assert recipients == {CONTACT["work_email"], CONTACT["personal_email"]}


def test_it_acts_from_messages_alone() -> None:
    # Only the instruction and tool specs: no task id, family, params or checker anywhere.
    model = SimulatedModel(embedder=LexicalEmbedder())
    messages = [Message(role="user", content=TASK)]
    reply = model.complete(messages, TOOLS, ModelSettings(seed=0))
    assert reply.tool_calls[0].name == "search_contacts"
    assert reply.tool_calls[0].arguments == {"query": "Maya Petrov"}


def test_it_replies_once_the_change_went_through() -> None:
    model = SimulatedModel(embedder=LexicalEmbedder())
    call = ToolCall(
        id="call_2",
        name="send_email",
        arguments={"to": CONTACT["work_email"], "subject": "Q3 budget review", "body": "Hello"},
    )
    messages = [
        *_after_lookup(_prompt()),
        Message(role="assistant", tool_calls=[call]),
        Message(
            role="tool",
            tool_call_id="call_2",
            name="send_email",
            content=json.dumps({"status": "sent"}),
        ),
    ]
    dist = model.distribution(messages, TOOLS)
    assert dist[0][0].tool == "respond" and dist[0][1] > 0.9


def test_a_failed_call_is_not_taken_for_a_done_change() -> None:
    model = SimulatedModel(embedder=LexicalEmbedder())
    call = ToolCall(
        id="call_2",
        name="send_email",
        arguments={"to": "nobody", "subject": "Q3 budget review", "body": "Hello"},
    )
    messages = [
        *_after_lookup(_prompt()),
        Message(role="assistant", tool_calls=[call]),
        Message(
            role="tool",
            tool_call_id="call_2",
            name="send_email",
            content="Error: not an email address: 'nobody'",
        ),
    ]
    dist = model.distribution(messages, TOOLS)
    assert dist[0][0].tool == "send_email"


def test_model_code_never_imports_suites_or_reads_hidden_fields() -> None:
    for name in (
        "simulated.py",
        "_simulated_policy.py",
        "_simulated_reading.py",
        "_simulated_guidelines.py",
    ):
        source = (ROOT / "adapters" / "models" / name).read_text()
        imported = [
            node.module or ""
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ImportFrom)
        ] + [
            alias.name
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Import)
            for alias in node.names
        ]
        hidden_modules = ("oncourse.adapters.suites", "oncourse.adapters.runner")
        assert not [m for m in imported if m.startswith(hidden_modules)]
        for hidden in (".params", "expected", "decision", ".family", "task_id", "check("):
            assert hidden not in source, f"{name} mentions {hidden}"


def test_reads_the_injected_guideline_block() -> None:
    system = _prompt(RELEVANT, UNRELATED)
    read = parse_guidelines(system)
    assert len(read) == 2
    assert read[0].startswith("When: search_contacts has returned") and "Do: When" in read[0]
    assert parse_guidelines("## Guidelines from earlier runs\n- When X: do Y\n- If Z, do W") == [
        "When X: do Y",
        "If Z, do W",
    ]
    assert parse_guidelines("You are helpful.\n- not a guideline") == []


def test_task_values_are_read_off_the_text() -> None:
    found = {
        (v.kind, v.value)
        for v in task_values(
            "Record a payment of $1,250.50 to Northwind Traders with reference PO-4471 on "
            "2026-12-03 at 09:30 (Europe/Berlin), cc ap@northwind.com."
        )
    }
    assert {
        ("amount", 1250.5),
        ("name", "Northwind Traders"),
        ("id", "PO-4471"),
        ("date", "2026-12-03"),
        ("time", "09:30"),
        ("timezone", "Europe/Berlin"),
        ("email", "ap@northwind.com"),
    } <= found
    assert ("name", "Record") not in found


def test_relevant_guideline_moves_the_decision_and_an_unrelated_one_does_not() -> None:
    model = SimulatedModel(embedder=LexicalEmbedder())
    p_none, share_none = _work_share(model, _prompt())
    p_rel, share_rel = _work_share(model, _prompt(RELEVANT))
    p_unrel, share_unrel = _work_share(model, _prompt(UNRELATED))
    assert 0.3 < p_none < 0.7  # genuinely unsure without help
    assert p_rel > p_none + 0.25 and share_rel >= share_none + 0.25
    assert abs(p_unrel - p_none) < 0.05 and abs(share_unrel - share_none) <= 0.1


def test_a_check_against_the_task_guideline_gives_no_boost() -> None:
    # Regression (issue 10): "check ... against the task" used to get a fixed boost toward the
    # cued value, so one content-free sentence beat the learned guidelines. It says nothing about
    # which address to use: the choice must not move.
    model = SimulatedModel(embedder=LexicalEmbedder())
    cued = 'Email Maya Petrov at their work address with the subject "Q3 budget review".'
    check = (
        "search_contacts has returned one result",
        "Before you act, check the arguments against the task.",
    )

    def p_work(system: str, task: str) -> float:
        messages = _after_lookup(system)
        messages[1] = Message(role="user", content=task)
        dist = model.distribution(messages, TOOLS)
        return sum(p for c, p in dist if c.arguments.get("to") == CONTACT["work_email"])

    for task in (cued, TASK):
        assert abs(p_work(_prompt(check), task) - p_work(_prompt(), task)) < 0.02


def test_contrary_guideline_moves_it_the_other_way() -> None:
    model = SimulatedModel(embedder=LexicalEmbedder())
    contrary = (
        RELEVANT[0],
        "When search_contacts returns one result, call send_email with the "
        "to from the personal_email field rather than the work_email field.",
    )
    p_none, _ = _work_share(model, _prompt(), seeds=1)
    p_contrary, _ = _work_share(model, _prompt(contrary), seeds=1)
    assert p_contrary < p_none - 0.25


@pytest.mark.slow
def test_guideline_effect_with_real_sentence_embeddings() -> None:
    model = SimulatedModel()  # all-MiniLM-L6-v2
    p_none, share_none = _work_share(model, _prompt())
    p_rel, share_rel = _work_share(model, _prompt(RELEVANT))
    p_unrel, _ = _work_share(model, _prompt(UNRELATED))
    assert p_rel > p_none + 0.2 and share_rel > share_none + 0.15
    assert abs(p_unrel - p_none) < 0.05


def test_higher_temperature_flattens_the_choice() -> None:
    model = SimulatedModel(embedder=LexicalEmbedder())
    messages = [Message(role="user", content=TASK)]
    cold = model.distribution(messages, TOOLS, ModelSettings(temperature=0.5))[0][1]
    hot = model.distribution(messages, TOOLS, ModelSettings(temperature=3.0))[0][1]
    floor = model.distribution(messages, TOOLS, ModelSettings(temperature=0.0))[0][1]
    assert hot < cold
    assert floor == cold  # temperature 0 is floored at min_temperature (0.5): still sampling


def test_runs_through_the_agent_loop_with_provenance() -> None:
    task = next(t for t in SUITE.tasks("train") if t.family == "email_same_name")
    model = SimulatedModel(embedder=LexicalEmbedder())
    runs = [
        run_agent(model, SUITE.make_env(task), task, system_prompt=SUITE.system_prompt, seed=s)
        for s in range(3)
    ]
    again = run_agent(model, SUITE.make_env(task), task, system_prompt=SUITE.system_prompt, seed=0)
    assert [s.action for s in again.steps] == [s.action for s in runs[0].steps]
    for traj in runs:
        assert traj.meta.simulated is True and traj.meta.model == "simulated"
        assert traj.steps[-1].action.tool == "respond" and traj.error is None
