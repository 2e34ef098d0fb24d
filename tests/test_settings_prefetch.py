"""The TUI's settings, read by a forked child while Textual is imported, are exactly
the settings `load_settings` reads, errors included, and the parent never imports
pydantic on that path. A child that dies or stalls costs nothing but time.

Each case runs in a fresh Python process, as the TUI does: forking the test runner
itself (which may hold threads) is what `prefetch_settings` refuses to do.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT, cli_env

KEY = "sk-prefetch-3e8b1d7c55"

SCRIPT = textwrap.dedent(
    """
    import json, os, sys, threading, time
    from pathlib import Path
    from tui_assistant import settings_prefetch
    from tui_assistant.settings import ConfigError, load_settings

    how = sys.argv[1]
    lessons = Path(sys.argv[2]) if sys.argv[2] else None
    parent = os.getpid()
    real_load = settings_prefetch.load_settings

    def in_child_only(action):
        def load(*args):
            if os.getpid() != parent:
                action()
            return real_load(*args)
        return load

    if how == "child dies":
        settings_prefetch.load_settings = in_child_only(lambda: os._exit(3))
    elif how == "child stalls":
        settings_prefetch.CHILD_WAIT_SECONDS = 0.5
        settings_prefetch.load_settings = in_child_only(lambda: time.sleep(60))
    elif how == "child garbles":
        real_to_json = settings_prefetch.settings_to_json
        def garbled(settings):
            return {"bogus": 1} if os.getpid() != parent else real_to_json(settings)
        settings_prefetch.settings_to_json = garbled
    elif how == "threads running":
        threading.Thread(target=time.sleep, args=(2,), daemon=True).start()

    def outcome(read):
        try:
            return {"settings": settings_prefetch.settings_to_json(read())}
        except ConfigError as error:
            return {"error": str(error)}

    reading = settings_prefetch.prefetch_settings(lessons)
    prefetched = outcome(reading.result)
    pydantic_in_parent = "pydantic" in sys.modules
    try:
        os.waitpid(-1, os.WNOHANG)
        children_left = True
    except ChildProcessError:
        children_left = False
    inline = outcome(lambda: load_settings(lessons))
    print(json.dumps({
        "prefetched": prefetched,
        "inline": inline,
        "forked": reading.forked,
        "pydantic_in_parent": pydantic_in_parent,
        "children_left": children_left,
    }))
    """
)


def prefetch(
    tmp_path: Path,
    *,
    env: dict[str, str] | None = None,
    dotenv: str | None = None,
    lessons: str = "",
    how: str = "normal",
) -> dict[str, object]:
    workdir = tmp_path / "cwd"
    workdir.mkdir(exist_ok=True)
    if dotenv is not None:
        (workdir / ".env").write_text(dotenv, encoding="utf-8")
    environment = cli_env(tmp_path / "data", env)
    if "TUI_ASSISTANT_DATA_DIR" not in (env or {}):
        del environment["TUI_ASSISTANT_DATA_DIR"]  # so the default shows as the default
    process = subprocess.run(
        [sys.executable, "-c", SCRIPT, how, lessons],
        capture_output=True,
        text=True,
        env=environment,
        cwd=workdir,
        timeout=60,
    )
    assert process.returncode == 0, process.stderr[-1000:]
    result: dict[str, object] = json.loads(process.stdout)
    return result


def test_defaults_come_from_the_child_without_pydantic_in_the_app(tmp_path: Path) -> None:
    result = prefetch(tmp_path)

    assert result["forked"] is True
    assert result["prefetched"] == result["inline"]
    assert result["prefetched"] == {
        "settings": {
            "lessons_dir": None,
            "provider": "deterministic",
            "base_url": "https://api.openai.com/v1",
            "model": "gpt-4o-mini",
            "api_key": None,
            "deadline_seconds": 20.0,
            "monthly_call_limit": None,
            "data_dir": None,
            "retrieval": "keyword",
            "support_check": "warn",
        }
    }
    assert result["pydantic_in_parent"] is False
    assert result["children_left"] is False


def test_every_setting_from_environment_and_dotenv_arrives_intact(tmp_path: Path) -> None:
    result = prefetch(
        tmp_path,
        env={
            "TUI_ASSISTANT_MODEL": "qwen",  # the environment wins over .env
            "TUI_ASSISTANT_LESSONS_DIR": str(tmp_path / "from-env"),
            "TUI_ASSISTANT_DATA_DIR": str(tmp_path / "data dir"),
        },
        dotenv=(
            "TUI_ASSISTANT_PROVIDER=openai\n"
            "TUI_ASSISTANT_BASE_URL=http://127.0.0.1:8080/v1\n"
            "TUI_ASSISTANT_MODEL=llama3\n"
            f"TUI_ASSISTANT_API_KEY='  {KEY} '\n"
            "TUI_ASSISTANT_DEADLINE_SECONDS=2.5\n"
            "TUI_ASSISTANT_MONTHLY_CALL_LIMIT=7\n"
            "TUI_ASSISTANT_RETRIEVAL=ranked\n"
            "TUI_ASSISTANT_SUPPORT_CHECK=strict\n"
        ),
        lessons=str(tmp_path / "from-option"),
    )

    assert result["forked"] is True
    assert result["prefetched"] == result["inline"]
    assert result["prefetched"] == {
        "settings": {
            "lessons_dir": str(tmp_path / "from-option"),  # --lessons wins
            "provider": "openai",
            "base_url": "http://127.0.0.1:8080/v1",
            "model": "qwen",
            "api_key": KEY,
            "deadline_seconds": 2.5,
            "monthly_call_limit": 7,
            "data_dir": str(tmp_path / "data dir"),
            "retrieval": "ranked",
            "support_check": "strict",
        }
    }
    assert result["pydantic_in_parent"] is False


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"TUI_ASSISTANT_DEADLINE_SECONDS": "60"}, "TUI_ASSISTANT_DEADLINE_SECONDS"),
        ({"TUI_ASSISTANT_RETRIEVAL": "fuzzy"}, "TUI_ASSISTANT_RETRIEVAL"),
        (
            {
                "TUI_ASSISTANT_PROVIDER": "openai",
                "TUI_ASSISTANT_API_KEY": KEY,
                "TUI_ASSISTANT_BASE_URL": f"https://user:{KEY}@example.com/v1",
            },
            "TUI_ASSISTANT_BASE_URL",
        ),
    ],
    ids=["deadline", "retrieval", "url with the key"],
)
def test_a_bad_setting_is_the_same_one_line_error(
    tmp_path: Path, env: dict[str, str], variable: str
) -> None:
    result = prefetch(tmp_path, env=env)

    assert result["forked"] is True
    assert result["prefetched"] == result["inline"]
    error = result["prefetched"]["error"]  # type: ignore[index]
    assert error.startswith(f"{variable}: ")
    assert "\n" not in error and KEY not in error


@pytest.mark.parametrize("how", ["child dies", "child stalls", "child garbles"])
def test_a_failed_child_falls_back_to_reading_inline(tmp_path: Path, how: str) -> None:
    result = prefetch(tmp_path, env={"TUI_ASSISTANT_MODEL": "llama3"}, how=how)

    assert result["forked"] is True
    assert result["prefetched"] == result["inline"]
    assert result["prefetched"]["settings"]["model"] == "llama3"  # type: ignore[index]
    assert result["pydantic_in_parent"] is True  # it read them itself
    assert result["children_left"] is False  # the stalled child was killed and collected


def test_a_process_with_threads_reads_inline_instead_of_forking(tmp_path: Path) -> None:
    result = prefetch(tmp_path, env={"TUI_ASSISTANT_MODEL": "llama3"}, how="threads running")

    assert result["forked"] is False
    assert result["prefetched"] == result["inline"]


def test_the_tui_reports_a_bad_setting_before_drawing_anything(tmp_path: Path) -> None:
    process = subprocess.run(
        [sys.executable, "-m", "tui_assistant"],
        capture_output=True,
        text=True,
        env=cli_env(tmp_path / "data", {"TUI_ASSISTANT_DEADLINE_SECONDS": "0"}),
        cwd=PROJECT_ROOT,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )

    assert process.returncode == 2
    assert process.stdout == ""
    assert process.stderr.splitlines() == [
        "tui-assistant: error: TUI_ASSISTANT_DEADLINE_SECONDS: "
        "must be greater than 0 and at most 20"
    ]
