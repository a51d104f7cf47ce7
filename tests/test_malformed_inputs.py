"""Every malformed input or flag ends as one line on stderr and exit code 2 (issue 13).

The cases are generated: each bad file is fed to every command that reads runs, and each bad value
to the flag it breaks. The CLI runs in-process through `main(argv)` (fast); a sample goes through
a real subprocess to check the installed entry point the same way. A case fails on a traceback, a
second stderr line, any exit code but 2, anything on stdout (a result from bad input is a wrong
result) or a hang (pytest-timeout).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from oncourse.adapters import importers
from oncourse.adapters.cli import main

REPO = Path(__file__).resolve().parents[1]
CaseFiles = dict[str, Path]


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """Run `oncourse ARGV` in this process; returns (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = stdin
    return code, out.getvalue(), err.getvalue()


def _run(task: str, ok: bool, i: int, **extra: object) -> dict[str, object]:
    return {
        "task_id": task,
        "success": ok,
        "run_id": f"{task}#r{i}",
        "steps": [{"action": {"tool": "lookup", "args": {"q": task}}}],
        **extra,
    }


def _jsonl(*records: object) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def _nested_args(depth: int) -> str:
    """A run whose one call has arguments nested `depth` lists deep (json.dumps would recurse)."""
    args = '{"q": ' + "[" * depth + "1" + "]" * depth + "}"
    return '{"task_id": "a", "success": true, "steps": [{"action": {"tool": "t", "args": ' + (
        args + "}}]}\n"
    )


GOOD = _jsonl(*(_run(t, i != 0, i) for t in ("a", "b") for i in range(3)))

BAD_TEXT: dict[str, str] = {
    "empty": "",
    "blank-lines": "\n \n\t\n",
    "not-json": "hello world\n",
    "truncated-object": '{"task_id": "a", "success": true\n',
    "unterminated-array": '[{"task_id": "a", "success": true, "steps": []}',
    "array-trailing-data": '[{"task_id": "a", "success": true, "steps": []}] extra',
    "empty-array": "[]",
    "top-level-number": "42\n",
    "top-level-string": '"a trajectory"\n',
    "top-level-null": "null\n",
    "no-known-keys": _jsonl({"a": 1}),
    "missing-task-id": _jsonl({"success": True, "steps": []}),
    "null-task-id": _jsonl({"task_id": None, "success": True, "steps": []}),
    "empty-task-id": _jsonl({"task_id": "", "success": True, "steps": []}),
    "list-task-id": _jsonl({"task_id": ["a"], "success": True, "steps": []}),
    "success-string": _jsonl({"task_id": "a", "success": "yes", "steps": []}),
    "success-number": _jsonl({"task_id": "a", "success": 1, "steps": []}),
    "steps-not-list": _jsonl({"task_id": "a", "success": True, "steps": {"0": 1}}),
    "step-not-object": _jsonl({"task_id": "a", "success": True, "steps": [7]}),
    "action-missing-tool": _jsonl({"task_id": "a", "success": True, "steps": [{"action": {}}]}),
    "empty-tool-name": _jsonl(
        {"task_id": "a", "success": True, "steps": [{"action": {"tool": ""}}]}
    ),
    "args-not-object": _jsonl(
        {"task_id": "a", "success": True, "steps": [{"action": {"tool": "t", "args": [1]}}]}
    ),
    "nan-constant": '{"task_id": "a", "success": true, "steps": [], "reward": NaN}\n',
    "infinity-constant": '{"task_id": "a", "success": true, "steps": [], "reward": Infinity}\n',
    "empty-error-kind": _jsonl(_run("a", False, 0, error={"kind": ""})),
    "meta-not-object": _jsonl(_run("a", True, 0, meta="gpt")),
    "nested-500": _nested_args(500),
    "nested-150": _nested_args(150),
    "nested-5000-raw": '{"task_id": "a", "success": true, "steps": ['
    + "[" * 5000
    + "]" * 5000
    + "]}\n",
    "schema-version-2": _jsonl(_run("a", True, 0, schema_version="2")),
    "schema-version-99-int": _jsonl(_run("a", True, 0, schema_version=99)),
    "mixed-formats": _jsonl(_run("a", True, 0), {"task_id": 1, "reward": 1.0, "traj": []}),
    "good-then-garbage": GOOD + "{oops\n",
    "garbage-in-middle": _jsonl(_run("a", True, 0)) + "}{\n" + _jsonl(_run("a", True, 1)),
}

BAD_BYTES: dict[str, bytes] = {
    "utf16-le-bom": GOOD.encode("utf-16"),
    "utf16-be-bom": b"\xfe\xff" + GOOD.encode("utf-16-be"),
    "utf16-no-bom": GOOD.encode("utf-16-le"),
    "utf32-bom": GOOD.encode("utf-32"),
    "gzip": gzip.compress(GOOD.encode()),
    "bzip2-magic": b"BZh91AY&SY" + b"\x00" * 20,
    "xz-magic": b"\xfd7zXZ\x00" + b"\x00" * 20,
    "latin1": '{"task_id": "café", "success": true, "steps": []}\n'.encode("latin-1"),
    "binary-nuls": b"\x00\x01\x02\x03" * 64,
    "lone-continuation-byte": b'{"task_id": "a\x80", "success": true, "steps": []}\n',
}


def _zip_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("runs.jsonl", GOOD)
    return buffer.getvalue()


BAD_BYTES["zip"] = _zip_bytes()
BAD_FILES = sorted([*BAD_TEXT, *BAD_BYTES])


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> CaseFiles:
    root = tmp_path_factory.mktemp("malformed")
    made: CaseFiles = {}
    for name, text in BAD_TEXT.items():
        made[name] = root / f"{name}.jsonl"
        made[name].write_text(text, encoding="utf-8")
    for name, data in BAD_BYTES.items():
        made[name] = root / f"{name}.jsonl"
        made[name].write_bytes(data)
    made["good"] = root / "good.jsonl"
    made["good"].write_text(GOOD, encoding="utf-8")
    made["no-such-file"] = root / "absent.jsonl"
    (root / "empty-dir").mkdir()
    made["empty-dir"] = root / "empty-dir"
    made["a-file"] = root / "plain.txt"
    made["a-file"].write_text("not a folder\n")
    made["root"] = root
    return made


# Commands that read run files: where the bad file goes, given the case's file paths.
READERS: dict[str, Callable[[Path, CaseFiles], list[str]]] = {
    "report": lambda bad, f: ["report", str(bad)],
    "report-json": lambda bad, f: ["report", "--json", str(f["good"]), str(bad)],
    "analyze": lambda bad, f: ["analyze", "--embedder", "lexical", str(bad)],
    "gate-baseline": lambda bad, f: ["gate", "--baseline", str(bad), "--candidate", str(f["good"])],
    "gate-candidate": lambda bad, f: [
        "gate",
        "--baseline",
        str(f["good"]),
        "--candidate",
        str(bad),
    ],
    "plan-runs": lambda bad, f: ["plan", "--flip-rate", "0.02", "--runs", str(bad)],
}

EXTRA_BAD_PATHS = ["no-such-file", "empty-dir"]


def _check_one_line_exit_2(argv: list[str]) -> None:
    code, out, err = run_cli(argv)
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err, err
    assert code == 2, f"exit {code} for {argv}: {err!r}"
    assert len(lines) == 1, f"stderr is not one line for {argv}: {err!r}"
    assert "error" in lines[0], lines[0]
    assert out == "", f"a result was printed for bad input {argv}: {out[:200]!r}"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("command", sorted(READERS))
@pytest.mark.parametrize("case", BAD_FILES + EXTRA_BAD_PATHS)
def test_bad_file_is_one_line_and_exit_2(files: CaseFiles, command: str, case: str) -> None:
    _check_one_line_exit_2(READERS[command](files[case], files))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("command", sorted(READERS))
def test_record_over_the_size_limit(
    files: CaseFiles, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importers, "MAX_RECORD_CHARS", 100)
    big = files["root"] / "big.jsonl"
    big.write_text(_jsonl(_run("a", True, 0, final_answer="x" * 500)))
    _check_one_line_exit_2(READERS[command](big, files))


def _flag_cases() -> list[tuple[str, list[str]]]:
    """(id, argv with {good}/{dir}/{file} placeholders) for every bad flag value."""
    cases: list[tuple[str, list[str]]] = []
    report = ["report", "{good}"]
    for value in ["abc", "0", "-1", "1.5", "", "nan"]:
        cases.append((f"report-k-{value or 'empty'}", [*report, "--k", value]))
    cases += [
        ("report-format-xml", [*report, "--format", "xml"]),
        ("report-html-dir", [*report, "--html", "{dir}"]),
        ("report-html-under-file", [*report, "--html", "{file}/out.html"]),
        ("report-html-in-proc", [*report, "--html", "/proc/oncourse/out.html"]),
        ("report-unknown-option", [*report, "--bogus", "1"]),
        ("report-missing-files", ["report"]),
        ("report-k-missing-value", [*report, "--k"]),
    ]
    gate = ["gate", "--baseline", "{good}", "--candidate", "{good}"]
    for value in ["nan", "inf", "-inf", "-1", "100.5", "abc", ""]:
        cases.append((f"gate-max-drop-{value or 'empty'}", [*gate, "--max-drop", value]))
    for value in ["nan", "0", "-1", "1", "2", "abc", "inf", "-0.0"]:
        cases.append((f"gate-alpha-{value}", [*gate, "--alpha", value]))
    cases += [
        ("gate-metric-foo", [*gate, "--metric", "foo"]),
        ("gate-missing-baseline", ["gate", "--candidate", "{good}"]),
        ("gate-missing-candidate", ["gate", "--baseline", "{good}"]),
        ("gate-baseline-dir", ["gate", "--baseline", "{dir}", "--candidate", "{good}"]),
    ]
    for value in ["nan", "0", "1", "-0.1", "1.5", "inf", "abc", ""]:
        cases.append((f"plan-flip-rate-{value or 'empty'}", ["plan", "--flip-rate", value]))
    for value in ["0", "1", "nan", "2", "-inf"]:
        cases.append(
            (f"plan-confidence-{value}", ["plan", "--flip-rate", "0.02", "--confidence", value])
        )
    for value in ["lots/day", "0", "-3/day", "400/month", "inf/day", "nan", "1e999/day", ""]:
        cases.append(
            (f"plan-volume-{value or 'empty'}", ["plan", "--flip-rate", "0.02", "--volume", value])
        )
    cases.append(("plan-missing-flip-rate", ["plan"]))
    run = ["run", "--suite", "mini-apps", "--out", "{root}/runs.jsonl", "--no-progress"]
    bad_run_flags = {
        "--n": ["0", "-1", "abc"],
        "--concurrency": ["0", "-2"],
        "--max-steps": ["0"],
        "--timeout": ["0", "-1", "nan", "inf"],
        "--temperature": ["nan", "-1", "inf"],
        "--split": ["foo"],
        "--seed": ["abc"],
    }
    for flag, values in bad_run_flags.items():
        for value in values:
            cases.append((f"run{flag}-{value}", [*run, flag, value]))
    cases += [
        ("run-out-dir", ["run", "--suite", "mini-apps", "--out", "{dir}"]),
        ("run-out-under-file", ["run", "--suite", "mini-apps", "--out", "{file}/r.jsonl"]),
        ("run-resume-without-out", ["run", "--suite", "mini-apps", "--resume"]),
        ("run-unknown-model", [*run, "--model", "mistral:large"]),
        ("run-missing-suite", ["run"]),
        ("analyze-workers-0", ["analyze", "--workers", "0", "{good}"]),
        ("analyze-workers-abc", ["analyze", "--workers", "abc", "{good}"]),
        ("memory-search-k-0", ["memory", "search", "x", "--k", "0", "--memory", "{root}/m.db"]),
        ("learn-memory-dir", ["learn", "{good}", "--memory", "{dir}"]),
        ("learn-memory-under-file", ["learn", "{good}", "--memory", "{file}/m.db"]),
        (
            "eval-out-is-file",
            [
                "eval",
                "--suite",
                "mini-apps",
                "--model",
                "simulated",
                "--memory",
                "{root}/m.db",
                "--out",
                "{file}",
            ],
        ),
        (
            "eval-memory-dir",
            [
                "eval",
                "--suite",
                "mini-apps",
                "--model",
                "simulated",
                "--memory",
                "{dir}",
                "--out",
                "{root}/ev",
            ],
        ),
        (
            "evolve-memory-under-file",
            ["evolve", "--suite", "mini-apps", "--model", "simulated", "--memory", "{file}/m.db"],
        ),
        (
            "evolve-out-is-file",
            [
                "evolve",
                "--suite",
                "mini-apps",
                "--model",
                "simulated",
                "--memory",
                "{root}/m.db",
                "--out",
                "{file}",
            ],
        ),
        ("demo-out-is-file", ["demo", "--out", "{file}"]),
        ("unknown-command", ["frobnicate"]),
        ("unknown-root-option", ["--frobnicate"]),
    ]
    return cases


FLAG_CASES = _flag_cases()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("argv", [argv for _, argv in FLAG_CASES], ids=[i for i, _ in FLAG_CASES])
def test_bad_flag_is_one_line_and_exit_2(files: CaseFiles, argv: list[str]) -> None:
    places = {
        "{good}": str(files["good"]),
        "{dir}": str(files["empty-dir"]),
        "{file}": str(files["a-file"]),
        "{root}": str(files["root"]),
    }
    filled = []
    for arg in argv:
        for key, value in places.items():
            arg = arg.replace(key, value)
        filled.append(arg)
    _check_one_line_exit_2(filled)
    assert not (files["root"] / "runs.jsonl").exists(), (
        "a run started before its flags were checked"
    )


def test_case_count_meets_the_issue() -> None:
    # Issue 13 asks for at least 150 malformed inputs and flags.
    file_cases = (len(BAD_FILES) + len(EXTRA_BAD_PATHS) + 1) * len(READERS)
    assert file_cases + len(FLAG_CASES) >= 150


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "argv",
    [
        ["report", "--k", "abc", "{good}"],
        ["gate", "--baseline", "{good}", "--candidate", "{good}", "--alpha", "nan"],
        ["plan", "--flip-rate", "1e-300", "--confidence", "2"],
        ["report", "{nested}"],
        ["report", "{utf16}"],
    ],
)
def test_installed_entry_point_agrees(files: CaseFiles, argv: list[str]) -> None:
    filled = [
        a.replace("{good}", str(files["good"]))
        .replace("{nested}", str(files["nested-500"]))
        .replace("{utf16}", str(files["utf16-le-bom"]))
        for a in argv
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "oncourse.adapters.cli", *filled],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=110,
        check=False,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stdout == ""
