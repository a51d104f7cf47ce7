"""The built-in `mini-apps` suite: contacts, email, calendar, invoices/vendors and files.

Tasks are generated deterministically from the templates and entity pools in
`oncourse.data/mini_apps/` (the repository's `data/mini_apps/`); the apps are the typed tool
functions of the modules in this package.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

from oncourse.adapters.suites._tools import ToolFunction
from oncourse.adapters.suites.apps import AppSuite
from oncourse.adapters.suites.base import Task
from oncourse.adapters.suites.mini_apps import calendar, contacts, email, files, invoices
from oncourse.adapters.suites.mini_apps.families import FAMILIES

NAME = "mini-apps"
APPS: dict[str, list[ToolFunction]] = {
    "contacts": contacts.TOOLS,
    "email": email.TOOLS,
    "calendar": calendar.TOOLS,
    "invoices": invoices.TOOLS,
    "files": files.TOOLS,
}


def _read_data(name: str) -> Any:
    try:
        from importlib.resources import files as resource_files

        text = (resource_files("oncourse.data") / "mini_apps" / name).read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        text = (Path(__file__).resolve().parents[3] / "data" / "mini_apps" / name).read_text(
            "utf-8"
        )
    return json.loads(text)


_POOL_THIRD = {"train": 0, "validation": 1, "heldout": 2, "heldout-novel": 2}


def _split_pools(entities: dict[str, list[Any]], split: str) -> dict[str, list[Any]]:
    """Each split draws people, companies, vendors, subjects ... from its own third of a pool.

    Train, validation and the held-out splits never share an entity, so a held-out task cannot
    be matched on a name or subject seen in training.
    """
    third = _POOL_THIRD[split]
    shared = {"personal_domains", "timezones", "folders", "countries"}
    return {key: values if key in shared else values[third::3] for key, values in entities.items()}


def _template(family_spec: dict[str, Any], split: str, index: int) -> str:
    """The instruction template of one instance: held-out splits use wordings train never saw."""
    if split.startswith("heldout") and "heldout_templates" in family_spec:
        pool = family_spec["heldout_templates"]
        return str(pool[index % len(pool)])
    pool = family_spec["templates"]
    return str(pool[(index + (split == "validation")) % len(pool)])


def build_tasks() -> list[Task]:
    """Generate every task of the suite (the same list on every machine and every call)."""
    entities = _read_data("entities.json")
    spec = _read_data("families.json")
    tasks: list[Task] = []
    for family, family_spec in spec["families"].items():
        for split, count in family_spec["splits"].items():
            pools = _split_pools(entities, split)
            for index in range(count):
                rng = random.Random(f"mini-apps:{family}:{split}:{index}")
                instance = FAMILIES[family](rng, pools)
                template = _template(family_spec, split, index)
                tasks.append(
                    Task(
                        task_id=f"{family}.{split}.{index}",
                        instruction=template.format(**instance.fields),
                        split=split,
                        family=family,
                        params={
                            "apps": family_spec["apps"],
                            "world": instance.state,
                            "expected": instance.expected,
                            "decision": instance.decision,
                        },
                    )
                )
    return tasks


@functools.cache
def mini_apps_suite() -> AppSuite:
    """The built-in suite, built once per process."""
    return AppSuite(NAME, _read_data("families.json")["system_prompt"], APPS, build_tasks())


__all__ = ["APPS", "NAME", "build_tasks", "mini_apps_suite"]
