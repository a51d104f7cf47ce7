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


def _holder(
    value: str, runs: Sequence[Trajectory], kinds: dict[str, ToolKind]
) -> tuple[str, dict[str, Any], str | None]:
    """(lookup, record, field) of the innermost looked-up record that holds `value`.

    The field is the one holding it (None when the record is keyed by the value); an empty
    record when no lookup returned the value.
    """
    for run in runs:
        for step in run.steps:
            if kinds.get(step.action.tool) != "read":
                continue
            for record in _dicts(parse_observation(step.observation)):
                for name, held in record.items():
                    if not isinstance(held, dict | list) and str(held) == value:
                        return step.action.tool, record, str(name)
                # Records keyed by their id ({"id-1": {...}}) hold it as a key.
                inner = record.get(value)
                if isinstance(inner, dict):
                    return step.action.tool, inner, None
    return "", {}, None


_TOKEN = re.compile(r"[^a-z0-9]+")


def _tokens(value: Any) -> list[str]:
    return [t for t in _TOKEN.split(str(value).lower()) if t]


def _word_difference(mine: Any, theirs: Any) -> tuple[str, str] | None:
    """The words that tell two versions of one name apart ("x_final.pdf" vs "x_draft.pdf").

    Only when the two share their other words and each has exactly one word of its own, a
    vocabulary word (letters only): never an id, a number or a whole name. Proper names
    (capitalised) and e-mail addresses are people's and companies' own words, not a version
    marker: two vendors "Acme Systems" and "Acme Solutions" teach nothing about the next task.
    """
    if not isinstance(mine, str) or not isinstance(theirs, str):
        return None
    if any("@" in v or v[:1].isupper() for v in (mine, theirs)):
        return None
    a, b = _tokens(mine), _tokens(theirs)
    own_a = [t for t in a if t not in b]
    own_b = [t for t in b if t not in a]
    shared = [t for t in a if t in b]
    if len(own_a) != 1 or len(own_b) != 1 or not shared:
        return None
    if not all(t.isalpha() and len(t) >= 3 and _word(t) for t in (own_a[0], own_b[0])):
        return None
    return own_a[0], own_b[0]


def item_contrast(
    key: str, chosen: str, rejected: str, runs: Sequence[Trajectory], kinds: dict[str, ToolKind]
) -> str | None:
    """The chosen item against the rejected one, from the records the runs looked up.

    Returns "the <item> whose <field> is 'a', not the one whose <field> is 'b'", or None.

    The chosen and the rejected value are found in the records the runs looked up; the fields in
    which the two records differ, restricted to vocabulary words (a status, a colour, a tier), say
    what sets the chosen one apart; failing that, the one word that tells two versions of a name
    apart ("the file whose name has 'final' in it, not the one whose name has 'draft'"). Ids,
    names and amounts are never named.
    """
    mine = _flat(_holder(chosen, runs, kinds)[1])
    theirs = _flat(_holder(rejected, runs, kinds)[1])
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
    noun = re.sub(r"[_ ]?ids?$", "", key).replace("_", " ") or "item"
    if not differing:
        words = [
            (field, found)
            for field in mine
            if field in theirs and not field.lower().endswith("id")
            for found in [_word_difference(mine[field], theirs[field])]
            if found
        ]
        if not words:
            return None
        field, (own, other) = words[0]
        return (
            f"the {noun} whose {field} has '{own}' in it, not the one whose {field} has '{other}'"
        )
    mine_text = " and ".join(f"{f} is {_shown(mine[f])}" for f in differing[:2])
    theirs_text = " and ".join(f"{f} is {_shown(theirs[f])}" for f in differing[:2])
    return f"the {noun} whose {mine_text}, not the one whose {theirs_text}"


def field_contrast(
    chosen: str, rejected: str, runs: Sequence[Trajectory], kinds: dict[str, ToolKind]
) -> str | None:
    """Two values taken from different fields of one looked-up record, by field name.

    Returns "from the <field> of the <lookup> result, not from its <other field>", or None.
    """
    tool, record, field = _holder(chosen, runs, kinds)
    other_tool, other_record, other_field = _holder(rejected, runs, kinds)
    if not record or record != other_record or tool != other_tool:
        return None
    if field is None or other_field is None or field == other_field:
        return None
    return f"from the {field} field of the {tool} result, not from its {other_field} field"


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
        source = field_contrast(str(chosen), str(value), runs, kinds)
        if source:
            return f"with the {key.replace('_', ' ')} {source}"
    keys = sorted(k for k in set(win) | set(lose) if win.get(k) != lose.get(k))
    named = ", ".join(k.replace("_", " ") for k in keys[:3]) or "arguments"
    return f"with the {named} the passing runs used (runs that chose a different {named} failed)"


__all__ = [
    "RecordFact",
    "ToolKind",
    "arg_contrast",
    "cited_facts",
    "field_contrast",
    "item_contrast",
    "records_about",
]
