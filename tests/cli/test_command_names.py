"""A command line that starts with a subcommand's name is parsed by that subcommand
alone, exactly as by the whole command line, and imports no other command."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from tui_assistant import cli

# What each subcommand needs besides its name to parse.
OPERANDS = {
    "ask": ["--json", "what"],
    "search": ["--json", "what"],
    "changes": ["a@1", "a@2"],
    "eval": ["cases.jsonl"],
    "fetch": ["pypi:attrs"],
}


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(actions[0].choices)


def test_every_subcommand_name_is_known_before_the_parser_is_built() -> None:
    assert set(subcommands(cli.build_parser())) == set(cli.COMMAND_OF)


@pytest.mark.parametrize("name", sorted(cli.COMMAND_OF))
def test_one_subcommand_parses_and_helps_as_the_whole_command_line(name: str) -> None:
    whole, alone = cli.build_parser(), cli.build_parser(name)
    assert set(subcommands(alone)) <= set(subcommands(whole))
    assert subcommands(alone)[name].format_help() == subcommands(whole)[name].format_help()
    arguments = [name, *OPERANDS.get(name, [])]
    assert vars(alone.parse_args(arguments)) == vars(whole.parse_args(arguments))


def test_search_imports_no_other_command() -> None:
    code = (
        "import json, sys\n"
        "from tui_assistant import cli\n"
        "cli.build_parser('search')\n"
        "print(json.dumps([m for m in sys.modules if m.startswith('tui_assistant.commands.')]))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(json.loads(shown))
    assert loaded.isdisjoint(
        f"tui_assistant.commands.{name}" for name in ("fetch", "mcp", "changes", "evaluate")
    )
    assert "tui_assistant.commands.search" in loaded
