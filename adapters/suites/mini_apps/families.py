"""Task families of the `mini-apps` suite: templated instances over a seeded world.

Each family builds, for one instance, the instruction (from a template in
`data/mini_apps/families.json`), the initial world state, the state changes that count as
success, and a description of its decision point: lookups after which more than one record or
field plausibly fits, with the instruction holding what is needed to choose right.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Pools = dict[str, list[Any]]


@dataclass
class Instance:
    """One generated task before it becomes a `Task`: text, world, expected changes."""

    fields: dict[str, Any]
    state: dict[str, Any]
    expected: list[dict[str, Any]]
    decision: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


def _pick(rng: random.Random, pool: list[Any], k: int) -> list[Any]:
    return rng.sample(pool, k)


def _contact(
    rng: random.Random,
    first: str,
    last: str,
    company: list[str],
    pools: Pools,
    personal: bool = True,
) -> dict[str, Any]:
    tz, city = rng.choice(pools["timezones"])
    record: dict[str, Any] = {
        "contact_id": f"c_{rng.randrange(10_000, 99_999)}",
        "name": f"{first} {last}",
        "company": company[0],
        "work_email": f"{first}.{last}@{company[1]}".lower(),
        "city": city,
        "timezone": tz,
    }
    if personal:
        domain = rng.choice(pools["personal_domains"])
        record["personal_email"] = f"{first}{last}{rng.randrange(10, 99)}@{domain}".lower()
    return record


def _people(rng: random.Random, pools: Pools, n: int) -> list[tuple[str, str]]:
    firsts = _pick(rng, pools["first_names"], n)
    lasts = _pick(rng, pools["last_names"], n)
    return list(zip(firsts, lasts, strict=True))


def _base_state(rng: random.Random, pools: Pools, distractors: int = 3) -> dict[str, Any]:
    tz, city = rng.choice(pools["timezones"])
    others = [
        _contact(rng, first, last, rng.choice(pools["companies"]), pools)
        for first, last in _people(rng, pools, distractors)
    ]
    profile = {"name": "Alex Morgan", "email": "alex.morgan@oncourse.example", "city": city}
    profile["timezone"] = tz
    return {"profile": profile, "contacts": others}


def _address_decision(
    target: dict[str, Any], fields: tuple[str, ...] = ("work_email", "personal_email")
) -> dict[str, Any]:
    """The decision point of a contact search: which record, and which of its `fields`, to use.

    By default a work-vs-personal address family: one contact, two addresses.
    """
    return {
        "calls": [{"tool": "search_contacts", "args": {"query": target["name"]}}],
        "fields": list(fields),
        "match": {"name": target["name"]},
    }


def _email_at_work(
    rng: random.Random,
    pools: Pools,
    state: dict[str, Any],
    target: dict[str, Any],
    company: list[str],
    decision: dict[str, Any],
) -> Instance:
    """Email `target` at their work address with a subject drawn from the pools."""
    return Instance(
        fields={
            "name": target["name"],
            "company": company[0],
            "subject": rng.choice(pools["subjects"]),
        },
        state=state,
        expected=[{"kind": "email", "to": target["work_email"]}],
        decision=decision,
    )


def _shuffled(rng: random.Random, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = list(records)
    rng.shuffle(out)
    return out


def email_work_address(rng: random.Random, pools: Pools) -> Instance:
    """Work vs personal address of one contact."""
    state = _base_state(rng, pools)
    (first, last), company = _people(rng, pools, 1)[0], rng.choice(pools["companies"])
    target = _contact(rng, first, last, company, pools, personal=True)
    state["contacts"] = _shuffled(rng, [*state["contacts"], target])
    return _email_at_work(rng, pools, state, target, company, _address_decision(target))


def email_same_name(rng: random.Random, pools: Pools) -> Instance:
    """Two contacts with the same name at two companies."""
    state = _base_state(rng, pools)
    (first, last) = _people(rng, pools, 1)[0]
    company, other = _pick(rng, pools["companies"], 2)
    target = _contact(rng, first, last, company, pools, personal=False)
    twin = _contact(rng, first, last, other, pools, personal=False)
    state["contacts"] = _shuffled(rng, [*state["contacts"], target, twin])
    decision = _address_decision(target, fields=("work_email",))
    return _email_at_work(rng, pools, state, target, company, decision)


def _invoice(rng: random.Random, vendor: str, number: str, amount: float, status: str) -> dict:
    return {
        "invoice_id": f"inv_{rng.randrange(16**5, 16**6):x}",
        "number": number,
        "vendor": vendor,
        "amount": amount,
        "currency": "USD",
        "status": status,
        "due_date": f"2026-12-{rng.randrange(1, 28):02d}",
    }


def _vendor(rng: random.Random, name: str, pools: Pools) -> dict[str, Any]:
    slug = "".join(ch for ch in name.lower() if ch.isalnum())[:14]
    return {
        "vendor_id": f"v_{rng.randrange(1000, 9999)}",
        "name": name,
        "country": rng.choice(pools["countries"]),
        "billing_email": f"billing@{slug}.com",
    }


def _duplicate_invoices(rng: random.Random, pools: Pools) -> tuple[dict, dict, dict[str, Any]]:
    """A vendor with one invoice entered twice: once already paid, once still open."""
    vendor_name = rng.choice(pools["vendor_pairs"])[0]
    number = f"INV-{rng.randrange(1000, 9999)}"
    amount = round(rng.uniform(150, 9500), 2)
    open_inv = _invoice(rng, vendor_name, number, amount, "open")
    paid_inv = _invoice(rng, vendor_name, number, amount, "paid")
    others = [
        _invoice(
            rng,
            vendor_name,
            f"INV-{rng.randrange(1000, 9999)}",
            round(rng.uniform(150, 9500), 2),
            "open",
        ),
        _invoice(
            rng,
            rng.choice(pools["vendor_pairs"])[1],
            f"INV-{rng.randrange(1000, 9999)}",
            round(rng.uniform(150, 9500), 2),
            "paid",
        ),
    ]
    state = {
        "vendors": [_vendor(rng, vendor_name, pools)],
        "invoices": _shuffled(rng, [open_inv, paid_inv, *others]),
    }
    return open_inv, paid_inv, state


def pay_open_duplicate(rng: random.Random, pools: Pools) -> Instance:
    """The same invoice number twice, one paid and one open."""
    open_inv, _, state = _duplicate_invoices(rng, pools)
    return Instance(
        fields={"number": open_inv["number"], "vendor": open_inv["vendor"]},
        state=state,
        expected=[{"kind": "pay_invoice", "invoice_id": open_inv["invoice_id"]}],
        decision={
            "calls": [{"tool": "search_invoices", "args": {"query": open_inv["number"]}}],
            "fields": ["invoice_id"],
            "match": {"number": open_inv["number"]},
        },
    )


def file_open_invoice(rng: random.Random, pools: Pools) -> Instance:
    """Novel: file (not pay) the open copy of a duplicated invoice."""
    open_inv, _, state = _duplicate_invoices(rng, pools)
    folder = rng.choice(pools["folders"])
    return Instance(
        fields={"number": open_inv["number"], "vendor": open_inv["vendor"], "folder": folder},
        state=state,
        expected=[{"kind": "file_invoice", "invoice_id": open_inv["invoice_id"], "folder": folder}],
        decision={
            "calls": [{"tool": "search_invoices", "args": {"query": open_inv["number"]}}],
            "fields": ["invoice_id"],
            "match": {"number": open_inv["number"]},
        },
    )


def _near_vendors(rng: random.Random, pools: Pools) -> tuple[dict, dict[str, Any], str]:
    """Two vendors with near names; the task names one of them exactly."""
    pair = list(rng.choice(pools["vendor_pairs"]))
    rng.shuffle(pair)
    target, near = (_vendor(rng, name, pools) for name in pair)
    state = {"vendors": _shuffled(rng, [target, near]), "invoices": []}
    query = pair[0].split()[0]
    return target, state, query


def _vendor_decision(query: str) -> dict[str, Any]:
    """The decision point of a near-name vendor family: which search result's vendor_id to use."""
    return {
        "calls": [{"tool": "search_vendors", "args": {"query": query}}],
        "fields": ["vendor_id"],
        "match": {},
    }


