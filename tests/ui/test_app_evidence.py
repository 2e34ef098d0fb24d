"""The evidence panel in the running app: every passage behind an outcome one key away,
and a refusal's closest passages opened from the keyboard."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import BUNDLED_LESSONS
from tests.helpers.tui import (
    ask,
    chat_text,
    concluded,
    make_app,
    make_context,
    running,
    status,
    wait_until,
)

SIZE = (100, 32)


async def test_ctrl_down_steps_through_the_candidates_of_an_answer(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, retrieval="ranked"))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "how much salt for pasta water")
        await wait_until(pilot, lambda: status(app) == "answered" and concluded(app))
        assert app.main.evidence.passage is not None
        shown = [app.main.evidence.passage.id]
        # Keys work from the question box, where the focus stays.
        for _ in range(len(app.main.evidence.passages)):
            await pilot.press("ctrl+down")
            passage = app.main.evidence.passage
            assert passage is not None
            shown.append(passage.id)
            # "matched:" names only the question's words this passage holds.
            details = str(app.main.evidence.query_one("#evidence-details").render())
            matched = details.split("matched: ")[1].split(", ") if "matched: " in details else []
            held = f"{passage.title} {passage.text}".lower()
            assert all(word in held for word in matched)
        assert shown[0] == "pasta-water"
        assert len(set(shown[:-1])) == len(app.main.evidence.passages) > 1
        assert shown[-1] == shown[0]  # round again
        await pilot.press("ctrl+up")
        assert app.main.evidence.passage is not None
        assert app.main.evidence.passage.id == shown[-2]
        assert f"{len(app.main.evidence.passages)}/{len(app.main.evidence.passages)}" in str(
            app.main.evidence.query_one("#evidence-step").render()
        )


async def test_a_refusal_lists_closest_passages_and_enter_opens_one(tmp_path: Path) -> None:
    app = make_app(make_context(BUNDLED_LESSONS, tmp_path, retrieval="keyword"))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "knife water")
        await wait_until(pilot, lambda: status(app).startswith("refused"))
        nearest = [passage.id for passage in app.main.evidence.nearest]
        assert nearest and app.main.evidence.passage is None  # places to look, not an answer
        await pilot.press("ctrl+down", "down", "enter")
        await wait_until(pilot, lambda: app.main.evidence.passage is not None)
        assert app.main.evidence.passage is not None
        assert app.main.evidence.passage.id == nearest[1]
        assert "not an answer" in str(app.main.evidence.query_one("#evidence-step").render())


async def test_an_ambiguous_question_opens_its_best_possible_passage_at_once(
    tmp_path: Path,
) -> None:
    library = tmp_path / "twins"
    library.mkdir()
    for name in ("first", "second"):
        (library / f"{name}.md").write_text("# Rice\n\nSimmer the rice gently.\n")
    (library / "bread.md").write_text("# Bread\n\nBake the loaf in a hot oven.\n")
    app = make_app(make_context(library, tmp_path / "data", retrieval="ranked"))
    async with running(app, SIZE) as pilot:
        await ask(pilot, "simmer rice")
        await wait_until(pilot, lambda: status(app).startswith("not sure"))
        assert status(app) == "not sure: 2 possible passages, best first"
        candidates = [passage.id for passage in app.main.evidence.nearest]
        assert candidates == ["first", "second"]
        assert app.main.evidence.passage is not None and app.main.evidence.passage.id == "first"
        assert "not sure" in chat_text(app) and "refused" not in chat_text(app)
        await pilot.press("ctrl+down")
        assert app.main.evidence.passage is not None and app.main.evidence.passage.id == "second"
        step = str(app.main.evidence.query_one("#evidence-step").render())
        assert step.startswith("possible passage 2/2")
