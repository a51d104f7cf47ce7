"""Invoices and vendors app: look up suppliers and invoices, pay, file and record payments."""

from __future__ import annotations

from typing import Any, Literal

from oncourse.adapters.suites._tools import ToolCallError, ToolFunction, World
from oncourse.adapters.suites.mini_apps._search import matches, matches_any, public

Folder = Literal["tax", "archive", "disputes", "approved"]


def _find(world: World, table: str, key: str, value: str) -> dict[str, Any]:
    for record in world.state.get(table, []):
        if record.get(key) == value:
            return dict(record)
    raise ToolCallError(f"no record with {key} {value!r}")


def search_vendors(world: World, query: str) -> list[dict[str, Any]]:
    """Find vendors (suppliers) whose name contains any word of the query.

    Args:
        world: The world the tool acts on.
        query: Words of the vendor's name.

    Returns:
        The matching vendors. vendor_id: the vendor's identifier; name: the vendor's company
        name; country: where the vendor is based; billing_email: where invoices are sent.
    """
    vendors = world.state.get("vendors", [])
    return [public(v) for v in vendors if matches_any(query, v, ("name",))]


def search_invoices(world: World, query: str) -> list[dict[str, Any]]:
    """Find invoices by invoice number or by vendor name.

    Args:
        world: The world the tool acts on.
        query: An invoice number or words of the vendor's name.

    Returns:
        The matching invoices. invoice_id: the invoice's identifier; number: the number printed
        on the invoice; vendor: who sent it; amount: the sum due; currency: its currency;
        status: open (still unpaid, payment is due) or paid (already settled, nothing
        outstanding); due_date: when payment is due.
    """
    invoices = world.state.get("invoices", [])
    return [public(i) for i in invoices if matches(query, i, ("number", "vendor"))]


def pay_invoice(world: World, invoice_id: str) -> dict[str, Any]:
    """Pay an invoice in full, identified by its invoice_id.

    Args:
        world: The world the tool acts on.
        invoice_id: The invoice_id of the invoice to pay.
    """
    invoice = _find(world, "invoices", "invoice_id", invoice_id)
    world.record("pay_invoice", invoice_id=invoice_id, amount=invoice.get("amount"))
    return {"status": "payment sent", "invoice_id": invoice_id, "amount": invoice.get("amount")}


def record_payment(world: World, vendor_id: str, amount: float, reference: str) -> dict[str, Any]:
    """Record a payment made to a vendor, with an amount and a payment reference.

    Args:
        world: The world the tool acts on.
        vendor_id: The vendor_id of the vendor paid.
        amount: Amount paid, a number such as 1250.00.
        reference: Payment reference, such as a purchase order number.
    """
    _find(world, "vendors", "vendor_id", vendor_id)
    world.record("payment", vendor_id=vendor_id, amount=round(amount, 2), reference=reference)
    return {"status": "recorded", "vendor_id": vendor_id, "amount": round(amount, 2)}


def file_invoice(world: World, invoice_id: str, folder: Folder) -> dict[str, Any]:
    """File an invoice into one of the accounting folders.

    Args:
        world: The world the tool acts on.
        invoice_id: The invoice_id of the invoice to file.
        folder: The folder to file it in.
    """
    _find(world, "invoices", "invoice_id", invoice_id)
    world.record("file_invoice", invoice_id=invoice_id, folder=folder)
    return {"status": "filed", "invoice_id": invoice_id, "folder": folder}


def update_vendor_email(world: World, vendor_id: str, email: str) -> dict[str, Any]:
    """Change the billing email address stored for a vendor.

    Args:
        world: The world the tool acts on.
        vendor_id: The vendor_id of the vendor to update.
        email: The new billing email address.
    """
    _find(world, "vendors", "vendor_id", vendor_id)
    world.record("vendor_email", vendor_id=vendor_id, email=email.strip().lower())
    return {"status": "updated", "vendor_id": vendor_id}


TOOLS: list[ToolFunction] = [
    search_vendors,
    search_invoices,
    pay_invoice,
    record_payment,
    file_invoice,
    update_vendor_email,
]