def payment_near_vendor(rng: random.Random, pools: Pools) -> Instance:
    """Two vendors with near names; record a payment to the one the task names."""
    target, state, query = _near_vendors(rng, pools)
    amount = round(rng.uniform(120, 9800), 2)
    reference = f"PO-{rng.randrange(10000, 99999)}"
    return Instance(
        fields={"vendor": target["name"], "amount": f"${amount:,.2f}", "reference": reference},
        state=state,
        expected=[{"kind": "payment", "vendor_id": target["vendor_id"], "amount": amount}],
        decision=_vendor_decision(query),
    )


def update_near_vendor_email(rng: random.Random, pools: Pools) -> Instance:
    """Novel: two vendors with near names; change the billing email of the named one."""
    target, state, query = _near_vendors(rng, pools)
    email = f"ap-{rng.randrange(10, 99)}@{target['billing_email'].split('@')[1]}"
    return Instance(
        fields={"vendor": target["name"], "email": email},
        state=state,
        expected=[{"kind": "vendor_email", "vendor_id": target["vendor_id"], "email": email}],
        decision=_vendor_decision(query),
    )


def _slot(rng: random.Random) -> tuple[str, str]:
    date = f"2026-12-{rng.randrange(1, 29):02d}"
    time = f"{rng.randrange(8, 17):02d}:{rng.choice(['00', '30'])}"
    return date, time


