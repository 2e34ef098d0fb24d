"""Each command adds itself to the command line from its own module (`register`, through
`commands.common.add_command`), and `--help` still lists every option with its help."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import pytest

import tui_assistant.commands
from tui_assistant import cli

COMMANDS_FOLDER = Path(tui_assistant.commands.__file__).parent
# Not subcommands: what they share, and the TUI (the command line without one).
NOT_SUBCOMMANDS = {"__init__", "common", "tui"}

COMMON = {
    "--library": "library folder, named NAME or after the folder; give it again",
    "--lessons": "--lessons [NAME=]DIR",
    "--retrieval": "auto, keyword, ranked or hybrid (overrides TUI_ASSISTANT_RETRIEVAL)",
}
# Every option (and positional) of each command, with words of its help.
OPTIONS: dict[str, dict[str, str]] = {
    "ask": {**COMMON, "--json": "one JSON object per question", "QUESTION": "QUESTION"},
    "eval": {**COMMON, "--json": "print one JSON object", "CASES.jsonl": "CASES.jsonl"},
    "passages": {**COMMON, "--json": "print one JSON array"},
    "lessons": {**COMMON, "--json": "print one JSON array"},
    "library": {**COMMON, "--json": "print one JSON object"},
    "status": {**COMMON, "--json": "print one JSON object"},
    "gaps": {**COMMON, "--json": "print one JSON object"},
    "mcp": {
        **COMMON,
        "--library-from": "also serve the fetched libraries of FILE's pinned dependencies",
        "--http": "any address but loopback needs TUI_ASSISTANT_MCP_TOKEN",
        "--workers": "with --http: N processes (1-64)",
    },
    "fetch": {
        "--json": "one JSON object per SPEC",
        "--from": "fetch the pinned dependencies of requirements*.txt, uv.lock",
        "SPEC": "pypi:NAME[==VERSION] or npm:NAME[@VERSION]",
    },
    "search": {
        **COMMON,
        "--json": "one JSON object per passage, then one with the decision",
        "--limit": "how many passages, 1 to 10 (default 5)",
        "QUESTION": "QUESTION",
    },
}


def command_modules() -> list[str]:
    return sorted(
        path.stem for path in COMMANDS_FOLDER.glob("*.py") if path.stem not in NOT_SUBCOMMANDS
    )


def help_of(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as exited:
        cli.main([*args, "--help"])
    assert exited.value.code == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("name", command_modules())
def test_every_command_module_has_register_taking_the_subparsers(name: str) -> None:
    tree = ast.parse((COMMANDS_FOLDER / f"{name}.py").read_text(encoding="utf-8"))
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert "run" in functions
    register = functions["register"]
    assert [argument.arg for argument in register.args.args] == ["subparsers"]
    assert isinstance(register.returns, ast.Constant) and register.returns.value is None


def test_the_command_line_lists_every_command_module() -> None:
    listed = sorted(cli.COMMANDS)  # the modules' names: each imported only when run
    assert listed == command_modules()


def test_cli_builds_no_command_parser_itself() -> None:
    tree = ast.parse(Path(cli.__file__).read_text(encoding="utf-8"))
    calls = [
        (node.func.attr, node)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    ]
    assert not [call for name, call in calls if name == "add_parser"]
    arguments = [call for name, call in calls if name == "add_argument"]
    # Only the program's own `--version`; the common options come from commands.common.
    assert [ast.literal_eval(call.args[0]) for call in arguments] == ["--version"]


def test_no_command_module_shadows_a_builtin() -> None:
    assert not set(command_modules()) & set(dir(builtins))


@pytest.mark.parametrize("command", sorted(OPTIONS))
def test_each_commands_help_lists_its_options_and_their_help(
    command: str, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = help_of(capsys, command)
    for option, words in OPTIONS[command].items():
        assert option in shown, option
        assert words in shown, option
    if command == "fetch":  # reads no library
        assert "--library" not in shown
    if command == "mcp":
        assert "--json" not in shown


def test_the_programs_help_says_what_it_reads_and_lists_the_commands(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = help_of(capsys)
    assert "Markdown, reStructuredText, text, HTML, PDF and manual-page documents" in shown
    assert "packages' documentation fetched" in shown
    listed = [
        "ask",
        "eval",
        "passages (lessons)",
        "library",
        "status",
        "gaps",
        "mcp",
        "fetch",
        "search",
    ]
    table = shown.split("commands: COMMAND", 1)[1]
    places = [table.index(f" {name} ") for name in listed]
    assert places == sorted(places)
