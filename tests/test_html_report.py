"""The HTML report: self-contained (no fetches), renders in headless Chromium, shows its parts."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from _outcome_runs import searched_runs as _runs
from oncourse.adapters.html_report import render_report, write_report
from oncourse.consistency.compare import compare_arms
from oncourse.consistency.guidelines import Guideline, GuidelineProvenance

ANALYSIS = {
    "task_id": "refund-7",
    "n_runs": 5,
    "n_success": 3,
    "status": "divergent",
    "divergence": {
        "step": 2,
        "column": 2,
        "p_value": 0.1,
        "context": {
            "task": "Refund order 7",
            "shared_prefix": [{"tool": "find_order", "args": {"id": 7}}],
            "preceding_observations": [],
        },
        "branches": [
            {
                "action": {"tool": "refund", "args": {"order": 7, "amount": 20}},
                "runs": ["r0", "r1", "r2"],
                "successes": 3,
                "success_rate": 1.0,
            },
            {
                "action": {"tool": "refund", "args": {"order": 7, "amount": 25}},
                "runs": ["r3", "r4"],
                "successes": 0,
                "success_rate": 0.0,
            },
        ],
    },
}


def _report_kwargs() -> dict:
    base = _runs("a", "PPPPP") + _runs("b", "PPFPP") + _runs("c", "FFFFF") + _runs("d", "PPPPP")
    mem = _runs("a", "PPPPP") + _runs("b", "PPPPP") + _runs("c", "FPFFF") + _runs("d", "PPPPP")
    split = compare_arms(base, mem).model_dump(mode="json")
    split["mean_injected_tokens"] = 42.0
    guideline = Guideline(
        instruction="Refund the amount shown on the order, not the amount the user quotes.",
        trigger="When a refund amount differs between the user and the order record",
        provenance=GuidelineProvenance(
            source_tasks=["refund-7"], fork_step=2, generator="contrastive"
        ),
        status="retired",
    )
    return {
        "trajectories": base,
        "analyses": [ANALYSIS, {"task_id": "a", "divergence": None}],
        "splits": {"heldout": split, "heldout-novel": split},
        "guidelines": [guideline],
        "provenance": {"suite": "mini-apps"},
    }


class _Fetches(HTMLParser):
    """Collects every attribute that would make a browser fetch something."""

    def __init__(self) -> None:
        super().__init__()
        self.fetches: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for name, value in attrs:
            if name in {"src", "href", "srcset", "data", "action", "poster"} and value:
                self.fetches.append(f"{tag}.{name}={value}")


def test_report_is_self_contained_and_has_every_section():
    text = render_report(**_report_kwargs())
    parser = _Fetches()
    parser.feed(text)
    assert not [f for f in parser.fetches if "http" in f or "//" in f], parser.fetches
    assert "script" not in parser.tags and "link" not in parser.tags
    assert "@import" not in text and "url(" not in text
    assert "SIMULATED" in text
    assert parser.tags.count("svg") == 2  # one forest plot (both splits) + one divergent task
    # Worst task first: c (0/5) before b (4/5) before a and d (5/5).
    order = [text.index(f"<code>{task}</code>") for task in "cba"]
    assert order == sorted(order)
    assert "retired" in text and "contrastive" in text
    assert "3/3 passed (100%)" in text and "0/2 passed (0%)" in text


def test_no_banner_for_real_models():
    text = render_report(trajectories=_runs("a", "PP", simulated=False))
    assert "SIMULATED" not in text


def test_user_text_is_escaped():
    evil = dict(ANALYSIS, task_id="<script>alert(1)</script>")
    text = render_report(analyses=[evil])
    assert "<script>" not in text


def _distinct_filtered_bytes(png: Path) -> int:
    """Distinct byte values in the PNG's (filtered) pixel stream; a blank page has very few."""
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(idat)))


def _screenshot(html_path: Path, png: Path) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                shutil.which("chromium") or "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                f"--screenshot={png}",
                "--window-size=1200,2000",
                html_path.resolve().as_uri(),
            ],
            capture_output=True,
            timeout=120,
            check=False,
        )


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian package chromium is absent")
def test_report_renders_in_headless_chromium(tmp_path: Path):
    page = write_report(tmp_path / "report.html", **_report_kwargs())
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    _screenshot(page, tmp_path / "report.png")
    _screenshot(blank, tmp_path / "blank.png")
    assert (tmp_path / "report.png").exists(), "chromium wrote no screenshot"
    blank_colours = _distinct_filtered_bytes(tmp_path / "blank.png")
    assert blank_colours < 10
    assert _distinct_filtered_bytes(tmp_path / "report.png") > 10 * blank_colours


SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.mark.skipif(not SHARED_DATA.exists(), reason="shared/data is not beside the repo")
def test_report_command_writes_html_for_real_runs(tmp_path: Path):
    out = tmp_path / "tau.html"
    proc = subprocess.run(
        [sys.executable, "-m", "oncourse.adapters.cli", "report",
         str(SHARED_DATA / "tau-bench-airline-gpt-4o-sample.json"), "--html", str(out)],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1], check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    # The sample has 10 tasks x 4 runs; task 35 passes all 4, task 0 none.
    assert "pass^4" in text
    assert text.index("<code>0</code>") < text.index("<code>35</code>")
    assert text.count("<svg") >= 1, "divergent tasks of the sample get a tree"
    assert "SIMULATED" not in text