def meeting_contact_timezone(rng: random.Random, pools: Pools) -> Instance:
    """Your time zone vs the contact's: the time is given in the contact's."""
    state = _base_state(rng, pools)
    (first, last), company = _people(rng, pools, 1)[0], rng.choice(pools["companies"])
    target = _contact(rng, first, last, company, pools, personal=False)
    while target["timezone"] == state["profile"]["timezone"]:
        target["timezone"], target["city"] = rng.choice(pools["timezones"])
    state["contacts"] = _shuffled(rng, [*state["contacts"], target])
    date, time = _slot(rng)
    expected = {"kind": "event", "date": date, "start_time": time}
    expected |= {"timezone": target["timezone"], "attendee_email": target["work_email"]}
    return Instance(
        fields={
            "name": target["name"],
            "title": rng.choice(pools["event_titles"]),
            "date": date,
            "time": time,
        },
        state=state,
        expected=[expected],
        decision={
            "calls": [
                {"tool": "search_contacts", "args": {"query": target["name"]}},
                {"tool": "get_my_profile", "args": {}},
            ],
            "fields": ["timezone"],
            "match": {},
        },
    )


def invite_work_address(rng: random.Random, pools: Pools) -> Instance:
    """Novel: invite a contact to an event at their work (not personal) address."""
    state = _base_state(rng, pools)
    (first, last), company = _people(rng, pools, 1)[0], rng.choice(pools["companies"])
    target = _contact(rng, first, last, company, pools, personal=True)
    state["contacts"] = _shuffled(rng, [*state["contacts"], target])
    date, time = _slot(rng)
    expected = {"kind": "event", "date": date, "start_time": time}
    expected["attendee_email"] = target["work_email"]
    return Instance(
        fields={
            "name": target["name"],
            "title": rng.choice(pools["event_titles"]),
            "date": date,
            "time": time,
            "tz": target["timezone"],
        },
        state=state,
        expected=[expected],
        decision=_address_decision(target),
    )


def share_final_file(rng: random.Random, pools: Pools) -> Instance:
    """Two files with near names, the final one and a draft."""
    state = _base_state(rng, pools)
    (first, last), company = _people(rng, pools, 1)[0], rng.choice(pools["companies"])
    target = _contact(rng, first, last, company, pools, personal=False)
    state["contacts"] = _shuffled(rng, [*state["contacts"], target])
    topic, year = rng.choice(pools["topics"]), rng.choice([2025, 2026])
    stem = f"{topic.lower().replace(' ', '_')}_{year}"

    def file(suffix: str, modified: str) -> dict[str, Any]:
        return {
            "file_id": f"f_{rng.randrange(10_000, 99_999)}",
            "name": f"{stem}_{suffix}.pdf",
            "modified": modified,
            "owner": "Alex Morgan",
        }

    final, draft = (
        file("final", f"{year}-11-0{rng.randrange(1, 9)}"),
        file("draft", f"{year}-11-1{rng.randrange(0, 9)}"),
    )
    older = file("final", f"{year - 1}-11-02")
    older["name"] = f"{topic.lower().replace(' ', '_')}_{year - 1}_final.pdf"
    state["files"] = _shuffled(rng, [final, draft, older])
    return Instance(
        fields={"name": target["name"], "topic": topic, "year": year},
        state=state,
        expected=[{"kind": "share", "file_id": final["file_id"], "email": target["work_email"]}],
        decision={
            "calls": [{"tool": "search_files", "args": {"query": f"{topic} {year}"}}],
            "fields": ["file_id"],
            "match": {},
        },
    )


FAMILIES: dict[str, Callable[[random.Random, Pools], Instance]] = {
    "email_work_address": email_work_address,
    "email_same_name": email_same_name,
    "pay_open_duplicate": pay_open_duplicate,
    "payment_near_vendor": payment_near_vendor,
    "meeting_contact_timezone": meeting_contact_timezone,
    "share_final_file": share_final_file,
    "invite_work_address": invite_work_address,
    "file_open_invoice": file_open_invoice,
    "update_near_vendor_email": update_near_vendor_email,
}
