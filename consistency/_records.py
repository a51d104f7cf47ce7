"""Records the runs looked up: which concern an item, which fields a run cites, what sets it apart.

An item is set apart from another by the fields in which their records differ ("the invoice whose
status is 'open', not the one whose status is 'paid'").

Any record shape works: observations are parsed as JSON, records found at any depth, and only
vocabulary values (short lowercase words: a status, a tier, a colour) are ever named.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from oncourse.consistency._roles import is_vocabulary, leaves, parse_observation
from oncourse.consistency._run_text import mentions
from oncourse.consistency.tool_kinds import ToolKind
from oncourse.consistency.trajectory import Trajectory
from pydantic import BaseModel, Field

_BOOLEAN = {"yes", "no", "true", "false"}


def _word(value: Any) -> bool:
    """A value a guideline may name: a vocabulary word or a yes/no flag (never data)."""
    return isinstance(value, bool) or is_vocabulary(value)


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else f"'{value}'"


class RecordFact(BaseModel):
    """A field of a looked-up record whose value the passing runs cite as their reason."""

    tool: str = Field(description="The lookup that returned the record.")
    field: str = Field(description="The field (innermost key).")
    value: str = Field(description="Its value (a vocabulary word such as 'regular').")


def records_about(
    runs: Sequence[Trajectory], item: str | None, kinds: dict[str, ToolKind]
) -> list[tuple[str, dict[str, Any]]]:
    """(tool, record) of each looked-up record about `item`; every record when `item` is None.

    A record is about an item when the lookup was called with it or the record holds it.
    """
    out: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for run in runs:
        for step in run.steps:
            if kinds.get(step.action.tool) != "read":
                continue
            record = parse_observation(step.observation)
            if not isinstance(record, dict):
                continue
            fetched = item is None or item in {str(v) for _, v in leaves(step.action.args)}
            holds = any(str(v) == item for v in record.values() if not isinstance(v, dict | list))
            key = f"{step.action.tool}:{sorted(step.action.args.items())}"
            if (fetched or holds) and key not in seen:
                seen.add(key)
                out.append((step.action.tool, record))
    return out


def cited_facts(
    records: list[tuple[str, dict[str, Any]]], sentences: Sequence[str]
) -> list[RecordFact]:
    """Fields of the records whose value (or, for yes/no fields, whose name) the sentences cite."""
    text = " ".join(sentences)
    facts: list[RecordFact] = []
    for tool, record in records:
        for field, value in record.items():
            if isinstance(value, dict | list) or not _word(value):
                continue
            field_name = str(field)
            if field_name.lower().endswith("id"):
                continue
            word = str(value).lower() if isinstance(value, bool) else str(value)
            hit = mentions(text, field_name) if word.lower() in _BOOLEAN else mentions(text, word)
            fact = RecordFact(tool=tool, field=field_name, value=word)
            if hit and fact not in facts:
                facts.append(fact)
    # A field cited with two values across the records sets nothing apart.
    values: dict[tuple[str, str], set[str]] = {}
    for fact in facts:
        values.setdefault((fact.tool, fact.field), set()).add(fact.value)
    return [f for f in facts if len(values[(f.tool, f.field)]) == 1]


def _dicts(value: Any) -> list[dict[str, Any]]:
    """Every dict nested in a JSON value (records inside lists and inside records)."""
    out: list[dict[str, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _flat(record: dict[str, Any]) -> dict[str, Any]:
    """A record's scalar fields, with one level of nested objects as `outer inner`."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, dict):
            out.update(
                {f"{key} {k}": v for k, v in value.items() if not isinstance(v, dict | list)}
            )
        elif not isinstance(value, list):
            out[str(key)] = value
    return out


def _record_of(
    value: str, runs: Sequence[Trajectory], kinds: dict[str, ToolKind]
) -> dict[str, Any]:
    """The innermost looked-up record that holds `value` as one of its own fields."""
    for run in runs:
        for step in run.steps:
            if kinds.get(step.action.tool) != "read":
                continue
            for record in _dicts(parse_observation(step.observation)):
                if any(str(v) == value for v in record.values() if not isinstance(v, dict | list)):
                    return record
                # Records keyed by their id ({"id-1": {...}}) hold it as a key.
                inner = record.get(value)
                if isinstance(inner, dict):
                    return inner
    return {}


def item_contrast(
    key: str, chosen: str, rejected: str, runs: Sequence[Trajectory], kinds: dict[str, ToolKind]
) -> str | None:
    """The chosen item against the rejected one, from the records the runs looked up.

    Returns "the <item> whose <field> is 'a', not the one whose <field> is 'b'", or None.

    The chosen and the rejected value are found in the records the runs looked up; the fields in
    which the two records differ, restricted to vocabulary words (a status, a colour, a tier), say
    what sets the chosen one apart. Ids, names and amounts are never named.
    """
    mine, theirs = _flat(_record_of(chosen, runs, kinds)), _flat(_record_of(rejected, runs, kinds))
    if not mine or not theirs:
        return None
    differing = [
        field
        for field in mine
        if field in theirs
        and mine[field] != theirs[field]
        and _word(mine[field])
        and _word(theirs[field])
        and not field.lower().endswith("id")
    ]
    if not differing:
        return None
    noun = re.sub(r"[_ ]?ids?$", "", key).replace("_", " ") or "item"
    mine_text = " and ".join(f"{f} is {_shown(mine[f])}" for f in differing[:2])
    theirs_text = " and ".join(f"{f} is {_shown(theirs[f])}" for f in differing[:2])
    return f"the {noun} whose {mine_text}, not the one whose {theirs_text}"


def arg_contrast(
    win: dict[str, Any],
    lose: dict[str, Any],
    runs: Sequence[Trajectory],
    kinds: dict[str, ToolKind],
) -> str:
    """How the passing call of a tool differs from the failing one, by the items it chose."""
    win_ids = dict(leaves(win))
    for key, value in leaves(lose):
        chosen = win_ids.get(key)
        if key is None or chosen is None or str(chosen) == str(value):
            continue
        found = item_contrast(key, str(chosen), str(value), runs, kinds)
        if found:
            return f"on {found}"
    keys = sorted(k for k in set(win) | set(lose) if win.get(k) != lose.get(k))
    named = ", ".join(k.replace("_", " ") for k in keys[:3]) or "arguments"
    return f"with the {named} the passing runs used (runs that chose a different {named} failed)"


__all__ = [
    "RecordFact",
    "ToolKind",
    "arg_contrast",
    "cited_facts",
    "item_contrast",
    "records_about",
]
