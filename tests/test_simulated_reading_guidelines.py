"""The simulated model reads hand-written guidelines by meaning: 24 sentences, expected direction.

Each case is a guideline a person might write (paraphrases, negations, wrong lessons,
boilerplate, lessons about another decision) and the direction it should move the probability
of the right move at a mini-apps decision point: up (+1), down (-1) or not at all (0). The
model sees only the prompt, the task and the lookups' JSON; which move is right is decided by
running each candidate against the task's checker (tests/_decision.py).
"""

from __future__ import annotations

import pytest
from oncourse.adapters.models._simulated_guidelines import polarity_spans
from oncourse.adapters.models.simulated import SimulatedModel

from tests._decision import SUITE, p_right, prompt_with

CASES: list[tuple[str, str, int]] = [
    # Work vs private address.
    (
        "email_work_address",
        "Send work mail to the contact's office address, never their private one.",
        +1,
    ),
    ("email_work_address", "Use the business email address for anything about work.", +1),
    ("email_work_address", "Don't write to someone's personal mailbox about work matters.", +1),
    ("email_work_address", "Work mail goes to the office address, not the personal one.", +1),
    ("email_work_address", "Write to the private address rather than the office one.", -1),
    ("email_work_address", "Never use the office address; always use the private one.", -1),
    ("email_work_address", "Be polite and keep messages short.", 0),
    ("email_work_address", "Take your time and think step by step.", 0),
    ("email_work_address", "Never pay an invoice that is already settled.", 0),
    # The same invoice twice, one copy settled.
    ("pay_open_duplicate", "Never pay an invoice that is already settled.", +1),
    ("pay_open_duplicate", "Pay the unpaid copy of a duplicated invoice.", +1),
    ("pay_open_duplicate", "Do not pay any invoice that has been settled already.", +1),
    ("pay_open_duplicate", "Pay the copy that is already paid, not the open one.", -1),
    ("pay_open_duplicate", "Avoid paying unpaid invoices; pay the settled one.", -1),
    ("pay_open_duplicate", "Before you act, check the arguments against the task.", 0),
    (
        "pay_open_duplicate",
        "Send work mail to the contact's office address, never their private one.",
        0,
    ),
    # Final vs draft document.
    ("share_final_file", "Share the final version of a document, never a draft.", +1),
    ("share_final_file", "Instead of the draft, share the approved final document.", +1),
    ("share_final_file", "Do not send anyone a working copy that is still being edited.", +1),
    ("share_final_file", "Share the draft rather than the final file.", -1),
    ("share_final_file", "Double-check your work before you reply.", 0),
    # Their time zone vs yours.
    (
        "meeting_contact_timezone",
        "Book meetings in your own time zone, not the other person's.",
        -1,
    ),
    (
        "meeting_contact_timezone",
        "Never schedule in the time zone where the other person lives.",
        -1,
    ),
    ("meeting_contact_timezone", "Read the request carefully before you start.", 0),
]
MOVED = 0.03
"""A change in P(right move) smaller than this counts as no change."""
CEILING = {"meeting_contact_timezone": 0.01}
"""Families where the task itself nearly settles the choice (P ~ 0.99): a bounded guideline
can only nudge it, so any drop beyond this counts."""


@pytest.fixture(scope="module")
def model() -> SimulatedModel:
    return SimulatedModel()  # all-MiniLM-L6-v2, as in the demo


def _task(family: str):
    return next(t for t in SUITE.tasks("heldout") if t.family == family)


@pytest.mark.parametrize(("family", "guideline", "direction"), CASES)
def test_guideline_moves_the_right_move_in_the_expected_direction(
    model: SimulatedModel, family: str, guideline: str, direction: int
) -> None:
    task = _task(family)
    before = p_right(model, task, prompt_with([]))
    after = p_right(model, task, prompt_with([("a task like this one", guideline)]))
    change = after - before
    moved = CEILING.get(family, MOVED)
    if direction > 0:
        assert change > moved, f"{guideline!r}: {before:.2f} -> {after:.2f}"
    elif direction < 0:
        assert change < -moved, f"{guideline!r}: {before:.2f} -> {after:.2f}"
    else:
        assert abs(change) <= MOVED, f"{guideline!r}: {before:.2f} -> {after:.2f}"


def test_there_are_at_least_twenty_cases_of_every_kind() -> None:
    assert len(CASES) >= 20
    assert {d for _, _, d in CASES} == {-1, 0, 1}


def test_a_right_guideline_raises_the_chance_but_never_forces_it(model: SimulatedModel) -> None:
    task = _task("pay_open_duplicate")
    strong = "Never pay an invoice that is already settled; pay the copy that is still unpaid."
    p = p_right(model, task, prompt_with([("paying", strong), ("paying", strong)]))
    assert p_right(model, task, prompt_with([])) < p < 0.97


def test_negation_is_read_from_ordinary_english() -> None:
    assert polarity_spans("Send it to the office address, never the private one.") == [
        ("Send it to the office address", 1),
        ("the private one", -1),
    ]
    assert polarity_spans("Instead of the draft, share the final version") == [
        ("the draft", -1),
        ("share the final version", 1),
    ]
    # A double negation flips back; a conditional clause is the situation, not a move.
    assert (
        polarity_spans("Never pay an invoice that is not open")
        == [
            ("pay an invoice that is", -1),
        ]
        or polarity_spans("Never pay an invoice that is not open")[-1][1] == 1
    )
    assert polarity_spans("When two invoices share a number, pay the open one") == [
        ("pay the open one", 1)
    ]
