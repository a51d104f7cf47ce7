"""The CLI only parses and prints (issue 14): every module of adapters/cli/ stays under 120 lines.

The work lives in the library (adapters/recorded.py, adapters/suite_run.py, memory/curation.py,
...); a CLI module that grows past the limit is taking on logic and should hand it down.
"""

from __future__ import annotations

from pathlib import Path

import oncourse.adapters.cli as cli

LIMIT = 120
CLI_DIR = Path(cli.__file__).parent


def test_every_cli_module_is_under_the_line_limit() -> None:
    modules = sorted(CLI_DIR.glob("*.py"))
    assert len(modules) > 10, f"expected the CLI's modules in {CLI_DIR}"
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in modules}
    too_long = {name: n for name, n in sizes.items() if n >= LIMIT}
    assert not too_long, f"adapters/cli modules of {LIMIT} lines or more: {too_long}"


def test_the_cli_folder_has_no_subpackages_escaping_the_check() -> None:
    nested = [p for p in CLI_DIR.rglob("*.py") if p.parent != CLI_DIR]
    assert nested == [], f"the line check reads adapters/cli/*.py only; move or check {nested}"
