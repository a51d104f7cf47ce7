"""The built-in `mini-apps` suite: generated schemas, families, decision points, state checks."""

from __future__ import annotations

import inspect
import json
import typing
from collections import Counter
from pathlib import Path
from typing import Any, get_args

import pytest
from oncourse.adapters.suites import (
    AppEnvironment,
    Environment,
    Suite,
    Task,
    load_suite,
    tool_spec,
)
from oncourse.adapters.suites.apps import log_matches
from oncourse.adapters.suites.base import SPLITS
from oncourse.adapters.suites.mini_apps import APPS, build_tasks, mini_apps_suite
from oncourse.adapters.suites.mini_apps.invoices import Folder
from oncourse.consistency.errors import InputError
from oncourse.consistency.trajectory import Action

SUITE = mini_apps_suite()
TASKS = SUITE.tasks("all")


def _by_family() -> dict[str, list[Task]]:
    out: dict[str, list[Task]] = {}
    for task in TASKS:
        out.setdefault(str(task.family), []).append(task)
    return out


# -- schemas -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fn", [fn for tools in APPS.values() for fn in tools], ids=lambda f: f.__name__
)
def test_schema_is_generated_from_the_signature(fn: Any) -> None:
    spec = tool_spec(fn)
    params = list(inspect.signature(fn).parameters.values())[1:]
    props = spec.parameters["properties"]
    assert spec.name == fn.__name__
    assert list(props) == [p.name for p in params]
    assert spec.parameters.get("required", []) == [
        p.name for p in params if p.default is inspect.Parameter.empty
    ]
    assert spec.description.split("\n")[0] == inspect.getdoc(fn).splitlines()[0]
    if "Returns:" in (inspect.getdoc(fn) or ""):
        # What a result's fields mean reaches the model from the docstring, not a second copy.
        assert "\nReturns: " in spec.description
    hints = typing.get_type_hints(fn)
    for param in params:
        schema = props[param.name]
        assert schema["description"], f"{fn.__name__}.{param.name} has no description"
        expected = {str: "string", float: "number", int: "integer"}.get(hints[param.name])
        if expected:
            assert schema["type"] == expected


def test_literal_parameter_becomes_an_enum() -> None:
    from oncourse.adapters.suites.mini_apps.invoices import file_invoice

    folder = tool_spec(file_invoice).parameters["properties"]["folder"]
    assert folder["enum"] == list(get_args(Folder))
    assert folder["description"] == "The folder to file it in."


def test_ill_typed_and_unknown_arguments_are_tool_errors_not_crashes() -> None:
    task = next(t for t in TASKS if t.family == "payment_near_vendor")
    env = SUITE.make_env(task)
    vendor = task.params["world"]["vendors"][0]["vendor_id"]
    bad = env.step(Action(tool="record_payment", args={"vendor_id": vendor, "amount": 5}))
    assert bad.error and "reference" in bad.error  # missing argument named
    bad = env.step(
        Action(
            tool="record_payment", args={"vendor_id": vendor, "amount": "lots", "reference": "x"}
        )
    )
    assert bad.error and "amount" in bad.error
    unknown = env.step(Action(tool="pay_invoice", args={"invoice_id": "x", "tip": 1}))
    assert unknown.error and "tip" in unknown.error
    assert env.step(Action(tool="no_such_tool")).error
    assert env.world.log == []


# -- families and splits --------------------------------------------------------------------------


def test_suite_satisfies_the_protocols() -> None:
    assert isinstance(SUITE, Suite)
    assert isinstance(SUITE.make_env(TASKS[0]), Environment)
    assert load_suite("mini-apps") is SUITE


def test_at_least_eight_families_each_with_six_instances() -> None:
    families = _by_family()
    assert len(families) >= 8
    for family, tasks in families.items():
        assert len(tasks) >= 6, family
        assert len({t.instruction for t in tasks}) == len(tasks), f"{family}: repeated instruction"


def test_splits_share_families_and_novel_families_are_unseen() -> None:
    train = {t.family for t in SUITE.tasks("train")}
    heldout = {t.family for t in SUITE.tasks("heldout")}
    novel = {t.family for t in SUITE.tasks("heldout-novel")}
    assert train == heldout and len(train) >= 6
    assert len(novel) >= 2 and not novel & train
    counts = Counter(t.split for t in TASKS)
    assert counts["train"] >= 24 and counts["heldout"] >= 12 and counts["heldout-novel"] >= 6


