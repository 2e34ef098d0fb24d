"""Command line: the TUI (default), `ask`, `eval`, `passages`, `library`, `status`,
`gaps`, `mcp` and `fetch`.

Exit status: 0 when the command ran, 2 for a usage or configuration error (one line on
stderr, no traceback), 130 when interrupted. The headless commands never import
Textual.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from tui_assistant import PROG, __version__
from tui_assistant.commands import fetch, search
from tui_assistant.compat import LIBRARY_OPTIONS, PASSAGES_COMMAND_ALIASES
from tui_assistant.core.conversation import Conversation
from tui_assistant.core.display_text import clean_display_text, one_line
from tui_assistant.core.library.library import FileProblem
from tui_assistant.core.record import PassageRef
from tui_assistant.errors import CasesError, LibraryError, StartupError, UsageError
from tui_assistant.output import (
    ProgressLine,
    eval_json,
    format_eval_report,
    format_gaps,
    format_status,
    print_json,
    print_readable,
)
from tui_assistant.settings import RETRIEVAL_MODES, Settings, load_settings
from tui_assistant.wiring.context import AppContext, open_context, with_stored_vectors

if TYPE_CHECKING:
    from tui_assistant.core.evaluation import EvalCase


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG, description="Answers questions from a library of Markdown documents."
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    _add_common_options(parser)
    parser.set_defaults(handler=_run_tui)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=_Parser)

    ask = _command(
        commands,
        "ask",
        _run_ask,
        "one JSON object per question",
        help="answer questions without the TUI",
        description="Answer questions without the TUI. With no QUESTION, read one per line "
        "from standard input. All questions form one conversation.",
    )
    ask.add_argument("questions", nargs="*", metavar="QUESTION")
    evaluate = _command(
        commands,
        "eval",
        _run_eval,
        "print one JSON object",
        help="measure retrieval on a file of cases",
        description="Run every case of a JSON-lines file through the same path as `ask` "
        "and report how often the expected passage (or, for null, no passage) was retrieved.",
    )
    evaluate.add_argument("cases", type=Path, metavar="CASES.jsonl")
    _command(
        commands,
        "passages",
        _run_passages,
        "print one JSON array",
        aliases=list(PASSAGES_COMMAND_ALIASES),
        help="list the library's passages",
    )
    _command(
        commands,
        "library",
        _run_library,
        "print one JSON object",
        help="report what the library holds",
        description="Report the library's documents and passages by kind, the files skipped "
        "and why, the index store's place and size, and the vectors' state. Embeds nothing.",
    )
    _command(
        commands,
        "status",
        _run_status,
        "print one JSON object",
        help="what answers now, per library",
        description="Per library: documents, passages, vectors ready and their model, when "
        "the files were read, whether they are watched, and the retrieval that answers "
        "(as the MCP server would serve them). Embeds nothing.",
    )
    _command(
        commands,
        "gaps",
        _run_gaps,
        "print one JSON object",
        help="the questions the library could not answer",
        description="List the questions that ended unsure or with nothing (in the TUI, ask "
        "and the MCP server), per library, grouped by the passage each came nearest to, most "
        "asked first: what the documentation should say next. Reads no document.",
    )
    mcp = _command(
        commands,
        "mcp",
        _run_mcp,
        None,
        help="serve the library to coding agents (MCP over stdio or HTTP)",
        description="Serve the library to MCP clients (coding agents) over standard input "
        "and output, or over streamable HTTP at /mcp with --http: the tools search, read, "
        "check, status, gaps and ask. Needs the mcp extra.",
    )
    mcp.add_argument(
        "--library-from",
        type=Path,
        metavar="FILE",
        help="also serve the fetched libraries of FILE's pinned dependencies (see fetch --from)",
    )
    mcp.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        help="serve over streamable HTTP on HOST (127.0.0.1 unless given) and PORT; any "
        "address but loopback needs TUI_ASSISTANT_MCP_TOKEN",
    )
    fetch.register(commands)
    mcp.add_argument(
        "--workers", type=int, default=1, metavar="N", help="with --http: N processes (1-64)"
    )
    search.register(commands, _command)
    return parser


def _command(
    commands: argparse._SubParsersAction[_Parser],
    name: str,
    handler: Callable[[argparse.Namespace], int],
    json_help: str | None,
    **described: Any,
) -> argparse.ArgumentParser:
    """A subcommand with the common options, `--json` when `json_help` says what it
    prints, and its handler."""
    command = commands.add_parser(name, **described)
    _add_common_options(command)
    if json_help is not None:
        command.add_argument("--json", action="store_true", help=json_help)
    command.set_defaults(handler=handler)
    return command


def _add_common_options(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS keeps a subcommand's unset option from hiding the top-level one.
    parser.add_argument(
        *LIBRARY_OPTIONS,
        dest="library",
        action="append",
        metavar="[NAME=]DIR",
        default=argparse.SUPPRESS,
        help="library folder, named NAME or after the folder; give it again to search "
        "several libraries (overrides TUI_ASSISTANT_LIBRARY)",
    )
    parser.add_argument(
        "--retrieval",
        choices=RETRIEVAL_MODES,
        metavar="MODE",
        default=argparse.SUPPRESS,
        help="auto, keyword, ranked or hybrid (overrides TUI_ASSISTANT_RETRIEVAL)",
    )


def main(argv: list[str] | None = None) -> int:
    _never_fail_on_encoding()
    _show_core_warnings()
    try:
        args = build_parser().parse_args(argv)
        return int(args.handler(args))
    except StartupError as error:
        if isinstance(error, LibraryError):
            # When no document is left, the skipped files are the explanation.
            _warn_skipped(error.problems)
        _error_line(str(error))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`); nothing left to say to it.
        sys.stderr.close()
        return 0


def _never_fail_on_encoding() -> None:
    """A character the terminal's encoding lacks (an emoji on an ASCII terminal, a
    question's undecodable byte) is written as an escape instead of a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


