"""One self-contained HTML report: inline CSS and SVG, no scripts, fonts or fetches.

Sections: provenance (with a SIMULATED banner when a simulated model produced the runs), the
forest plot of the all-N lift per split, per-task pass^k sorted worst first, the divergence
tree of each divergent task, and the guidelines with provenance, status and counters. Every
section is optional; inputs are pydantic models or their `model_dump(mode="json")` dicts.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from oncourse.consistency._version import __version__
from oncourse.consistency.stats import group_by_task, pass_hat_k, wilson_interval
from oncourse.consistency.trajectory import Trajectory

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2330;
background:#fafbfc;max-width:1150px}
h1{font-size:24px;margin:0 0 8px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ccd;
padding-bottom:4px}
table{border-collapse:collapse;font-size:13px;width:100%;background:#fff}
th,td{border:1px solid #dde;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef1f6}td.num{text-align:right;font-variant-numeric:tabular-nums}
.banner{background:#fff3cd;border:2px solid #e0a800;color:#5c4400;padding:10px 14px;
font-weight:700;margin:8px 0 16px;border-radius:4px}
.bar{display:inline-block;height:10px;background:#3a7bd5;vertical-align:middle}
.barbg{display:inline-block;width:120px;height:10px;background:#e3e7ee;vertical-align:middle}
.badge{padding:1px 6px;border-radius:8px;font-size:12px;color:#fff}
.st-active{background:#2e8b57}.st-proposed{background:#6c757d}.st-retired{background:#b22222}
.st-quarantined{background:#8b4513}
.prov td:first-child{font-weight:600;width:180px;background:#f4f6f9}
.muted{color:#667}.tree{margin:10px 0 18px;background:#fff;border:1px solid #dde;padding:8px}
code{font-size:12px;background:#f0f2f5;padding:1px 3px;border-radius:3px}
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _dump(obj: Any) -> dict[str, Any]:
    if obj is None:
        return {}
    if hasattr(obj, "model_dump"):
        return dict(obj.model_dump(mode="json"))
    return dict(obj)


def _pct(value: Any, digits: int = 0) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{100 * float(value):.{digits}f}%"


def _success_colour(rate: float) -> str:
    """Red (0) through amber to green (1)."""
    hue = 0 if math.isnan(rate) else int(120 * max(0.0, min(1.0, rate)))
    return f"hsl({hue},65%,42%)"


def _action_label(action: Mapping[str, Any] | None, limit: int = 60) -> str:
    if not action:
        return "?"
    args = action.get("args") or {}
    inner = ", ".join(f"{k}={v!r}" for k, v in args.items())
    text = f"{action.get('tool', '?')}({inner})"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def run_provenance(trajs: Sequence[Trajectory]) -> dict[str, Any]:
    """Provenance of a set of runs: models, dates, N, seeds, versions, simulated or not."""
    by_task = group_by_task(list(trajs)) if trajs else {}
    models = sorted({t.meta.model for t in trajs if t.meta.model})
    dates = sorted(t.meta.started_at for t in trajs if t.meta.started_at)
    seeds = sorted({t.meta.seed for t in trajs if t.meta.seed is not None})
    versions = sorted({t.meta.oncourse_version for t in trajs if t.meta.oncourse_version})
    runs_per_task = sorted({len(r) for r in by_task.values()})
    return {
        "model": ", ".join(models) or "unknown",
        "dates": f"{dates[0]} .. {dates[-1]}" if dates else "unknown",
        "tasks": len(by_task),
        "runs": len(trajs),
        "n": ", ".join(map(str, runs_per_task)) or "n/a",
        "seeds": _seed_summary(seeds),
        "run_oncourse_versions": ", ".join(versions) or "unknown",
        "simulated": any(bool(t.meta.simulated) for t in trajs),
    }


def _seed_summary(seeds: list[int]) -> str:
    if not seeds:
        return "none recorded"
    if len(seeds) > 6:
        return f"{len(seeds)} seeds, {seeds[0]}..{seeds[-1]}"
    return ", ".join(map(str, seeds))


def _provenance_section(prov: Mapping[str, Any]) -> str:
    rows = "".join(
        f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in prov.items() if k != "simulated"
    )
    return f"<h2>Provenance</h2><table class='prov'>{rows}</table>"


def _task_section(trajs: Sequence[Trajectory], label: str = "") -> str:
    by_task = group_by_task(list(trajs))
    if not by_task:
        return ""
    k = min(len(r) for r in by_task.values())
    rows = []
    for task, runs in by_task.items():
        n, c = len(runs), sum(r.success for r in runs)
        rows.append((pass_hat_k(n, c, k), c / n, task, n, c))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    body = []
    for hat, rate, task, n, c in rows:
        low, high = wilson_interval(c, n)
        width = int(120 * hat)
        body.append(
            f"<tr><td><code>{_e(task)}</code></td><td class='num'>{c}/{n}</td>"
            f"<td class='num'>{_pct(rate)} <span class='muted'>({_pct(low)}–{_pct(high)})"
            f"</span></td><td class='num'>{hat:.2f}</td><td><span class='barbg'>"
            f"<span class='bar' style='width:{width}px;background:{_success_colour(hat)}'>"
            "</span></span></td></tr>"
        )
    return (
        f"<h2>Tasks{_e(label)}, worst first (pass^{k})</h2><table><tr><th>task</th>"
        "<th>passed</th>"
        f"<th>per-run rate (95% Wilson)</th><th>pass^{k}</th><th></th></tr>{''.join(body)}</table>"
    )


def divergence_svg(analysis: Mapping[str, Any]) -> str:
    """Inline SVG of one divergence: shared prefix, fork step, branches coloured by success."""
    div = analysis.get("divergence") or {}
    branches = list(div.get("branches") or [])
    context = div.get("context") or {}
    prefix = [_action_label(a, limit=40) for a in (context.get("shared_prefix") or [])]
    row_h, width = 44, 1080
    height = max(1, len(branches)) * row_h + 20
    root_y = height / 2
    root_text = prefix[-1] if prefix else "(start)"
    if len(prefix) > 1:
        root_text = f"{len(prefix) - 1} steps → {root_text}"
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"role='img' aria-label='divergence of {_e(analysis.get('task_id'))}'>",
        f"<rect x='4' y='{root_y - 16}' width='330' height='32' rx='5' fill='#eef1f6' "
        "stroke='#99a'/>",
        f"<text x='12' y='{root_y + 4}' font-size='11' fill='#223'>{_e(root_text[:58])}</text>",
    ]
    for i, branch in enumerate(branches):
        y = 10 + i * row_h + row_h / 2
        rate = float(branch.get("success_rate", float("nan")))
        colour = _success_colour(rate)
        runs = branch.get("runs") or []
        label = _action_label(branch.get("action"), limit=62)
        stats = f"{branch.get('successes', 0)}/{len(runs)} passed ({_pct(rate)})"
        parts += [
            f"<path d='M334 {root_y} C 390 {root_y}, 390 {y}, 440 {y}' fill='none' "
            f"stroke='{colour}' stroke-width='{2 + min(6, len(runs))}'/>",
            f"<rect x='440' y='{y - 16}' width='630' height='32' rx='5' fill='{colour}' "
            "fill-opacity='0.15' stroke='" + colour + "' stroke-width='2'/>",
            f"<text x='450' y='{y + 4}' font-size='12' fill='#111'>"
            f"<tspan font-weight='700' fill='{colour}'>{_e(stats)}</tspan>  {_e(label)}</text>",
        ]
    parts.append("</svg>")
    return "".join(parts)


def _divergence_section(analyses: Iterable[Any]) -> str:
    blocks = []
    analyses = list(analyses)
    if not analyses:
        return ""
    for raw in analyses:
        analysis = _dump(raw)
        div = analysis.get("divergence")
        if not div:
            continue
        p = div.get("p_value")
        p_text = f", branch outcome test p = {p:.3g}" if isinstance(p, int | float) else ""
        blocks.append(
            f"<div class='tree'><b><code>{_e(analysis.get('task_id'))}</code></b> "
            f"<span class='muted'>{analysis.get('n_success', '?')}/{analysis.get('n_runs', '?')}"
            f" runs passed; runs fork at step {_e(div.get('step'))}{p_text}</span><br>"
            f"{divergence_svg(analysis)}</div>"
        )
    if not blocks:
        return (
            "<h2>Divergences</h2><p class='muted'>No task whose runs fork into branches with "
            "different outcomes.</p>"
        )
    return "<h2>Divergences</h2>" + "".join(blocks)


def forest_svg(rows: Sequence[tuple[str, float, float, float]], unit: str = "points") -> str:
    """Inline SVG forest plot: one row per (label, estimate, low, high), a line at zero."""
    finite = [v for _, p, lo, hi in rows for v in (p, lo, hi) if math.isfinite(v)]
    lo_axis = min([0.0, *finite]) - 5
    hi_axis = max([0.0, *finite]) + 5
    left, right, width = 190, 880, 1080
    row_h = 34
    height = row_h * len(rows) + 50

    def x(v: float) -> float:
        return left + (v - lo_axis) / (hi_axis - lo_axis) * (right - left)

    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
        "aria-label='forest plot of the lift per split'>",
        f"<line x1='{x(0)}' y1='8' x2='{x(0)}' y2='{height - 34}' stroke='#889' "
        "stroke-dasharray='4 3'/>",
        f"<text x='{x(0) - 4}' y='{height - 14}' font-size='11' fill='#556'>0</text>",
        f"<text x='{left}' y='{height - 14}' font-size='11' fill='#556'>{lo_axis:.0f}</text>",
        f"<text x='{right - 20}' y='{height - 14}' font-size='11' fill='#556'>{hi_axis:.0f}"
        f" {_e(unit)}</text>",
    ]
    for i, (label, point, low, high) in enumerate(rows):
        y = 24 + i * row_h
        parts.append(f"<text x='8' y='{y + 4}' font-size='13' fill='#223'>{_e(label)}</text>")
        if not math.isfinite(point):
            parts.append(f"<text x='{left}' y='{y + 4}' font-size='12'>n/a</text>")
            continue
        colour = "#2e8b57" if low > 0 else "#b22222" if high < 0 else "#3a5a9a"
        parts += [
            f"<line x1='{x(low)}' y1='{y}' x2='{x(high)}' y2='{y}' stroke='{colour}' "
            "stroke-width='3'/>",
            f"<rect x='{x(point) - 6}' y='{y - 6}' width='12' height='12' fill='{colour}'/>",
            f"<text x='{right + 12}' y='{y + 4}' font-size='12' fill='#223'>"
            f"{point:+.1f} [{low:+.1f}, {high:+.1f}]</text>",
        ]
    parts.append("</svg>")
    return "".join(parts)


def _splits_section(splits: Mapping[str, Any]) -> str:
    if not splits:
        return ""
    forest_rows: list[tuple[str, float, float, float]] = []
    table = []
    for name, raw in splits.items():
        result = _dump(raw)
        lift = result.get("all_n_lift") or {}
        forest_rows.append(
            (name, _num(lift.get("points")), _num(lift.get("low")), _num(lift.get("high")))
        )
        base, mem = result.get("baseline") or {}, result.get("candidate") or {}
        mc = result.get("mcnemar") or {}
        table.append(
            f"<tr><td>{_e(name)}</td><td class='num'>{result.get('shared_tasks', '?')}</td>"
            f"<td class='num'>{_range(base, 'per_run')}</td><td class='num'>"
            f"{_range(mem, 'per_run')}</td><td class='num'>{_range(base, 'all_n')}</td>"
            f"<td class='num'>{_range(mem, 'all_n')}</td><td class='num'>"
            f"{_num(mc.get('p_value')):.3g}</td><td class='num'>"
            f"{_pct(result.get('harm_rate'))}</td><td class='num'>"
            f"{_tokens(result.get('mean_injected_tokens'))}</td></tr>"
        )
    return (
        "<h2>Lift of the all-N rate per split (memory − baseline, 95% paired bootstrap)</h2>"
        + forest_svg(forest_rows)
        + "<table><tr><th>split</th><th>tasks</th><th>per-run baseline</th><th>per-run memory"
        "</th><th>all-N baseline</th><th>all-N memory</th><th>McNemar p</th><th>harm rate</th>"
        "<th>injected tokens/task</th></tr>" + "".join(table) + "</table>"
    )


def _num(value: Any) -> float:
    return float("nan") if value is None else float(value)


def _tokens(value: Any) -> str:
    return "n/a" if value is None or math.isnan(float(value)) else f"{float(value):.0f}"


def _range(arm: Mapping[str, Any], key: str) -> str:
    if not arm:
        return "n/a"
    rate, low, high = (arm.get(f"{key}_{s}") for s in ("rate", "low", "high"))
    return f"{_pct(rate)} ({_pct(low)}–{_pct(high)})"


def _guideline_section(guidelines: Iterable[Any]) -> str:
    rows = []
    for raw in guidelines:
        g = _dump(raw)
        status = str(g.get("status", "?"))
        provs = g.get("provenance") or []
        prov_text = "; ".join(
            f"tasks {', '.join(p.get('source_tasks') or []) or '?'}, step {p.get('fork_step')}, "
            f"{p.get('generator', '?')}{' / ' + p['model'] if p.get('model') else ''}, "
            f"{p.get('created_at', '')}"
            for p in provs
        )
        counters = g.get("counters") or {}
        w, wo = counters.get("outcomes_with") or {}, counters.get("outcomes_without") or {}
        rows.append(
            f"<tr><td><code>{_e(g.get('id'))}</code></td><td><span class='badge "
            f"st-{_e(status)}'>{_e(status)}</span></td><td><b>{_e(g.get('trigger', ''))}</b><br>"
            f"{_e(g.get('instruction', ''))}</td><td>{_e(prov_text)}</td><td class='num'>"
            f"{counters.get('injected', 0)}</td><td class='num'>{w.get('successes', 0)}/"
            f"{w.get('runs', 0)}</td><td class='num'>{wo.get('successes', 0)}/"
            f"{wo.get('runs', 0)}</td></tr>"
        )
    if not rows:
        return ""
    return (
        "<h2>Guidelines</h2><table><tr><th>id</th><th>status</th><th>trigger / instruction</th>"
        "<th>provenance</th><th>injected</th><th>passed with</th><th>passed without</th></tr>"
        + "".join(rows)
        + "</table>"
    )


def render_report(
    trajectories: Sequence[Trajectory] = (),
    analyses: Iterable[Any] = (),
    splits: Mapping[str, Any] | None = None,
    guidelines: Iterable[Any] = (),
    provenance: Mapping[str, Any] | None = None,
    title: str = "oncourse report",
    runs_label: str = "",
    sections: Sequence[str] = (),
) -> str:
    """Render the report as one HTML string.

    Args:
        trajectories: Runs whose per-task pass^k is listed (worst first).
        analyses: `TaskAnalysis` objects or dicts; divergent ones get a tree.
        splits: Split name -> an `ArmComparison` (or its dict, optionally with
            `mean_injected_tokens`), drawn as the forest plot and table.
        guidelines: `Guideline` objects or dicts.
        provenance: Extra provenance rows; merged over what the runs say.
        title: Page title.
        runs_label: Which runs the task table shows (e.g. "memory arm"), when not obvious.
        sections: Pre-rendered HTML sections shown right after the provenance (the eval's arms).
    """
    prov: dict[str, Any] = run_provenance(trajectories)
    prov.update(provenance or {})
    prov["report_oncourse_version"] = __version__
    prov["report_written_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    banner = ""
    if prov.get("simulated"):
        banner = (
            "<div class='banner'>SIMULATED — these runs come from the simulated model: a "
            "mechanism check of the harness, not a result about any LLM.</div>"
        )
    body = [
        f"<h1>{_e(title)}</h1>",
        banner,
        _provenance_section(prov),
        *sections,
        _splits_section(splits or {}),
        _task_section(trajectories, f" ({runs_label})" if runs_label else "")
        if trajectories
        else "",
        _divergence_section(analyses),
        _guideline_section(guidelines),
    ]
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width'><title>{_e(title)}</title>"
        f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n"
    )


def write_report(path: str | Path, **kwargs: Any) -> Path:
    """Render the report (see `render_report`) into `path`; returns the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_report(**kwargs), encoding="utf-8")
    return out


def write_runs_report(
    path: str | Path, trajs: Sequence[Trajectory], sources: Sequence[str] = ()
) -> Path:
    """The report of recorded runs (`oncourse report --html`): tasks, divergences, provenance."""
    from oncourse.consistency.analyzer import analyze_runs

    return write_report(
        path,
        trajectories=trajs,
        analyses=analyze_runs(trajs) if trajs else [],
        provenance={"sources": ", ".join(sources)} if sources else None,
    )


__all__ = [
    "divergence_svg",
    "forest_svg",
    "render_report",
    "run_provenance",
    "write_report",
    "write_runs_report",
]
