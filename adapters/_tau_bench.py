"""Read tau-bench results (sierra-research/tau-bench): one trial per item, OpenAI chat in `traj`.

Item shape: `{task_id, trial, reward, traj, info}`; `reward == 1.0` is a pass. The run id is
`"{task_id}:{trial}"`. The task text is what the agent saw: the first user message of the run.
The simulated user's hidden script (`info.task.instruction`) never reaches the agent, so it goes
to `meta.instruction` (kept for reading, never used to write or retrieve guidelines).
"""

from __future__ import annotations

from typing import Any

from oncourse.adapters._chat_steps import RecordError, final_reply, messages_to_steps

FORMAT = "tau-bench"


def is_record(obj: Any) -> bool:
    """Whether a decoded JSON value looks like one tau-bench trial."""
    return isinstance(obj, dict) and "traj" in obj


def _instruction(info: Any) -> tuple[str | None, list[Any] | None, str | None]:
    if info is None:
        return None, None, None
    if not isinstance(info, dict):
        raise RecordError("'info' must be an object")
    task = info.get("task")
    if task is None:
        return None, None, None
    if not isinstance(task, dict):
        raise RecordError("'info.task' must be an object")
    instruction = task.get("instruction")
    if instruction is not None and not isinstance(instruction, str):
        raise RecordError("'info.task.instruction' must be a string")
    gold = task.get("actions")
    user_id = task.get("user_id")
    return (
        instruction,
        gold if isinstance(gold, list) else None,
        user_id if isinstance(user_id, str) else None,
    )


def to_trajectory_dict(obj: Any, index: int) -> dict[str, Any]:
    """The oncourse trajectory (as a dict, validated by the caller) of one tau-bench trial."""
    if not isinstance(obj, dict):
        raise RecordError(f"expected a JSON object, got {type(obj).__name__}")
    for key in ("task_id", "reward", "traj"):
        if key not in obj:
            raise RecordError(f"missing required field '{key}' (tau-bench)")
    task_id, reward, trial = obj["task_id"], obj["reward"], obj.get("trial", index)
    if isinstance(task_id, bool) or not isinstance(task_id, int | str):
        raise RecordError("'task_id' must be an integer or a string")
    if isinstance(reward, bool) or not isinstance(reward, int | float):
        raise RecordError("'reward' must be a number")
    if isinstance(trial, bool) or not isinstance(trial, int | str):
        raise RecordError("'trial' must be an integer or a string")
    steps, first_user = messages_to_steps(obj["traj"], "'traj'")
    instruction, gold, user_id = _instruction(obj.get("info"))
    return {
        "task_id": str(task_id),
        "run_id": f"{task_id}:{trial}",
        "success": float(reward) == 1.0,
        "reward": float(reward),
        "task": first_user or None,
        "steps": steps,
        "final_answer": final_reply(steps),
        "meta": {"source": FORMAT, "instruction": instruction},
        "tau_bench": {"trial": trial, "user_id": user_id, "gold_actions": gold},
    }
