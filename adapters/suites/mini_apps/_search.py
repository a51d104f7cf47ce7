"""Matching a free-text query against records, the way the apps' search boxes do."""

from __future__ import annotations

import re
from typing import Any

_WORD = re.compile(r"[a-z0-9@._-]+")


def matches(query: str, record: dict[str, Any], fields: tuple[str, ...]) -> bool:
    """True when every word of the query occurs in one of the record's searchable fields."""
    words = _WORD.findall(query.lower().replace("#", ""))
    haystack = " ".join(str(record.get(field, "")) for field in fields).lower()
    return bool(words) and all(word in haystack for word in words)


def public(record: dict[str, Any]) -> dict[str, Any]:
    """A copy of a record without empty fields, as an app would show it."""
    return {key: value for key, value in record.items() if value not in (None, "")}


def matches_any(query: str, record: dict[str, Any], fields: tuple[str, ...]) -> bool:
    """True when any word of the query (of 3+ letters) occurs in a searchable field: fuzzy."""
    words = [w for w in _WORD.findall(query.lower()) if len(w) >= 3]
    haystack = " ".join(str(record.get(field, "")) for field in fields).lower()
    return any(word in haystack for word in words)