def test_heldout_uses_new_entities() -> None:
    def targets(split: str) -> set[str]:
        return {
            str(v)
            for t in SUITE.tasks(split)
            for entry in t.params["expected"]
            for k, v in entry.items()
            if k in {"to", "attendee_email", "email"}
        }

    assert targets("train") and not targets("train") & targets("heldout")
    assert not targets("train") & targets("validation")
    assert not targets("validation") & targets("heldout")


def _shape(instruction: str) -> str:
    """The instruction with the instance's values blanked out: its template."""
    import re

    text = re.sub(r'"[^"]*"', '""', instruction)
    text = re.sub(
        r"\b[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*|\$[\d,.]+|[\w.-]+@[\w.-]+|\d[\d:-]*", "X", text
    )
    return text


def test_heldout_instructions_use_templates_train_never_saw() -> None:
    # Regression (issue 10): the held-out lift came from tasks whose wording also occurs in train.
    train = {_shape(t.instruction) for t in SUITE.tasks("train")}
    validation = {_shape(t.instruction) for t in SUITE.tasks("validation")}
    heldout = {_shape(t.instruction) for t in SUITE.tasks("heldout")}
    assert heldout and not heldout & train and not heldout & validation


def test_validation_is_its_own_split_disjoint_from_train_and_eval() -> None:
    ids = {split: {t.task_id for t in SUITE.tasks(split)} for split in SPLITS}
    assert ids["validation"] and {t.family for t in SUITE.tasks("validation")} == {
        t.family for t in SUITE.tasks("train")
    }
    for other in ("train", "heldout", "heldout-novel"):
        assert not ids["validation"] & ids[other]


def test_generation_is_deterministic() -> None:
    again = build_tasks()
    assert [t.model_dump() for t in again] == [t.model_dump() for t in TASKS]


def test_unknown_split_is_an_input_error() -> None:
    with pytest.raises(InputError, match="unknown split"):
        SUITE.tasks("test")


# -- decision points ------------------------------------------------------------------------------


def _decision_values(task: Task, env: AppEnvironment) -> list[Any]:
    """Distinct values of the decision fields over the plausible records the lookups return."""
    decision = task.params["decision"]
    values: list[Any] = []
    for call in decision["calls"]:
        result = env.step(Action(tool=call["tool"], args=call["args"]))
        assert result.error is None, result.error
        records = (
            result.observation if isinstance(result.observation, list) else [result.observation]
        )
        for record in records:
            if all(record.get(k) == v for k, v in decision["match"].items()):
                values += [record[f] for f in decision["fields"] if f in record]
    return list(dict.fromkeys(values))


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.task_id)
def test_every_task_has_a_decision_point_with_two_plausible_matches(task: Task) -> None:
    env = SUITE.make_env(task)
    values = _decision_values(task, env)
    assert len(values) >= 2, values
    # Exactly one of them is what the expected change uses.
    used = {v for entry in task.params["expected"] for v in entry.values()}
    assert len([v for v in values if v in used]) == 1
    assert env.world.log == []  # lookups change nothing


# -- the check on the final state -----------------------------------------------------------------


def _final_action(entry: dict[str, Any], task: Task) -> Action:
    """The state-changing call that produces an expected change (written out per kind)."""
    kind = entry["kind"]
    if kind == "email":
        return Action(tool="send_email", args={"to": entry["to"], "subject": "Hi", "body": "..."})
    if kind == "pay_invoice":
        return Action(tool="pay_invoice", args={"invoice_id": entry["invoice_id"]})
    if kind == "payment":
        args = {"vendor_id": entry["vendor_id"], "amount": entry["amount"], "reference": "PO-1"}
        return Action(tool="record_payment", args=args)
    if kind == "event":
        args = {
            "title": "Call",
            "date": entry["date"],
            "start_time": entry["start_time"],
            "timezone": entry.get("timezone", "UTC"),
            "attendee_email": entry["attendee_email"],
        }
        return Action(tool="create_event", args=args)
    if kind == "share":
        return Action(
            tool="share_file", args={"file_id": entry["file_id"], "email": entry["email"]}
        )
    if kind == "file_invoice":
        args = {"invoice_id": entry["invoice_id"], "folder": entry["folder"]}
        return Action(tool="file_invoice", args=args)
    if kind == "vendor_email":
        args = {"vendor_id": entry["vendor_id"], "email": entry["email"]}
        return Action(tool="update_vendor_email", args=args)
    raise AssertionError(f"{task.task_id}: no scripted action for {kind}")


