"""Regenerate `screenshots/*.svg` from the real app: `python -m scripts.screenshots`.

Each scene runs the real `AssistantApp` headless on the bundled lessons (or a small
demo library written to a temporary folder: a nested one for the tree browser, a
two-page one for an answer from two passages, three providers' guides for a question
the library is not sure about, drawn at 80x24, a PDF manual cited by its pages), with a
scripted provider standing in for a model server (no network), a frozen clock and a
fresh data folder, so the same code always draws the same pictures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from textual import events
from textual.pilot import Pilot

from tui_assistant.core.checks.answer import ModelAnswer
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.service import AnswerProvider, AnswerService
from tui_assistant.core.words import stem
from tui_assistant.locations import bundled_lessons_dir
from tui_assistant.settings import Settings
from tui_assistant.store.index_store import Progress, open_library
from tui_assistant.ui.app import AssistantApp
from tui_assistant.ui.hooks import AppHooks
from tui_assistant.wiring.context import AppContext, build_retriever

SIZE = (110, 32)
THEME = "textual-dark"
DEMO_MODEL = "demo-model"
DEMO_BASE_URL = "http://127.0.0.1:8000/v1"
SCRIPTED_ANSWERS = {
    "pasta-water": (
        "Add about 10 grams of salt per litre of water, roughly two level teaspoons, "
        "once the water is boiling hard [source:pasta-water]. The water should taste "
        "like a mild broth, not like the sea [source:pasta-water]."
    ),
    "registry#scoped-packages": (
        'Add "@myco:registry=https://npm.example.com/" to a config file '
        "[source:registry#scoped-packages]."
    ),
}


class ScriptedProvider:
    """Answers from a fixed script, as a model server would, without any network."""

    deadline_seconds = 20.0

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        passage = passages[0]
        default = f"The steps are set out in this part. [source:{passage.id}]"
        return ModelAnswer(SCRIPTED_ANSWERS.get(passage.id, default))


class WaitingProvider:
    """Never answers: the picture of a request in flight."""

    deadline_seconds = 20.0

    async def complete(self, question: str, passages: Sequence[Passage]) -> ModelAnswer:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


class FrozenClock:
    """A clock that moves only when told to, so elapsed seconds are the same every run."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# A small nested library for the tree browser: folders, a document split into
# sections, single-passage documents.
NESTED_DEMO: dict[str, str] = {
    "getting-started.md": "# Getting started\n\nPick a passage with ctrl+l; ask with enter.\n",
    "cooking/eggs.md": "# Boiled eggs\n\nSix minutes for a runny yolk, ten for a firm one.\n",
    "cooking/pasta.md": (
        "# Pasta\n\nDried pasta keeps for a year.\n\n"
        "## Salting the water\n\nAbout 10 grams of salt per litre, once it boils.\n\n"
        "## Cooking time\n\nStart tasting two minutes before the packet says.\n\n"
        "### Al dente\n\nFirm to the bite, with no white core.\n"
    ),
    "kitchen/knives/sharpening.md": (
        "# Sharpening knives\n\n"
        "## Honing\n\nA steel realigns the edge; use it often.\n\n"
        "## Whetstones\n\nSoak the stone, keep a steady 15 degree angle.\n"
    ),
    "kitchen/storage.md": "# Storing knives\n\nA magnetic strip or a block, never loose.\n",
}


# Two pages of a package manager's docs: a question about both is answered from both.
DOCS_DEMO: dict[str, str] = {
    "registry.md": (
        "# Registry\n\nnpm reads packages from the public registry unless told otherwise.\n\n"
        "## Scoped packages\n\nA scope can point at its own private registry. "
        "Add this line to your config file:\n\n"
        "```ini\n@myco:registry=https://npm.example.com/\n```\n\n"
        "Packages of other scopes still come from the default registry.\n"
    ),
    "npmrc.md": (
        "# npmrc\n\n<!-- YAML added: v0.1.92 -->\n"
        "npm gets its config from the command line, the environment and npmrc files.\n\n"
        "## Files\n\n"
        "- per-project config file: `/path/to/my/project/.npmrc`\n"
        "- per-user config file: `~/.npmrc`\n"
        "- global config file: `$PREFIX/etc/npmrc`\n"
    ),
}


def _provider_page(name: str, region: str, default_mb: int) -> str:
    return (
        f"# {name} functions\n\n"
        f"Functions on {name} run in {region} unless the service says otherwise.\n\n"
        "## Function settings\n\n"
        f"Each function takes its handler, its runtime and its timeout from the service "
        f"file. Events that start it are listed under `events`.\n\n"
        f"A function that needs more memory than the default {default_mb} MB sets "
        "`memorySize` in its settings; the CPU share grows with it.\n\n"
        "The settings are applied at the next deploy.\n"
    )


