"""Value roles name the field a value came from and what set its record apart (issue 4 contract:
"run-specific values abstracted into roles"), so that two branches that differ only in which
field or record they used produce different guideline text."""

from __future__ import annotations

from oncourse.consistency._roles import observed_field, value_role

INVOICES = [
    {"invoice_id": "inv_1", "number": "INV-7", "status": "open", "vendor": "Acme Parts"},
    {"invoice_id": "inv_2", "number": "INV-7", "status": "paid", "vendor": "Acme Parts"},
]
CONTACT = [{"name": "Maya Petrov", "work_email": "m@v.com", "personal_email": "m@gmail.com"}]


def test_the_field_of_the_value_is_named_when_it_differs_from_the_argument() -> None:
    work = value_role("to", "m@v.com", "Email Maya Petrov", CONTACT, "search_contacts")
    personal = value_role("to", "m@gmail.com", "Email Maya Petrov", CONTACT, "search_contacts")
    assert work == "the to from the work_email field of the search_contacts result"
    assert personal == "the to from the personal_email field of the search_contacts result"
    assert "m@" not in work + personal


def test_the_record_is_told_apart_by_a_vocabulary_field_never_by_a_value() -> None:
    role = value_role("invoice_id", "inv_2", "Pay invoice INV-7", INVOICES, "search_invoices")
    assert role == "the invoice id from the search_invoices result whose status is 'paid'"
    assert observed_field("inv_1", INVOICES) == ("invoice_id", " whose status is 'open'")
    # Records that differ only in data (names, ids) get no qualifier.
    twins = [{"id": "a", "company": "Globex"}, {"id": "b", "company": "Initech"}]
    assert observed_field("a", twins) == ("id", "")  # an id is never a description
    assert observed_field("zzz", twins) == (None, "")