def _swap(action: Action, right: Any, wrong: Any) -> Action:
    args = {k: (wrong if v == right else v) for k, v in action.args.items()}
    assert args != action.args, "the decision value is not an argument of the final action"
    return Action(tool=action.tool, args=args)


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.task_id)
def test_checker_passes_the_right_branch_and_fails_the_wrong_one(task: Task) -> None:
    env = SUITE.make_env(task)
    values = _decision_values(task, env)
    (entry,) = task.params["expected"]
    right = next(v for v in values if v in entry.values())
    wrong = next(v for v in values if v != right)
    final = _final_action(entry, task)

    for action in (final, Action(tool="respond", args={"text": "Done."})):
        result = env.step(action)
        assert result.error is None, result.error
    assert result.done and env.reply == "Done."
    assert env.check() is True

    env.reset()
    assert env.world.log == [] and env.check() is False  # doing nothing fails
    _decision_values(task, env)
    env.step(_swap(final, right, wrong))
    assert env.check() is False

    env.reset()
    env.step(final)
    env.step(_swap(final, right, wrong))  # the right change plus a wrong one
    assert env.check() is False


def test_log_matches_compares_only_named_keys_with_tolerance() -> None:
    log = [{"kind": "payment", "vendor_id": "v_1", "amount": 10.0, "reference": "PO-9"}]
    assert log_matches(log, [{"kind": "payment", "vendor_id": "V_1", "amount": 10.004}])
    assert not log_matches(log, [{"kind": "payment", "vendor_id": "v_1", "amount": 10.02}])
    assert not log_matches(log + log, [{"kind": "payment", "vendor_id": "v_1"}])
    assert not log_matches([], [{"kind": "payment"}])
    assert log_matches([], [])


# -- user suites from a directory -----------------------------------------------------------------

_APP = '''
from oncourse.adapters.suites import ToolCallError, World


def set_owner(world: World, account: str, owner: str) -> dict:
    """Give an account a new owner.

    Args:
        world: The world.
        account: Account name.
        owner: The new owner's login.
    """
    if account not in world.state["accounts"]:
        raise ToolCallError(f"no account {account}")
    world.record("owner", account=account, owner=owner)
    return {"status": "ok"}


TOOLS = [set_owner]
'''


def _user_suite(tmp_path: Path, suite: dict[str, Any]) -> Path:
    (tmp_path / "crm.py").write_text(_APP)
    (tmp_path / "suite.json").write_text(json.dumps(suite))
    return tmp_path


def test_user_suite_directory_loads_and_runs(tmp_path: Path) -> None:
    suite_dir = _user_suite(
        tmp_path,
        {
            "name": "crm-suite",
            "system_prompt": "Be careful.",
            "splits": {"heldout": ["t2"]},
            "tasks": [
                {
                    "task_id": "t1",
                    "instruction": "Give acme to dana.",
                    "world": {"accounts": ["acme"]},
                    "expected": [{"kind": "owner", "account": "acme", "owner": "dana"}],
                },
                {
                    "task_id": "t2",
                    "instruction": "Give zeta to li.",
                    "world": {"accounts": ["zeta"]},
                    "expected": [{"kind": "owner", "account": "zeta", "owner": "li"}],
                },
            ],
        },
    )
    suite = load_suite(str(suite_dir))
    assert suite.name == "crm-suite" and suite.system_prompt == "Be careful."
    assert [t.task_id for t in suite.tasks("train")] == ["t1"]
    assert [t.task_id for t in suite.tasks("heldout")] == ["t2"]
    env = suite.make_env(suite.tasks("train")[0])
    (spec,) = env.tools()
    assert spec.parameters["required"] == ["account", "owner"]
    assert env.step(Action(tool="set_owner", args={"account": "nope", "owner": "x"})).error
    env.step(Action(tool="set_owner", args={"account": "acme", "owner": "dana"}))
    assert env.check()


def test_bad_user_suites_are_one_line_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unknown suite"):
        load_suite(str(tmp_path / "missing"))
    with pytest.raises(InputError, match="suite.json"):
        load_suite(str(tmp_path))
    (tmp_path / "suite.json").write_text('{"name": "x",\n "tasks": [}')
    with pytest.raises(InputError, match=r"suite\.json:2:"):
        load_suite(str(tmp_path))
    _user_suite(tmp_path, {"name": "x", "tasks": [{"task_id": "a", "instruction": "i"}]})
    with pytest.raises(InputError, match="expected"):
        load_suite(str(tmp_path))
    _user_suite(
        tmp_path,
        {
            "name": "x",
            "apps": ["nope"],
            "tasks": [{"task_id": "a", "instruction": "i", "expected": []}],
        },
    )
    with pytest.raises(InputError, match="nope"):
        load_suite(str(tmp_path))
