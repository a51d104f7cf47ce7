"""The `oncourse` command line.

Each verb lives in its own module `adapters/cli/cmd_<verb>.py` exposing `register(app)`; they are
found by name so that adding a verb touches no other file.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import typer
from oncourse.consistency.errors import OncourseError

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


def main() -> None:
    """Console entry point: run the app, turning project errors into one line and exit code 2."""
    try:
        code = app(standalone_mode=False)
    except OncourseError as exc:
        print(f"oncourse: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("oncourse: interrupted", file=sys.stderr)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as exc:  # click usage errors arrive here in non-standalone mode
        import click

        if isinstance(exc, click.exceptions.ClickException):
            exc.show()
            sys.exit(2)
        if isinstance(exc, click.exceptions.Abort):
            sys.exit(130)
        raise
    # Non-standalone typer returns, not raises, the code of Ctrl-C (130) and of typer.Exit.
    if isinstance(code, int) and not isinstance(code, bool) and code != 0:
        if code == 130:
            print("oncourse: interrupted", file=sys.stderr)
        sys.exit(code)


__all__ = ["app", "main"]
