"""Read OpenAI chat transcripts: JSONL, one run per line with `task_id`, `success`, `messages`.

`transcript` is accepted for `messages`. Other trajectory fields (`run_id`, `task`, `reward`,
`meta`, `error`, `final_answer`) pass through; the task text defaults to the first user message.
"""

from __future__ import annotations

from typing import Any

from oncourse.adapters._chat_steps import RecordError, final_reply, messages_to_steps

FORMAT = "openai"
MESSAGE_KEYS = ("messages", "transcript")
_PASS_THROUGH = ("run_id", "reward", "meta", "error", "schema_version")


def is_record(obj: Any) -> bool:
    """Whether a decoded JSON value looks like one chat transcript."""
    return isinstance(obj, dict) and any(key in obj for key in MESSAGE_KEYS) and "steps" not in obj


def to_trajectory_dict(obj: Any, index: int) -> dict[str, Any]:
    """The oncourse trajectory (as a dict, validated by the caller) of one transcript."""
    if not isinstance(obj, dict):
        raise RecordError(f"expected a JSON object, got {type(obj).__name__}")
    key = next((k for k in MESSAGE_KEYS if k in obj), None)
    if key is None:
        raise RecordError("missing required field 'messages' (openai transcript)")
    for required in ("task_id", "success"):
        if required not in obj:
            raise RecordError(f"missing required field '{required}' (openai transcript)")
    steps, first_user = messages_to_steps(obj[key], f"'{key}'")
    record: dict[str, Any] = {
        "task_id": obj["task_id"],
        "success": obj["success"],
        "task": obj.get("task", first_user),
        "steps": steps,
        "final_answer": obj.get("final_answer", final_reply(steps)),
    }
    record.update({k: obj[k] for k in _PASS_THROUGH if k in obj})
    if record.get("run_id") is None and isinstance(obj["task_id"], str | int):
        record["run_id"] = f"{obj['task_id']}:{index}"
    meta = record.get("meta")
    if isinstance(meta, dict) and "source" not in meta:
        record["meta"] = {**meta, "source": FORMAT}
    elif meta is None:
        record["meta"] = {"source": FORMAT}
    return record
