"""Write every shape of guideline `oncourse learn` writes, as `--lessons` for calibrate_screen.

The meaning layer reads tool and field names as `T` (`encoder_view`), so what a guideline says to
it is the generator's wording around the names: how many writes are missing, whether another
tool is turned down, a fact the passing runs cited, a failed write before the decision, a lookup
to make first, a stated reason. A fit that saw a few dozen learned guidelines read
"make every change the user asked for: call T, T and T ..." at 0.905 and, after a failed write,
at 0.99: a guideline learn writes for every user whose runs miss several changes was quarantined.

This script runs the generator itself (`lesson_text`) over a grid of such evidence in several
invented domains and writes one guideline per line, `{"instruction": ...}`, so the shapes follow
the generator when its wording changes. Domains `HELD_OUT` are not written: the test of ordinary
guidance (`tests/test_memory_screen_meaning.py`) reads the same grid with their words, which the
fit never saw.

    python bench/lesson_shapes.py [--out bench/data/lesson_shapes.jsonl]
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from oncourse.consistency._records import RecordFact
from oncourse.consistency.generators import lesson_text
from oncourse.consistency.lessons import LessonEvidence, WriteEffect

OUT = Path(__file__).parent / "data" / "lesson_shapes.jsonl"


@dataclass(frozen=True)
class Domain:
    """Invented tools and words of one kind of agent (no benchmark's)."""

    writes: tuple[str, ...]
    others: tuple[str, ...]
    lookup: str
    field: str
    values: tuple[str, str]
    item: str
    error: str
    request: str
    reason: str


DOMAINS = {
    "shop": Domain(
        ("change_item_size", "set_delivery_address", "switch_payment_card", "add_gift_note"),
        ("open_support_case", "refund_whole_basket"),
        "read_basket",
        "state",
        ("open", "shipped"),
        "parcel",
        "Error: basket already dispatched",
        "The user wants to change a basket",
        "Since the basket has not left the warehouse, I can still change it for you.",
    ),
    "clinic": Domain(
        ("move_appointment", "update_contact_phone", "attach_referral_letter", "set_reminder"),
        ("cancel_appointment", "hand_over_to_reception"),
        "find_patient_booking",
        "booking_kind",
        ("routine", "urgent"),
        "visit",
        "Error: slot no longer free",
        "The patient wants to rearrange a visit",
        "Because the visit is routine, it can move to any free slot this month.",
    ),
    "telecom": Domain(
        ("change_tariff", "add_data_bundle", "update_billing_email", "port_number_in"),
        ("suspend_line", "transfer_to_retention"),
        "get_line_details",
        "contract_type",
        ("monthly", "fixed_term"),
        "line",
        "Error: bundle not allowed on this tariff",
        "The customer wants to change a mobile plan",
        "As the line is on a monthly contract, the tariff can change today.",
    ),
    "travel": Domain(
        ("change_seat", "add_checked_bag", "update_passenger_name", "rebook_leg"),
        ("cancel_trip", "escalate_to_desk"),
        "load_itinerary",
        "fare_class",
        ("flexible", "basic"),
        "leg",
        "Error: fare rules forbid the change",
        "The traveller wants to change an itinerary",
        "Since the fare is flexible, the leg can be rebooked without a fee.",
    ),
    "bank": Domain(
        (
            "raise_card_limit",
            "update_postal_address",
            "order_replacement_card",
            "set_travel_notice",
        ),
        ("freeze_account", "open_dispute"),
        "fetch_account",
        "account_status",
        ("active", "frozen"),
        "card",
        "Error: card blocked for review",
        "The account holder wants to change card settings",
        "The account is active, so the limit change can go through now.",
    ),
    # Held out: read only by the test.
    "library": Domain(
        ("renew_loan", "place_hold", "update_member_email", "waive_late_fee"),
        ("close_membership", "refer_to_branch"),
        "lookup_member",
        "member_tier",
        ("standard", "suspended"),
        "loan",
        "Error: item has a waiting list",
        "The member wants to change their loans",
        "Since the loan has no waiting list, it can be renewed for another three weeks.",
    ),
    "repairs": Domain(
        ("book_engineer_visit", "order_spare_part", "update_site_access_notes", "extend_warranty"),
        ("close_job", "pass_to_dispatcher"),
        "open_job_card",
        "warranty_state",
        ("covered", "expired"),
        "job",
        "Error: part out of stock",
        "The customer wants the repair job changed",
        "The boiler is still covered, so the engineer visit costs nothing.",
    ),
}
HELD_OUT = ("library", "repairs")


def evidence_grid(domain: Domain) -> Iterator[LessonEvidence]:
    """Evidence of every combination the generator words differently."""
    moves = [("act", "stop"), ("act", "act"), ("ask", "stop"), ("refuse", "act"), ("act", "reply")]
    flags = (False, True)
    grid = itertools.product(range(4), range(3), flags, flags, flags, flags, moves, flags)
    for n_missing, n_harmful, choice, failed, fact, lookup, (won, lost), reason in grid:
        if n_missing == 0 and n_harmful == 0 and not reason:
            continue
        missing = [
            WriteEffect(tool=t, args={}, runs=["p1"], item=domain.item)
            for t in domain.writes[:n_missing]
        ]
        harmful = [WriteEffect(tool=t, args={}, runs=["f1"]) for t in domain.others[:n_harmful]]
        low, high = domain.values
        choices = (
            {domain.writes[0]: f"on the {domain.item} whose {domain.field} is '{low}', not the one "
             f"whose {domain.field} is '{high}'"}
            if choice and n_missing
            else {}
        )
        yield LessonEvidence(
            task_id="shape",
            passing_runs=["p1", "p2"],
            failing_runs=["f1"],
            tool_kinds={},
            request=domain.request,
            situation=f'{domain.writes[0]} returns an error ("{domain.error}")' if failed else "",
            missing=missing,
            harmful=harmful,
            facts=[RecordFact(tool=domain.lookup, field=domain.field, value=low)] if fact else [],
            reason=domain.reason if reason else None,
            winner_move=won,
            loser_move=lost,
            loser_tool=domain.others[0],
            choices=choices,
            lookup=domain.lookup if lookup and n_missing else None,
        )


def shapes(names: tuple[str, ...]) -> list[str]:
    """The distinct instructions the generator writes for the grid of these domains."""
    seen: dict[str, None] = {}
    for name in names:
        for evidence in evidence_grid(DOMAINS[name]):
            written = lesson_text(evidence)
            if written is not None:
                seen[written[0]] = None
    return list(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    trained = tuple(name for name in DOMAINS if name not in HELD_OUT)
    lines = [json.dumps({"instruction": text}, ensure_ascii=False) for text in shapes(trained)]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} guidelines of {len(trained)} domains -> {args.out}")


if __name__ == "__main__":
    main()