class _WarningLines(logging.Handler):
    """The core's logged warnings (such as a damaged call ledger) as the CLI's own
    one-line `warning:` messages, instead of logging's bare last-resort output."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"{PROG}: warning: {one_line(record.getMessage())}", file=sys.stderr)


def _show_core_warnings() -> None:
    logger = logging.getLogger("tui_assistant")
    if not any(isinstance(handler, _WarningLines) for handler in logger.handlers):
        logger.addHandler(_WarningLines(logging.WARNING))


def _error_line(message: str) -> None:
    print(f"{PROG}: error: {one_line(message)}", file=sys.stderr)


def _warn_skipped(problems: Iterable[FileProblem]) -> None:
    for problem in problems:
        print(f"{PROG}: warning: {one_line(str(problem))}", file=sys.stderr)


def _open(args: argparse.Namespace, answering: bool = True, embed_now: bool = True) -> AppContext:
    """The context for a command. Commands that answer get the configured retrieval,
    with `hybrid`'s missing vectors computed first unless not `embed_now`; `passages`
    only lists."""
    settings = _settings(args)
    if not answering:
        settings = settings.model_copy(update={"retrieval": "keyword"})
    with (
        ProgressLine("fetching the embedding model:", "MB", scale=1 << 20) as fetching,
        ProgressLine("indexing", "files") as indexing,
        ProgressLine("embedding", "passages") as embedding,
    ):
        context = open_context(
            settings, indexing, embedding, embed_now=embed_now, fetching=fetching
        )
    _warn_skipped(context.library.problems)
    return context


def _settings(args: argparse.Namespace) -> Settings:
    return load_settings(getattr(args, "library", None), getattr(args, "retrieval", None))


def _run_tui(args: argparse.Namespace) -> int:
    # Settings first: a configuration error is reported before Textual is imported.
    settings = _settings(args)
    from tui_assistant.ui.app import run_app

    # The app draws its screen at once and loads the library itself, showing progress.
    return run_app(settings)


def _run_passages(args: argparse.Namespace) -> int:
    context = _open(args, answering=False)
    if args.json:
        rows = [PassageRef.of(passage).model_dump() for passage in context.library]
        print(json.dumps(rows, indent=2))
        return 0
    width = max(len(passage.id) for passage in context.library)
    for passage in context.library:
        # The source path starts with the user's folder name, which may hold anything.
        line = (
            f"{passage.id:<{width}}  {one_line(passage.title)}  "
            f"({passage.source_path}:{passage.line})"
        )
        print(clean_display_text(line))
    return 0


def _run_library(args: argparse.Namespace) -> int:
    from tui_assistant.core.library.report import format_report
    from tui_assistant.wiring.context import describe_library, load_library
    from tui_assistant.wiring.retrieval_choice import choose_retrieval

    settings = _settings(args)
    # Never fetches a model: the report says it is not fetched yet.
    choice = choose_retrieval(settings, settings.data_dir, fetch=False)
    with ProgressLine("indexing", "files") as indexing:
        library = load_library(settings, indexing)
    # The skipped files are part of the report, not warnings before it.
    try:
        reports = [
            describe_library(settings, part, choice, choice.mode) for part in library.parts.values()
        ]
    finally:
        library.close()
    if args.json:
        shown: object = reports[0].to_json()
        if len(reports) > 1:
            shown = {"libraries": [report.to_json() for report in reports]}
        print(json.dumps(shown, indent=2))
    else:
        print("\n\n".join(map(format_report, reports)))
    return 0


def _run_status(args: argparse.Namespace) -> int:
    from tui_assistant.wiring.status import status_of

    context = with_stored_vectors(_open(args, embed_now=False))
    try:
        # As the MCP server would serve them: it watches the folders as the setting says.
        status = status_of(context, watching=context.settings.watch)
    finally:
        context.library.close()
    if args.json:
        print(json.dumps(status.model_dump(mode="json"), indent=2))
    else:
        print(format_status(status))
    return 0


def _run_gaps(args: argparse.Namespace) -> int:
    from tui_assistant.wiring.context import list_gaps

    settings = _settings(args)
    gaps = list_gaps(settings)
    if args.json:
        print(json.dumps(gaps.model_dump(mode="json"), indent=2))
    else:
        print(format_gaps(gaps, recording=settings.gaps))
    return 0


def _run_mcp(args: argparse.Namespace) -> int:
    try:
        from tui_assistant.mcp.http import check_token_rule, parse_http_address
        from tui_assistant.mcp.server import serve
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in ("mcp", "mcp_types", "starlette"):
            raise
        raise UsageError(
            "the mcp command needs the MCP SDK: pip install 'tui-assistant[mcp]'"
        ) from None
    if args.library_from is not None:
        args.library = fetch.project_libraries(args.library_from, getattr(args, "library", []))
    # An address or token that cannot serve is said before the library is read.
    http = parse_http_address(args.http) if args.http is not None else None
    token = check_token_rule(http, _settings(args)) if http is not None else None
    if args.workers != 1:
        from tui_assistant.mcp import workers

        workers.check_workers(args.workers, http)
        if http is not None:
            chosen = getattr(args, "library", None), getattr(args, "retrieval", None)
            return workers.serve_workers(*chosen, http, args.workers)
    # Standard output is the protocol: nothing printed while loading may reach it.
    with contextlib.redirect_stdout(sys.stderr):
        # Vectors already stored are read before the first call, so a warm server
        # answers with hybrid from it; missing ones are embedded in the background.
        context = with_stored_vectors(_open(args, embed_now=False))
    return serve(context, http, token)


def _run_ask(args: argparse.Namespace) -> int:
    context = _open(args)
    questions: Iterable[str] = args.questions or _stdin_questions(sys.stdin)
    emit = print_json if args.json else print_readable
    conversation = Conversation()
    with asyncio.Runner() as runner:
        try:
            for question in questions:
                try:
                    outcome = runner.run(context.service.ask(question, conversation))
                except KeyboardInterrupt:
                    # Ctrl-C during a provider call: the service recorded the turn as cancelled.
                    if conversation.turns and conversation.turns[-1].question == question:
                        emit(conversation.turns[-1])
                    raise
                emit(outcome)
                context.record_gap(outcome)
        finally:
            runner.run(context.aclose())
    return 0


def _run_eval(args: argparse.Namespace) -> int:
    from tui_assistant.core.evaluation import check_expected_passages, evaluate

    # Everything that can fail with exit 2 happens before anything is printed.
    cases = _read_cases(args.cases)
    context = _open(args)
    try:
        check_expected_passages(cases, (passage.id for passage in context.library))
    except CasesError as error:
        raise UsageError(f"cases file {args.cases}: {error}") from None
    # Model calls can take minutes: show progress, but only to a person watching.
    progress = _show_progress if context.service.provider and sys.stderr.isatty() else None
    with asyncio.Runner() as runner:
        try:
            report = runner.run(evaluate(cases, context.service, progress))
        finally:
            runner.run(context.aclose())
            if progress is not None:
                print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    retrieval, mode = context.retrieval, context.mode_label
    if args.json:
        print(json.dumps(eval_json(report, retrieval, mode)))
    else:
        shown = ", ".join(str(part.folder) for part in context.library.parts.values())
        print(clean_display_text(format_eval_report(report, shown, retrieval, mode)))
    return 0


def _show_progress(done: int, total: int) -> None:
    print(f"\rcase {done}/{total}", end="", file=sys.stderr, flush=True)


def _read_cases(path: Path) -> list[EvalCase]:
    from tui_assistant.core.evaluation import parse_cases

    try:
        with path.open(encoding="utf-8-sig") as stream:
            return parse_cases(stream)
    except CasesError as error:
        raise UsageError(f"cases file {path}: {error}") from None
    except FileNotFoundError:
        raise UsageError(f"cases file {path} does not exist") from None
    except UnicodeDecodeError:
        raise UsageError(f"cases file {path} is not UTF-8 text") from None
    except OSError as error:
        raise UsageError(f"cases file {path} cannot be read: {error.strerror}") from None


def _stdin_questions(stream: TextIO) -> Iterator[str]:
    """Questions from a stream, one per line, read lazily so a pipe can converse."""
    for line in stream:
        question = line.strip()
        if question:
            yield question
