"""Finding a suite by name (built-in) or by path (a user's suite directory).

A user suite is a directory holding a `suite.json` and one small Python module per app::

    my-suite/
      suite.json
      crm.py          # an app: TOOLS = [search_accounts, update_owner]
      mail.py         # another app

An app module defines typed tool functions whose first parameter is the `World`
(`from adapters.suites import World, ToolCallError`) and lists them in `TOOLS`. The schema a
model sees is generated from each function's signature and its Google-style docstring (summary
line plus an `Args:` entry per parameter). A tool reads `world.state` (the task's initial world,
a JSON object) and reports each change it makes with `world.record(kind, **fields)`; raising
`ToolCallError` shows the agent an error instead of a result.

`suite.json`::

    {
      "name": "my-suite",
      "system_prompt": "You are ...",
      "apps": ["crm", "mail"],                       # optional: default every *.py module
      "splits": {"train": ["t1"], "heldout": ["t2"]},  # optional: else each task's "split"
      "tasks": [
        {"task_id": "t1", "instruction": "Move ACME to Dana.", "split": "train",
         "family": "reassign",                          # optional, for reports only
         "apps": ["crm"],                               # optional: default every app
         "world": {"accounts": [...]},                  # initial state the tools read
         "expected": [{"kind": "owner", "account": "acme", "owner": "dana"}]}
      ]
    }

A run succeeds when the changes recorded by the tools are exactly `expected` (each entry
matched by one recorded change on the keys it names; strings compare case-insensitively).
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from oncourse.adapters.suites.apps import AppSuite
from oncourse.adapters.suites.base import SPLITS, Suite, Task
from oncourse.consistency.errors import InputError
from pydantic import BaseModel, ConfigDict, Field, ValidationError


def _mini_apps() -> Suite:
    from oncourse.adapters.suites.mini_apps import mini_apps_suite

    return mini_apps_suite()


BUILTIN_SUITES: dict[str, Callable[[], Suite]] = {"mini-apps": _mini_apps}


class _TaskEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str = Field(min_length=1, description="Unique id of the task.")
    instruction: str = Field(min_length=1, description="Text given to the agent.")
    split: str | None = Field(default=None, description="train, heldout or heldout-novel.")
    family: str | None = Field(default=None, description="Template family, for reports.")
    apps: list[str] | None = Field(default=None, description="Apps whose tools are offered.")
    world: dict[str, Any] = Field(default_factory=dict, description="Initial world state.")
    expected: list[dict[str, Any]] = Field(description="State changes that mean success.")


class _SuiteFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="Suite name.")
    system_prompt: str = Field(default="", description="Base system prompt of the agent.")
    apps: list[str] | None = Field(default=None, description="App module names.")
    splits: dict[str, list[str]] | None = Field(default=None, description="Split -> task ids.")
    tasks: list[_TaskEntry] = Field(min_length=1, description="The tasks.")


def _load_app(directory: Path, name: str) -> list[Any]:
    path = directory / f"{name}.py"
    if not re.fullmatch(r"[A-Za-z_]\w*", name) or not path.is_file():
        raise InputError(f"app module {name!r} not found", path=str(path))
    module_name = f"oncourse_user_suite_{abs(hash(str(directory)))}_{name}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise InputError("cannot import app module", path=str(path))
    module: ModuleType = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # a user's module may fail in any way; report it as input
        raise InputError(f"app module failed to import: {exc}", path=str(path)) from None
    tools = getattr(module, "TOOLS", None)
    if not isinstance(tools, list | tuple) or not all(callable(t) for t in tools):
        raise InputError("app module must define TOOLS, a list of functions", path=str(path))
    return list(tools)


def _split_of(entry: _TaskEntry, splits: dict[str, list[str]] | None, path: Path) -> str:
    split = entry.split
    if splits is not None:
        named = [name for name, ids in splits.items() if entry.task_id in ids]
        split = named[0] if named else split
    split = split or "train"
    if split not in SPLITS:
        raise InputError(f"task {entry.task_id}: unknown split {split!r}", path=str(path))
    return split


def load_suite_dir(directory: str | Path) -> AppSuite:
    """Load a user suite from a directory holding `suite.json` and its app modules."""
    root = Path(directory)
    path = root / "suite.json"
    if not path.is_file():
        raise InputError("a suite directory needs a suite.json", path=str(path))
    try:
        spec = _SuiteFile.model_validate(json.loads(path.read_text("utf-8")))
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg}", path=str(path), line=exc.lineno) from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"{where}: {first['msg']}", path=str(path)) from None
    app_names = spec.apps or sorted(p.stem for p in root.glob("*.py") if p.stem != "__init__")
    apps = {name: _load_app(root, name) for name in app_names}
    seen: set[str] = set()
    tasks: list[Task] = []
    for entry in spec.tasks:
        if entry.task_id in seen:
            raise InputError(f"duplicate task_id {entry.task_id!r}", path=str(path))
        seen.add(entry.task_id)
        params: dict[str, Any] = {"world": entry.world, "expected": entry.expected}
        if entry.apps is not None:
            params["apps"] = entry.apps
        task = Task(
            task_id=entry.task_id,
            instruction=entry.instruction,
            split=_split_of(entry, spec.splits, path),
            family=entry.family,
            params=params,
        )
        tasks.append(task)
    suite = AppSuite(spec.name, spec.system_prompt, apps, tasks)
    for task in tasks:
        suite.tools_for(task)  # unknown app names fail now, not mid-run
    return suite


def load_suite(name_or_path: str | Path) -> Suite:
    """A built-in suite by name (`mini-apps`) or a user suite from a directory path."""
    key = str(name_or_path)
    if key in BUILTIN_SUITES:
        return BUILTIN_SUITES[key]()
    path = Path(key).expanduser()
    if path.is_dir():
        return load_suite_dir(path)
    known = ", ".join(sorted(BUILTIN_SUITES))
    raise InputError(f"unknown suite {key!r}: not a built-in suite ({known}) nor a directory")