# Three providers' guides that answer one question alike: the picture of not sure.
PROVIDERS_DEMO: dict[str, str] = {
    "aws.md": _provider_page("AWS", "us-east-1", 1024),
    "azure.md": _provider_page("Azure", "West Europe", 1536),
    "google.md": _provider_page("Google Cloud", "us-central1", 256),
    "plugins.md": "# Plugins\n\nInstall a plugin with `serverless plugin install`.\n",
    "tutorial.md": "# Tutorial\n\nCreate a service, then deploy it with one command.\n",
}


def boiler_manual_pdf() -> bytes:
    """A three-page PDF manual with an outline, a running header and page numbers."""
    from tests.helpers.pdf_files import Bookmark, Line, PdfSpec, pdf_bytes

    def body(*texts: str) -> list[Line]:
        return [Line(text) for text in texts]

    spec = PdfSpec(
        pages=[
            [
                Line("Boiler Manual", 24),
                Line("Model HX-20: installation, care and faults", 14, gap=8),
                *body("Read this manual before you switch the boiler on for the first time."),
            ],
            [
                Line("1 Bleeding the radiators", 16),
                *body(
                    "Air trapped in a radiator keeps its top cold. Switch the heating off",
                    "and let the radiators cool before you start.",
                ),
                Line("Put a cloth under the valve, then turn the bleed key a quarter", gap=8),
                *body(
                    "turn anticlockwise. Air hisses out; close the valve as soon as",
                    "water comes. Check the pressure afterwards: bleeding lowers it.",
                ),
            ],
            [
                Line("2 Water pressure", 16),
                *body(
                    "The gauge should read between 1 and 2 bar when the boiler is cold.",
                    "Below 1 bar, top it up with the filling loop under the boiler.",
                ),
            ],
        ],
        header="Boiler Manual",
        footer="Page {page} of 3",
        outline=[
            Bookmark("Bleeding the radiators", 1),
            Bookmark("Water pressure", 2),
        ],
        title="Boiler Manual",
    )
    return pdf_bytes(spec)


# A PDF manual beside a note: the picture of a PDF passage cited by its pages.
PDF_DEMO: dict[str, str | bytes] = {
    "manuals/boiler.pdf": boiler_manual_pdf(),
    "notes.md": "# Heating notes\n\nThe boiler was serviced in May.\n",
}
DEMOS: dict[str, dict[str, str | bytes]] = {
    "nested": dict(NESTED_DEMO),
    "docs": dict(DOCS_DEMO),
    "providers": dict(PROVIDERS_DEMO),
    "pdf": PDF_DEMO,
}


def write_demo(folder: Path, files: dict[str, str | bytes] | dict[str, str] = NESTED_DEMO) -> Path:
    for relative, content in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def demo_context(data_dir: Path, provider: AnswerProvider | None, lessons: Path) -> AppContext:
    settings = Settings(
        library=lessons,
        data_dir=data_dir,
        provider="openai" if provider else "deterministic",
        model=DEMO_MODEL,
        base_url=DEMO_BASE_URL,
    )
    library = open_library(lessons, None, stem)
    service = AnswerService(build_retriever(settings, library), provider, settings.support_check)
    return AppContext(settings=settings, library=library, service=service)


class HeldStart:
    """A start-up that reports some indexing progress, then waits until released:
    the picture of a first start on a large library."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, settings: Settings, progress: Progress | None) -> AppContext:
        if progress is not None:
            progress(1200, 20000)
        self.release.wait(30)
        raise RuntimeError("the indexing scene ended before its picture was taken")


@dataclass
class Stage:
    """What a scene can touch: the pilot's keys, the app, the clock."""

    pilot: Pilot[int]
    app: AssistantApp
    clock: FrozenClock
    held: HeldStart | None = field(default=None)

    async def ask(self, question: str) -> None:
        """Paste a question into the question box and press enter."""
        self.app.main.question_box.post_message(events.Paste(question))
        await self.pilot.pause()
        await self.pilot.press("enter")

    async def settled(self) -> None:
        """Wait until the screen draws the same twice in a row (a scroll has landed)."""
        last = ""
        for _ in range(100):
            await self.pilot.pause(0.05)
            drawn = self.app.export_screenshot()
            if drawn == last:
                return
            last = drawn
        raise RuntimeError("the screen did not settle")

    async def until(self, condition: Callable[[], bool]) -> None:
        for _ in range(250):
            if condition():
                return
            await self.pilot.pause(0.02)
        raise RuntimeError("the app did not reach the expected state")


async def answered_scene(stage: Stage) -> None:
    await stage.ask("How much salt should I put in pasta water?")
    await stage.until(lambda: stage.app.main.status_bar.state == "answered")


async def refused_scene(stage: Stage) -> None:
    await stage.ask("What is the capital of France?")
    await stage.until(lambda: stage.app.main.status_bar.state.startswith("refused"))


async def two_passages_scene(stage: Stage) -> None:
    await stage.ask(
        "Which per-user npmrc config file points scoped packages at a private registry?"
    )
    await stage.until(lambda: stage.app.main.status_bar.state.startswith("answered"))


