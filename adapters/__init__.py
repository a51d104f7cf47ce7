"""Everything that touches the outside: providers, the agent loop, suites, file formats, the CLI."""

__all__: list[str] = []
