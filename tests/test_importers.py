"""Importers: tau-bench, OpenAI transcripts, oncourse JSONL; detection; bad input; writing."""

from __future__ import annotations

import json
import math
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from _sample import DATA as SHARED_DATA  # noqa: E402
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oncourse.adapters.importers import (
    detect_format,
    example_path,
    load_trajectories,
    read_jsonl_trajectories,
    write_trajectories,
)
from oncourse.consistency.errors import ConfigError, InputError
from oncourse.consistency.trajectory import Trajectory

TAU_SAMPLE = SHARED_DATA / "tau-bench-airline-gpt-4o-sample.json"
needs_sample = pytest.mark.skipif(not TAU_SAMPLE.exists(), reason="shared tau-bench sample absent")


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def jsonl(path: Path, records: list) -> Path:
    return write(path, "".join(json.dumps(r) + "\n" for r in records))


def call(call_id: str, name: str, args: dict) -> dict:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }


TINY_MESSAGES = [
    {"role": "system", "content": "You are an agent."},
    {"role": "user", "content": "Find flights to SEA and LAX."},
    {
        "role": "assistant",
        "content": "Checking both.",
        "tool_calls": [
            call("c1", "search", {"dest": "SEA"}),
            call("c2", "search", {"dest": "LAX"}),
        ],
    },
    # Answers arrive out of order: matching must go by tool_call_id, not position.
    {"role": "tool", "tool_call_id": "c2", "name": "search", "content": "LAX: HAT1"},
    {"role": "tool", "tool_call_id": "c1", "name": "search", "content": "SEA: HAT2"},
    {"role": "assistant", "content": "HAT2 to SEA, HAT1 to LAX. Book?"},
    {"role": "user", "content": "Book HAT2."},
    {"role": "assistant", "content": None, "tool_calls": [call("c3", "book", {"flight": "HAT2"})]},
    {"role": "tool", "tool_call_id": "c3", "content": "booked"},
    {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
]


def test_chat_messages_map_to_steps(tmp_path: Path) -> None:
    path = jsonl(
        tmp_path / "t.jsonl", [{"task_id": "trip", "success": True, "messages": TINY_MESSAGES}]
    )
    (traj,) = load_trajectories([path])
    tools = [(s.action.tool, s.action.args) for s in traj.steps]
    assert tools == [
        ("search", {"dest": "SEA"}),
        ("search", {"dest": "LAX"}),
        ("respond", {"text": "HAT2 to SEA, HAT1 to LAX. Book?"}),
        ("book", {"flight": "HAT2"}),
        ("respond", {"text": "Done."}),
    ]
    assert [s.observation for s in traj.steps] == [
        "SEA: HAT2",
        "LAX: HAT1",
        "Book HAT2.",
        "booked",
        None,
    ]
    assert traj.steps[0].thought == "Checking both." and traj.steps[1].thought is None
    assert traj.steps[0].model_extra == {"user_before": "Find flights to SEA and LAX."}
    assert traj.steps[3].model_extra == {"user_before": "Book HAT2."}
    assert traj.task == "Find flights to SEA and LAX."
    assert traj.final_answer == "Done."
    assert traj.run_id == "trip:0"


def test_openai_transcript_key_and_passthrough(tmp_path: Path) -> None:
    record = {
        "task_id": 7,
        "success": False,
        "transcript": TINY_MESSAGES[:3],
        "task": "the task",
        "meta": {"model": "gpt-4.1"},
        "error": {"kind": "timeout", "message": "60 s"},
    }
    path = jsonl(tmp_path / "t.jsonl", [record])
    assert detect_format(path) == "openai"
    (traj,) = load_trajectories([path])
    assert traj.task_id == "7" and traj.task == "the task"
    assert traj.meta.model == "gpt-4.1" and traj.error is not None and traj.error.kind == "timeout"
    assert [s.observation for s in traj.steps] == [None, None]  # calls never answered


def test_invalid_call_arguments_are_kept_not_rejected(tmp_path: Path) -> None:
    bad_args = {"id": "c1", "function": {"name": "search", "arguments": "{not json"}}
    messages = [{"role": "assistant", "content": None, "tool_calls": [bad_args]}]
    path = jsonl(tmp_path / "t.jsonl", [{"task_id": "a", "success": False, "messages": messages}])
    (traj,) = load_trajectories([path])
    assert traj.steps[0].action.args == {"_raw_arguments": "{not json"}


@needs_sample
def test_tau_bench_sample_counts_match_the_raw_file() -> None:
    raw = json.loads(TAU_SAMPLE.read_text())
    trajs = load_trajectories([TAU_SAMPLE])
    assert detect_format(TAU_SAMPLE) == "tau-bench"
    assert len(trajs) == 40
    wins: dict[str, int] = defaultdict(int)
    for item in raw:
        wins[str(item["task_id"])] += item["reward"] == 1.0
    got: Counter[str] = Counter(t.task_id for t in trajs if t.success)
    assert {task: got[task] for task in wins} == wins
    # The file itself (not its README, which says 4 for task 5) has these successes:
    assert [wins[str(t)] for t in range(0, 50, 5)] == [0, 1, 0, 2, 4, 0, 2, 4, 3, 2]
    assert {t.run_id for t in trajs} == {f"{i['task_id']}:{i['trial']}" for i in raw}


@needs_sample
def test_tau_bench_steps_follow_the_messages() -> None:
    raw = json.loads(TAU_SAMPLE.read_text())
    trajs = load_trajectories([TAU_SAMPLE], fmt="tau-bench")
    for item, traj in zip(raw, trajs, strict=True):
        expected_tools, expected_obs = [], []
        messages = item["traj"]
        for i, m in enumerate(messages):
            if m["role"] != "assistant":
                continue
            if m.get("tool_calls"):
                for c in m["tool_calls"]:
                    expected_tools.append(c["function"]["name"])
                    # The sample reuses call ids within a run: the answer is the next one.
                    answer = next(
                        (
                            a["content"]
                            for a in messages[i + 1 :]
                            if a.get("tool_call_id") == c["id"]
                        ),
                        None,
                    )
                    expected_obs.append(answer)
            else:
                expected_tools.append("respond")
                expected_obs.append("<reply>")
        assert [s.action.tool for s in traj.steps] == expected_tools
        for step, obs in zip(traj.steps, expected_obs, strict=True):
            if obs != "<reply>":
                assert step.observation == obs
        # The task is what the agent saw; the simulator's hidden script is kept in meta only.
        first_user = next(m["content"] for m in item["traj"] if m["role"] == "user")
        assert traj.task == first_user
        assert traj.meta.model_extra["instruction"] == item["info"]["task"]["instruction"]
        assert traj.reward == item["reward"]


def test_detects_each_format_and_the_shipped_example(tmp_path: Path) -> None:
    tau = write(
        tmp_path / "tau.json",
        json.dumps([{"task_id": 1, "trial": 0, "reward": 1.0, "traj": TINY_MESSAGES}], indent=2),
    )
    oai = jsonl(
        tmp_path / "oai.jsonl", [{"task_id": "x", "success": True, "messages": TINY_MESSAGES}]
    )
    own = jsonl(tmp_path / "own.jsonl", [{"task_id": "x", "success": True, "steps": []}])
    tau_lines = jsonl(tmp_path / "tau.jsonl", [{"task_id": 1, "reward": 0.0, "traj": []}])
    assert [detect_format(p) for p in (tau, oai, own, tau_lines)] == [
        "tau-bench",
        "openai",
        "oncourse",
        "tau-bench",
    ]
    assert detect_format(example_path()) == "oncourse"
    assert len(load_trajectories([tmp_path])) == 4  # a folder means its json/jsonl files
    (tau_traj,) = load_trajectories([tau])
    assert tau_traj.success and tau_traj.run_id == "1:0"


def test_example_file_reads_as_its_readme_says() -> None:
    trajs = read_jsonl_trajectories(example_path())
    outcomes: dict[str, list[bool]] = defaultdict(list)
    for t in trajs:
        outcomes[t.task_id].append(t.success)
    assert {k: sum(v) for k, v in outcomes.items()} == {
        "refund-order": 5,
        "change-address": 2,
        "cancel-subscription": 5,
        "escalate-complaint": 4,
    }
    assert all(t.meta.simulated for t in trajs)
    assert [t.error.kind for t in trajs if t.error] == ["timeout"]


OK_LINE = json.dumps({"task_id": "a", "success": True, "steps": []})


@pytest.mark.parametrize(
    ("content", "line", "phrase"),
    [
        (OK_LINE + "\n" + OK_LINE + "\n{oops\n", 3, "not valid JSON"),
        (
            OK_LINE + "\n" + json.dumps({"task_id": "a", "steps": []}),
            2,
            "missing required field 'success'",
        ),
        (json.dumps({"task_id": "a", "success": "yes", "steps": []}), 1, "success"),
        (
            json.dumps({"task_id": "a", "success": True, "steps": [{"action": {"args": {}}}]}),
            1,
            "steps.0.action.tool",
        ),
        (json.dumps({"task_id": "a", "success": True, "steps": "no"}), 1, "steps"),
        ("[1, 2]", 1, "not a trajectory"),
        ('"just a string"', 1, "not a trajectory"),
        (
            OK_LINE + "\n" + json.dumps({"task_id": "a", "success": True, "messages": []}),
            2,
            "mixed formats",
        ),
        ('{"task_id": "a", "success": true, "steps": [], "reward": NaN}', 1, "NaN"),
        (
            '[\n {"task_id": 1, "reward": 1.0, "traj": []},\n {"task_id": 2, "traj": []}\n]',
            3,
            "reward",
        ),
        ('[\n {"task_id": 1, "reward": 1.0, "traj": []},\n', 3, "not valid JSON"),
        ('[{"task_id": 1, "reward": "1", "traj": []}]', 1, "'reward' must be a number"),
        (
            json.dumps(
                {
                    "task_id": "a",
                    "success": True,
                    "messages": [{"role": "tool", "tool_call_id": "zz", "content": "x"}],
                }
            ),
            1,
            "answers no earlier tool call",
        ),
        (
            json.dumps({"task_id": "a", "success": True, "messages": [{"role": "wizard"}]}),
            1,
            "unknown role",
        ),
        (
            json.dumps(
                {
                    "task_id": "a",
                    "success": True,
                    "messages": [{"role": "assistant", "tool_calls": [{"function": {}}]}],
                }
            ),
            1,
            "no function name",
        ),
    ],
)
def test_bad_input_names_file_and_line(
    tmp_path: Path, content: str, line: int, phrase: str
) -> None:
    path = write(tmp_path / "bad.jsonl", content)
    with pytest.raises(InputError) as info:
        load_trajectories([path])
    assert info.value.path == str(path)
    assert info.value.line == line
    assert phrase in str(info.value)


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        ("", "empty file"),
        ("\n  \n", "empty file"),
        ("[]", "empty list"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_empty_and_undecodable_files(tmp_path: Path, content: str | bytes, phrase: str) -> None:
    path = write(tmp_path / "f.jsonl", content)
    with pytest.raises(InputError, match=phrase):
        load_trajectories([path])


def test_missing_file_directory_and_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_trajectories([tmp_path / "absent.jsonl"])
    with pytest.raises(InputError, match="no .json or .jsonl"):
        load_trajectories([tmp_path])
    with pytest.raises(InputError, match="is a directory"):
        detect_format(tmp_path)
    with pytest.raises(ConfigError):
        load_trajectories([example_path()], fmt="csv")


def test_explicit_format_that_does_not_fit_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="missing required field '(reward|traj)'"):
        load_trajectories([example_path()], fmt="tau-bench")


def test_write_appends_and_round_trips(tmp_path: Path) -> None:
    trajs = read_jsonl_trajectories(example_path())
    out = tmp_path / "sub" / "runs.jsonl"
    assert write_trajectories(out, trajs[:2]) == 2
    before = out.read_bytes()
    write_trajectories(out, trajs[2])
    after = out.read_bytes()
    assert after.startswith(before) and after.count(b"\n") == 3
    assert read_jsonl_trajectories(out) == trajs[:3]


def test_write_never_emits_nan(tmp_path: Path) -> None:
    traj = Trajectory.model_validate(
        {"task_id": "a", "success": False, "steps": [], "reward": math.nan, "score": [math.inf]}
    )
    out = tmp_path / "r.jsonl"
    write_trajectories(out, [traj])
    text = out.read_text()
    assert "NaN" not in text and "Infinity" not in text
    assert json.loads(text)["score"] == [None]
    (back,) = read_jsonl_trajectories(out)
    assert back.reward is None


def test_truncated_tail_is_skipped_only_when_asked(tmp_path: Path) -> None:
    path = write(tmp_path / "r.jsonl", OK_LINE + "\n" + OK_LINE[:20])
    with pytest.raises(InputError) as info:
        read_jsonl_trajectories(path)
    assert info.value.line == 2
    assert len(read_jsonl_trajectories(path, tolerate_truncated_tail=True)) == 1


def test_line_separator_inside_a_string_is_not_a_new_line(tmp_path: Path) -> None:
    record = {"task_id": "a", "success": True, "steps": [], "task": "one\u2028two"}
    path = write(tmp_path / "r.jsonl", json.dumps(record, ensure_ascii=False) + "\n")
    (traj,) = load_trajectories([path])
    assert traj.task == "one\u2028two"


# --- fuzz: nothing but InputError ever escapes -------------------------------------------------

KEYS = [
    "task_id",
    "success",
    "steps",
    "action",
    "tool",
    "args",
    "observation",
    "traj",
    "reward",
    "trial",
    "info",
    "task",
    "instruction",
    "messages",
    "transcript",
    "role",
    "content",
    "tool_calls",
    "function",
    "name",
    "arguments",
    "id",
    "tool_call_id",
    "meta",
    "error",
    "kind",
]
ROLES = st.sampled_from(["system", "user", "assistant", "tool", "function", "x"])
leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8), ROLES
)
json_values = st.recursive(
    leaf,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.sampled_from(KEYS), children, max_size=6),
    ),
    max_leaves=30,
)


def _load_text(content: str | bytes, suffix: str = ".jsonl") -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"fuzz{suffix}"
        write(path, content)
        try:
            result = load_trajectories([path])
        except InputError as exc:
            assert exc.path == str(path)
            return
        assert all(isinstance(t, Trajectory) for t in result)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(json_values, min_size=1, max_size=4), st.booleans())
def test_fuzz_structured_records(records: list, as_array: bool) -> None:
    if as_array:
        _load_text(json.dumps(records, indent=1), ".json")
    else:
        _load_text("\n".join(json.dumps(r) for r in records))


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200)))
def test_fuzz_raw_bytes_and_text(content: str | bytes) -> None:
    _load_text(content)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=len(OK_LINE)), st.text(max_size=5))
def test_fuzz_damaged_valid_lines(cut: int, junk: str) -> None:
    _load_text(OK_LINE + "\n" + OK_LINE[:cut] + junk + OK_LINE[cut:] + "\n")