async def nearest_scene(stage: Stage) -> None:
    await stage.ask("How do I publish a package?")
    await stage.until(lambda: stage.app.main.status_bar.state.startswith("refused"))


async def unsure_scene(stage: Stage) -> None:
    await stage.ask("How much memory can a function have?")
    await stage.until(lambda: stage.app.main.status_bar.state.startswith("not sure"))
    await stage.until(lambda: stage.app.main.evidence.body.marked)
    await stage.settled()


async def pdf_scene(stage: Stage) -> None:
    await stage.ask("How do I bleed a radiator?")
    await stage.until(lambda: stage.app.main.status_bar.state.startswith("answered"))


async def browser_scene(stage: Stage) -> None:
    await stage.pilot.press("ctrl+l", "down", "enter")


async def tree_scene(stage: Stage) -> None:
    # cooking/ open, Pasta open, its "Salting the water" section shown; kitchen/ open.
    await stage.pilot.press("ctrl+l", "right", "down", "down", "right", "down", "down", "enter")
    await stage.pilot.press("down", "down", "down", "right")


async def filter_scene(stage: Stage) -> None:
    await stage.pilot.press("ctrl+l", *"knives", "enter")


async def indexing_scene(stage: Stage) -> None:
    await stage.until(lambda: stage.app.main.status_bar.state.startswith("indexing 1,200"))


async def in_flight_scene(stage: Stage) -> None:
    await stage.ask("How long do I boil an egg for a runny yolk?")
    await stage.until(lambda: stage.app.main.pending is not None)
    stage.clock.now += 2.4
    await stage.until(lambda: "2.4 s" in stage.app.main.status_bar.state)


async def help_scene(stage: Stage) -> None:
    await stage.pilot.press("f1")


Steps = Callable[[Stage], Awaitable[None]]


@dataclass(frozen=True)
class Scene:
    provider: Callable[[], AnswerProvider | None]
    steps: Steps
    demo: str | None = None  # a demo library (`DEMOS`) instead of the bundled lessons
    held: bool = False  # the library never finishes loading (the indexing picture)
    size: tuple[int, int] = SIZE


SCENES: dict[str, Scene] = {
    "answered": Scene(ScriptedProvider, answered_scene),
    "refused": Scene(ScriptedProvider, refused_scene),
    "library-browser": Scene(lambda: None, browser_scene),
    "library-tree": Scene(lambda: None, tree_scene, demo="nested"),
    "library-filter": Scene(lambda: None, filter_scene, demo="nested"),
    "two-passages": Scene(ScriptedProvider, two_passages_scene, demo="docs"),
    "refused-nearest": Scene(lambda: None, nearest_scene, demo="docs"),
    "unsure": Scene(lambda: None, unsure_scene, demo="providers", size=(80, 24)),
    "in-flight": Scene(WaitingProvider, in_flight_scene),
    "indexing": Scene(lambda: None, indexing_scene, held=True),
    "help": Scene(lambda: None, help_scene),
    "pdf-passage": Scene(lambda: None, pdf_scene, demo="pdf"),
}


async def take(name: str, output: Path, scene: Scene) -> Path:
    """Run the app, play the scene's steps, let it settle, save `output/name.svg`."""
    clock = FrozenClock()
    with tempfile.TemporaryDirectory() as temporary:
        data_dir = Path(temporary) / "data"
        lessons = (
            write_demo(Path(temporary) / "demo", DEMOS[scene.demo])
            if scene.demo
            else bundled_lessons_dir()
        )
        context = demo_context(data_dir, scene.provider(), lessons)
        held = HeldStart() if scene.held else None

        def start(settings: Settings, progress: Progress | None) -> AppContext:
            return held(settings, progress) if held is not None else context

        # The user's NO_COLOR and TEXTUAL_THEME must not change the committed pictures.
        no_color = os.environ.pop("NO_COLOR", None)
        try:
            app = AssistantApp(
                context.settings, hooks=AppHooks(start=start, clock=clock, cursor_blink=False)
            )
        finally:
            if no_color is not None:
                os.environ["NO_COLOR"] = no_color
        try:
            async with app.run_test(size=scene.size) as pilot:
                app.theme = THEME
                stage = Stage(pilot, app, clock, held)
                if held is None:
                    await stage.until(lambda: app.main.loaded)
                await pilot.pause()
                await scene.steps(stage)
                for _ in range(5):
                    await pilot.pause(0.05)
                await pilot.wait_for_scheduled_animations()
                app.save_screenshot(filename=f"{name}.svg", path=str(output))
                if held is not None:
                    app.workers.cancel_group(app, "library")
        finally:
            if held is not None:
                held.release.set()
    return output / f"{name}.svg"


async def take_all(output: Path) -> list[Path]:
    output.mkdir(parents=True, exist_ok=True)
    return [await take(name, output, scene) for name, scene in SCENES.items()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.screenshots", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--output", type=Path, default=Path("screenshots"), metavar="DIR")
    args = parser.parse_args(argv)
    for path in asyncio.run(take_all(args.output)):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
