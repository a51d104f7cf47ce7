"""What sets the passing call apart, when no vocabulary field does: a field, a version word.

Regression (issue 10, demo): the mini-apps work-address and final-file lessons came out as
"with the to the passing runs used (runs that chose a different to failed)" — no reason a reader
could act on — because the chosen and rejected values sat in one record (two fields of a
contact) or in records told apart only by a word inside a name (x_final.pdf vs x_draft.pdf).
"""

from __future__ import annotations

import json

from oncourse.consistency.analyzer import analyze_runs
from oncourse.consistency.generators import ContrastiveGuidelineGenerator
from oncourse.consistency.trajectory import Action, Step, Trajectory


def _run(task_id: str, i: int, success: bool, steps: list[tuple[str, dict, object]]) -> Trajectory:
    return Trajectory(
        task_id=task_id,
        run_id=f"{task_id}:{i}",
        success=success,
        task="Write to Dana Lee about the quarterly review.",
        steps=[Step(action=Action(tool=t, args=a), observation=o) for t, a, o in steps],
    )


def _instruction(runs: list[Trajectory]) -> str:
    (analysis,) = analyze_runs(runs)
    assert analysis.divergence is not None
    (guideline,) = ContrastiveGuidelineGenerator().generate(analysis, runs)
    return guideline.instruction


PERSON = json.dumps(
    [
        {
            "person_id": "p_1",
            "name": "Dana Lee",
            "office_mail": "dl01@corp.example",
            "home_mail": "dana88@home.example",
        }
    ]
)


def test_two_fields_of_one_record_are_told_apart_by_field_name() -> None:
    def steps(address: str):
        return [
            ("find_person", {"query": "Dana Lee"}, PERSON),
            ("send_message", {"to": address, "text": "Quarterly review"}, "Sent."),
        ]

    runs = [
        _run("mail", i, i < 3, steps("dl01@corp.example" if i < 3 else "dana88@home.example"))
        for i in range(5)
    ]
    text = _instruction(runs)
    assert (
        "call send_message with the to from the office_mail field of the find_person result, "
        "not from its home_mail field" in text.lower()
    )
    assert "@" not in text  # the addresses themselves are never quoted


DOCS = json.dumps(
    [
        {"doc_id": "d_1", "title": "q3_report_2026_signed.pdf", "owner": "Kim"},
        {"doc_id": "d_2", "title": "q3_report_2026_wip.pdf", "owner": "Kim"},
    ]
)


def test_two_versions_of_a_name_are_told_apart_by_the_word_that_differs() -> None:
    def steps(doc: str):
        return [
            ("find_docs", {"query": "Q3 report"}, DOCS),
            ("send_doc", {"doc_id": doc, "to": "dl01@corp.example"}, "Shared."),
        ]

    runs = [_run("doc", i, i < 3, steps("d_1" if i < 3 else "d_2")) for i in range(5)]
    text = _instruction(runs)
    assert (
        "call send_doc on the doc whose title has 'signed' in it, not the one whose title has "
        "'wip'" in text.lower()
    )
    assert "q3_report" not in text and "2026" not in text


def test_proper_names_that_differ_by_a_word_teach_nothing() -> None:
    vendors = json.dumps(
        [
            {"vendor_id": "v_1", "name": "Acme Solutions", "country": "Spain"},
            {"vendor_id": "v_2", "name": "Acme Systems", "country": "Spain"},
        ]
    )

    def steps(vendor: str):
        return [
            ("find_vendor", {"query": "Acme"}, vendors),
            ("pay_vendor", {"vendor_id": vendor, "amount": 120}, "Paid."),
        ]

    runs = [_run("pay", i, i < 3, steps("v_1" if i < 3 else "v_2")) for i in range(5)]
    text = _instruction(runs)
    assert "solutions" not in text.lower() and "systems" not in text.lower()
    assert "passing runs used" in text


def test_a_chosen_item_and_a_wrong_tool_are_two_sentences_not_a_double_negation() -> None:
    invoices = json.dumps(
        [
            {"invoice_id": "inv_100", "status": "open"},
            {"invoice_id": "inv_200", "status": "paid"},
        ]
    )
    runs = [
        _run(
            "inv",
            0,
            True,
            [("list_invoices", {}, invoices), ("pay", {"invoice_id": "inv_100"}, "ok")],
        ),
        _run(
            "inv",
            1,
            True,
            [("list_invoices", {}, invoices), ("pay", {"invoice_id": "inv_100"}, "ok")],
        ),
        _run(
            "inv",
            2,
            False,
            [("list_invoices", {}, invoices), ("pay", {"invoice_id": "inv_200"}, "ok")],
        ),
        _run(
            "inv",
            3,
            False,
            [("list_invoices", {}, invoices), ("archive", {"invoice_id": "inv_100"}, "ok")],
        ),
    ]
    text = _instruction(runs)
    assert "rather than" not in text
    assert text.startswith(
        "Call pay on the invoice whose status is 'open', not the one whose status is 'paid'; "
        "do not call archive."
    )


def test_a_message_body_that_repeats_the_request_does_not_blank_out_the_trigger() -> None:
    # Regression: the body argument quoted the whole request ("Send ... "Q3 review"."), which has
    # a digit, so it was taken for a run-specific value and the trigger came out as "[value]".
    request = 'Send Dana Lee a message at their office email, subject "Q3 review".'

    def steps(address: str):
        return [
            ("find_person", {"query": "Dana Lee"}, PERSON),
            ("send_message", {"to": address, "subject": "Q3 review", "text": request}, "Sent."),
        ]

    runs = [
        _run("mail", i, i < 3, steps("dl01@corp.example" if i < 3 else "dana88@home.example"))
        for i in range(5)
    ]
    for run in runs:
        run.task = request
    (analysis,) = analyze_runs(runs)
    (guideline,) = ContrastiveGuidelineGenerator().generate(analysis, runs)
    assert "office email" in guideline.trigger
    assert "Dana Lee" not in guideline.trigger and "Q3" not in guideline.trigger
