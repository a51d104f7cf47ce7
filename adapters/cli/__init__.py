"""The `oncourse` command line.

Each verb lives in its own module `adapters/cli/cmd_<verb>.py` exposing `register(app)`; they are
found by name so that adding a verb touches no other file.

One error path: every usage error (bad flag value, missing or unknown option), every project
error and every I/O failure ends as one line on stderr and exit code 2; Ctrl-C is 130.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Sequence
from typing import Any

import typer
import typer.exceptions
from oncourse.adapters.cli._errors import input_warnings_as_lines, one_line, usage_error_line
from oncourse.consistency.errors import OncourseError
from pydantic import ValidationError
from typer._click import exceptions as click_errors

app = typer.Typer(
    name="oncourse",
    help="Make AI agents consistent: measure pass^N, find forks, learn guidelines, prove the lift.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Make AI agents consistent: measure pass^N, find forks, learn guidelines, prove the lift."""


def _register_commands() -> None:
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name.startswith("cmd_"):
            importlib.import_module(f"{__name__}.{module.name}").register(app)


_register_commands()


def _fail(line: str, code: int = 2) -> None:
    print(line, file=sys.stderr)
    sys.exit(code)


def _invoke(argv: list[str] | None) -> Any:
    with input_warnings_as_lines():
        return app(args=argv, prog_name="oncourse", standalone_mode=False)


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point: run the app; every error becomes one line and an exit code."""
    try:
        code = _invoke(None if argv is None else list(argv))
    except OncourseError as exc:
        _fail(f"oncourse: error: {one_line(str(exc))}")
    except click_errors.NoArgsIsHelpError as exc:
        exc.show()  # the help text, as `oncourse` alone asks for
        sys.exit(2)
    except click_errors.ClickException as exc:
        _fail(usage_error_line(exc))
    except (KeyboardInterrupt, typer.exceptions.Abort):
        _fail("oncourse: interrupted", 130)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (`| head`); nothing more to say
        sys.exit(1)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        _fail(f"oncourse: error: {where}{exc.strerror or one_line(str(exc))}")
    except RecursionError:
        _fail("oncourse: error: input nested too deeply")
    except ValidationError as exc:  # a library options model refused a value
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or exc.title
        _fail(f"oncourse: error: {where}: {one_line(first['msg'])}")
    # Non-standalone typer returns, not raises, the code of Ctrl-C (130) and of typer.Exit.
    if isinstance(code, int) and not isinstance(code, bool) and code != 0:
        if code == 130:
            print("oncourse: interrupted", file=sys.stderr)
        sys.exit(code)


__all__ = ["app", "main", "usage_error_line"]
