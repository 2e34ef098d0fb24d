"""The evidence panel as a user reads it: rendered Markdown, a one-line location, the
question's own words, several passages stepped with keys, quoted lines set apart, and a
refusal's closest passages opened with enter."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from textual.widgets.markdown import MarkdownBlock, MarkdownFence

from tests.helpers.tui import drawn_lines, screen_lines, wait_until
from tui_assistant.core.documents.passage import Passage
from tui_assistant.core.outcome import Outcome, Quote, answered, not_found
from tui_assistant.core.retrieval.types import Evidence, NoEvidence
from tui_assistant.ui.widgets.evidence_panel import HINT, NEAREST_TITLE, EvidencePanel
from tui_assistant.ui.widgets.evidence_view import question_words, score_text
from tui_assistant.ui.widgets.markdown_view import MATCHING_STYLE, highlight_spans

REGISTRY = Passage(
    id="npm/registry#scoped",
    title="Registry › Scoped packages",
    text=(
        "Scoped packages can use their own registry.\n"
        "\n"
        "Set it per scope in the config file:\n"
        "\n"
        "```ini\n"
        "@myco:registry=https://npm.example.com/\n"
        "```\n"
        "\n"
        "<!-- YAML added: v0.1.92 -->\n"
        "Anything else goes to the default registry."
    ),
    source_path="docs/cli/using-npm/registry.md",
    line=40,
    end_line=50,
)
CONFIG = Passage(
    id="npm/config#files",
    title="Config › Files",
    text="The per-user config file is ~/.npmrc.\n\nThe project config file sits beside package.json.",
    source_path="docs/cli/configuring-npm/npmrc.md",
    line=10,
    end_line=13,
)
SCOPE = Passage(
    id="npm/scope",
    title="Scope",
    text="All npm packages have a name; some have a scope.",
    source_path="docs/cli/using-npm/scope.md",
    line=1,
    end_line=3,
)
QUESTION = "How do I point scoped packages at a private registry?"
EVIDENCE = Evidence(
    passages=(REGISTRY, CONFIG, SCOPE),
    matched_words=("scop", "packag", "registry"),
    score=5,
    runner_up_score=3,
)


class PanelApp(App[object]):
    """The evidence panel alone, at a given width."""

    def __init__(self, width: int = 60) -> None:
        super().__init__()
        self.width = width
        self.opened: list[str] = []

    def compose(self) -> ComposeResult:
        panel = EvidencePanel()
        panel.styles.width = self.width
        yield panel

    @property
    def panel(self) -> EvidencePanel:
        return self.query_one(EvidencePanel)

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        self.opened.append(url)


def text_of(app: PanelApp, selector: str) -> str:
    return str(app.panel.query_one(selector, Static).render())


def rendered(app: PanelApp) -> Callable[[], bool]:
    return lambda: app.panel.body.marked


async def shown(pilot: Pilot[object], app: PanelApp) -> None:
    await wait_until(pilot, rendered(app))
    await pilot.pause()


# -- header -------------------------------------------------------------------------


async def test_a_long_location_stays_on_one_line_shortened_from_the_left() -> None:
    passage = Passage(
        id="api/crypto#keyobject",
        title="Crypto › Class: KeyObject",
        text="A KeyObject holds a key.",
        source_path="nodejs/doc/api/crypto.md",
        line=1538,
        end_line=1653,
    )
    app = PanelApp(width=30)
    async with app.run_test(size=(80, 24)) as pilot:
        app.panel.show_passage(passage)
        await shown(pilot, app)
        location = app.panel.query_one("#evidence-location")
        assert drawn_lines(location) == ["\u2026/api/crypto.md:1538\u20131653"]
        assert drawn_lines(app.panel.query_one("#evidence-meta")) == ["api/crypto#keyobject"]


async def test_a_pdf_passage_is_located_by_its_pages_the_path_shortened_first() -> None:
    passage = Passage(
        id="manuals/boiler-manual#pressure",
        title="Boiler Manual › Pressure",
        text="Keep the pressure between one and two bar.",
        source_path="manuals/heating/boiler-manual.pdf",
        line=120,
        end_line=164,
        page=12,
        end_page=13,
    )
    app = PanelApp(width=30)
    async with app.run_test(size=(80, 24)) as pilot:
        app.panel.show_passage(passage)
        await shown(pilot, app)
        [where] = drawn_lines(app.panel.query_one("#evidence-location"))
        # The pages are never cut; the path gives way from the left.
        assert where.startswith("\u2026") and where.endswith("-manual.pdf p. 12\u201313")


@pytest.mark.parametrize("width", [30, 46])  # the side column at 80 and 120 columns
async def test_a_long_id_is_shortened_from_the_left_never_wrapped(width: int) -> None:
    passage = Passage(
        id="reference/commandline/trust-signer-remove#remove-a-signer-from-multiple-repos",
        title="signer remove › Remove a signer from multiple repos",
        text="Remove a signer from several repositories at once.",
        source_path="docker-docs/reference/commandline/trust_signer_remove.md",
        line=74,
        end_line=176,
    )
    app = PanelApp(width=width)
    async with app.run_test(size=(120, 35)) as pilot:
        app.panel.show_passage(passage)
        await shown(pilot, app)
        meta_line = app.panel.query_one("#evidence-meta")
        [meta] = drawn_lines(meta_line)
        assert meta.startswith("\u2026") and passage.id.endswith(meta[1:])
        assert str(meta_line.tooltip) == passage.id  # read in full on hover
        [where] = drawn_lines(app.panel.query_one("#evidence-location"))
        assert where.startswith("\u2026") and where.endswith("_remove.md:74\u2013176")
        assert passage.source_path.endswith(where[1:].removesuffix(":74\u2013176"))


async def test_matched_shows_the_words_of_the_question_not_their_stems() -> None:
    app = PanelApp()
    async with app.run_test(size=(80, 30)) as pilot:
        app.panel.show_evidence(EVIDENCE, QUESTION)
        await shown(pilot, app)
        details = text_of(app, "#evidence-details")
        assert "matched: scoped, packages, registry" in details
        assert not {"scop", "packag"} & set(details.replace(",", " ").split())
        assert "best match (score 5, next 3)" in details


def test_hybrid_shows_the_cosine_without_a_next_score_that_would_contradict_the_order() -> None:
    fused = Evidence(
        passages=(REGISTRY, CONFIG),
        matched_words=("registry",),
        score=0.6877,
        runner_up_score=0.7733,
        mode="hybrid",
    )
    shown = score_text(fused)
    assert shown == "best match of words and meaning (cosine 0.69)"
    assert "0.77" not in shown
    ranked = Evidence((REGISTRY, CONFIG), ("registry",), 10.0289, 7.5, mode="ranked")
    assert score_text(ranked) == "best match (BM25 10.03, next 7.50)"


def test_a_candidate_the_model_picked_is_said_to_be_so_not_scored() -> None:
    picked = Evidence(
        (REGISTRY, CONFIG), (), 0.0, None, "hybrid", confidence=0.41, model_picks=True
    )
    assert score_text(picked) == "a candidate the model cited; confidence 0.41"


def test_question_words_keep_the_spelling_typed() -> None:
    keys = ("scop", "packag")
    assert question_words("Scoped PACKAGES, scopes and packages", keys) == ["Scoped", "PACKAGES"]
    assert question_words("nothing shared here", keys) == []


# -- rendered Markdown --------------------------------------------------------------


async def test_passage_is_rendered_markdown_without_comments_or_markup() -> None:
    hostile = Passage(
        id="hostile",
        title="[bold]Hostile[/]",
        text=(
            "[@click=app.quit]quit[/] \x1b[31mred\x1b[0m \x1b]0;title\x07 [link](https://evil.example)\n"
            "<!-- YAML added: v0.1.92 -->\n\n```sh\nnpm ci\n```"
        ),
        source_path="hostile.md",
    )
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.panel.show_passage(hostile)
        await shown(pilot, app)
        body = "\n".join(str(block.render()) for block in app.panel.body.query(Static))
        assert "[@click=app.quit]quit[/]" in body and "red" in body
        assert "\x1b" not in body and "title" not in body.replace("[link]", "")
        assert "YAML added" not in body and "<!--" not in body
        assert text_of(app, "#evidence-title") == "[bold]Hostile[/]"
        fences = list(app.panel.body.query(MarkdownFence))
        assert len(fences) == 1 and "npm ci" in str(fences[0].query_one(Static).render())

        # A click on the link does not open it.
        paragraph = app.panel.body.query(Static).first()
        await pilot.click(paragraph, offset=(len("[@click=app.quit]quit[/] red "), 0))
        await pilot.pause()
        assert app.opened == [] and app.is_running


async def test_an_rst_passage_shows_its_inner_titles_as_headings_and_its_code_as_code() -> None:
    passage = Passage(
        id="topics/cache#memcached",
        title="Cache › Setting up › Memcached",
        text=(
            "Memcached is a memory-based cache server.\n"
            "\n"
            "Multiple servers\n"
            "~~~~~~~~~~~~~~~~\n"
            "\n"
            "List them all::\n"
            "\n"
            "    LOCATION = ['a:11211', 'b:11211']\n"
            "\n"
            "Then restart the cache."
        ),
        source_path="docs/topics/cache.rst",
        line=64,
        end_line=76,
    )
    app = PanelApp()
    async with app.run_test(size=(80, 30)) as pilot:
        app.panel.show_passage(passage)
        await shown(pilot, app)
        fences = list(app.panel.body.query(MarkdownFence))
        assert len(fences) == 1 and "LOCATION" in str(fences[0].query_one(Static).render())
        assert "restart" not in str(fences[0].query_one(Static).render())
        body = "\n".join(str(block.render()) for block in app.panel.body.query(Static))
        assert "Multiple servers" in body and "~~~" not in body
        assert "Then restart the cache." in body


async def test_question_words_are_highlighted_in_the_rendered_passage() -> None:
    app = PanelApp()
    async with app.run_test(size=(80, 30)) as pilot:
        app.panel.show_evidence(EVIDENCE, QUESTION)
        await shown(pilot, app)
        first = app.panel.body.query(Static).first().render()
        plain = str(first)
        spans = getattr(first, "spans", [])
        marked = {plain[span.start : span.end] for span in spans if span.style == "bold reverse"}
        assert {"Scoped", "packages", "registry"} <= marked
        assert "own" not in marked


# -- several passages, quotes -------------------------------------------------------


def two_passage_answer() -> Outcome:
    return answered(
        QUESTION,
        EVIDENCE,
        "Set the scope's registry in .npmrc [source:npm/config#files] "
        "[source:npm/registry#scoped].",
        passages=(REGISTRY, CONFIG),
        citations=(CONFIG.id, REGISTRY.id),
        quotes=(Quote(REGISTRY.id, "@myco:registry=https://npm.example.com/", 46, 46),),
    )


async def test_cited_passages_come_first_and_brackets_step_through_all() -> None:
    app = PanelApp()
    async with app.run_test(size=(80, 30)) as pilot:
        app.panel.show_outcome(two_passage_answer())
        await shown(pilot, app)
        assert app.panel.passage == CONFIG
        assert text_of(app, "#evidence-step") == "1/3 · cited"
        assert "ctrl+↓↑ to step" in str(app.panel.border_subtitle)
        app.panel.focus()
        await pilot.pause()
        shown_keys = {key for key, active in app.screen.active_bindings.items() if active.enabled}
        assert {"left_square_bracket", "right_square_bracket"} <= shown_keys

        await pilot.press("right_square_bracket")
        assert app.panel.passage == REGISTRY
        assert text_of(app, "#evidence-step") == "2/3 · cited"
        await pilot.press("right_square_bracket")
        assert app.panel.passage == SCOPE
        assert text_of(app, "#evidence-step") == "3/3 · not cited"
        await pilot.press("right_square_bracket")  # around to the first again
        assert app.panel.passage == CONFIG
        await pilot.press("left_square_bracket")
        assert app.panel.passage == SCOPE


def quoted_blocks(app: PanelApp) -> list[MarkdownBlock]:
    return [block for block in app.panel.body.query(MarkdownBlock) if block.has_class("-quoted")]


async def test_quoted_lines_are_set_apart_in_the_passage_they_quote() -> None:
    app = PanelApp()
    async with app.run_test(size=(80, 30)) as pilot:
        app.panel.show_outcome(two_passage_answer())
        await shown(pilot, app)
        assert quoted_blocks(app) == []  # the config passage is not quoted
        app.panel.step(1)
        await shown(pilot, app)
        assert app.panel.passage == REGISTRY
        quoted = quoted_blocks(app)
        assert len(quoted) == 1 and isinstance(quoted[0], MarkdownFence)
        others = [
            str(block.render())
            for block in app.panel.body.query(Static)
            if not block.has_class("-quoted")
        ]
        assert any("own registry" in text for text in others)


async def test_one_passage_shows_no_step_line_and_no_step_keys() -> None:
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.panel.show_passage(SCOPE)
        await shown(pilot, app)
        assert not app.panel.query_one("#evidence-step").display
        app.panel.focus()
        await pilot.press("right_square_bracket")
        assert app.panel.passage == SCOPE


# -- refusals -----------------------------------------------------------------------


async def test_a_refusal_lists_closest_passages_that_enter_opens_as_not_an_answer() -> None:
    refusal = not_found(QUESTION, NoEvidence("two passages match equally well", (SCOPE, CONFIG)))
    app = PanelApp()
    async with app.run_test(size=(80, 30)) as pilot:
        app.panel.show_outcome(refusal)
        await pilot.pause()
        assert text_of(app, "#evidence-notice") == NEAREST_TITLE
        assert text_of(app, "#evidence-why").startswith("two passages match equally well;")
        options = app.panel.query_one(OptionList)
        assert options.option_count == 2
        assert "Scope" in str(options.get_option_at_index(0).prompt)
        assert app.panel.passage is None
        assert not app.panel.query_one("#evidence-title").display

        options.focus()
        await pilot.press("down", "enter")
        await shown(pilot, app)
        assert app.panel.passage == CONFIG
        assert text_of(app, "#evidence-step") == "closest 2/2 · not an answer"
        assert app.panel.query_one("#evidence-title").display
        assert options.display  # the list stays, to open another

        app.panel.show_hint()
        await pilot.pause()
        assert app.panel.passage is None and not options.display
        assert text_of(app, "#evidence-hint") == HINT


@pytest.mark.parametrize(("size", "width"), [((80, 24), 30), ((120, 35), 46)])
async def test_closest_passages_keep_each_line_range_whole(
    size: tuple[int, int], width: int
) -> None:
    deep = Passage(
        id="serverless/providers/aws/guide/serverless-yml#functions",
        title="serverless.yml › Functions",
        text="Functions are defined under `functions`.",
        source_path="serverless/docs/providers/aws/guide/serverless.yml.md",
        line=862,
        end_line=889,
    )
    refusal = not_found(QUESTION, NoEvidence("nothing is close", (deep, SCOPE)))
    app = PanelApp(width=width)
    async with app.run_test(size=size) as pilot:
        app.panel.show_outcome(refusal)
        options = app.panel.query_one(OptionList)
        await wait_until(pilot, lambda: options.option_count == 2 and options.region.height > 0)
        # Each option's text; the location first on its line, a sentence may follow.
        lines = [line.strip() for line in drawn_lines(options)]
        [location] = [line.split("  ")[0] for line in lines if ":862" in line]
        # Shortened by whole folders, from the middle (the first folder kept while the
        # file fits) or from the left; the line range whole either way.
        assert "\u2026" in location and location.endswith(".yml.md:862\u2013889")
        head, _, tail = location.removesuffix(":862\u2013889").partition("\u2026")
        assert deep.source_path.startswith(head) and deep.source_path.endswith(tail)
        assert "scope.md:1\u20133" in "\n".join(lines)
        assert not any(line.strip() in {"9", "889"} for line in lines)


# -- highlighting rules -------------------------------------------------------------


def words_at(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[start:end] for start, end in spans]


def test_inflections_of_a_matched_word_are_highlighted_and_nothing_else() -> None:
    text = "Boiling eggs: boil the egg, then salt it. Basalt is a rock; salty water."
    assert words_at(text, highlight_spans(text, {"boil", "egg", "salt"})) == [
        "Boiling",
        "eggs",
        "boil",
        "egg",
        "salt",
    ]


async def test_a_line_of_inline_html_leaves_no_blank_paragraph() -> None:
    anchored = Passage(
        id="plugins#options",
        title="Plugins › Plugin Options",
        text='<a id="plugin-options"></a>\n\nThe optional options parameter.',
        source_path="docs/Reference/Plugins.md",
    )
    app = PanelApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.panel.show_passage(anchored)
        await shown(pilot, app)
        visible = [block for block in app.panel.body.query(Static) if block.display]
        assert [str(block.render()) for block in visible] == ["The optional options parameter."]


# -- a long passage opens at the sentences that match -------------------------------

LONG = Passage(
    id="functions#memory",
    title="Functions › Memory",
    text="\n\n".join(
        [f"Step {number} writes region, stage and log settings." for number in range(1, 31)]
        + ["To give a function more memory, set memorySize in its settings.", "Then deploy."]
    ),
    source_path="docs/functions.md",
    line=1,
    end_line=64,
)
MEMORY_QUESTION = "how do I give a function more memory"


def underlined(app: PanelApp) -> list[str]:
    """The text the body underlines: the sentences that best match."""
    found: list[str] = []
    for block in app.panel.body.query(Static):
        content = block.render()
        for span in getattr(content, "spans", []):
            if span.style == MATCHING_STYLE:
                found.append(str(content)[span.start : span.end])
    return found


async def opened_at_the_sentence(pilot: Pilot[object], app: PanelApp) -> None:
    await shown(pilot, app)
    await wait_until(pilot, lambda: "memorySize" in "\n".join(screen_lines(app)))


async def test_a_long_passage_opens_scrolled_to_its_best_sentence_underlined() -> None:
    evidence = Evidence((LONG,), ("function", "memory"), 4, None)
    app = PanelApp(width=44)
    async with app.run_test(size=(80, 20)) as pilot:
        app.panel.show_evidence(evidence, MEMORY_QUESTION)
        await opened_at_the_sentence(pilot, app)
        assert app.panel.reader.scroll_y > 0
        assert underlined(app) == [
            "To give a function more memory, set memorySize in its settings."
        ]
        assert "Step 1 writes" not in "\n".join(screen_lines(app))


async def test_an_unsure_questions_candidate_opens_at_the_sentence_its_mistyped_word_means() -> (
    None
):
    # "deploiyng" is no slip of the key `deploy`: only the ranking's reading of the
    # question (`read_words`) finds the sentence it means.
    releases = Passage(
        id="releases",
        title="Releases",
        text="\n\n".join(
            [f"Step {number} writes region and stage." for number in range(1, 31)]
            + ["Deploying again replaces the older version.", "Then check the logs."]
        ),
        source_path="docs/releases.md",
        line=1,
        end_line=64,
    )
    unsure = NoEvidence(
        "several passages are close",
        (releases, SCOPE),
        "ranked",
        ambiguous=True,
        read_words=("deploy",),
    )
    app = PanelApp(width=44)
    async with app.run_test(size=(80, 20)) as pilot:
        app.panel.show_outcome(not_found("is deploiyng safe", unsure))
        await shown(pilot, app)
        await wait_until(pilot, lambda: "Deploying again" in "\n".join(screen_lines(app)))
        assert underlined(app) == ["Deploying again replaces the older version."]


async def test_a_short_passage_opens_at_its_top() -> None:
    app = PanelApp(width=60)
    async with app.run_test(size=(80, 30)) as pilot:
        app.panel.show_evidence(EVIDENCE, QUESTION)
        await shown(pilot, app)
        await pilot.pause()
        assert app.panel.reader.scroll_y == 0
        assert "Registry › Scoped packages" in "\n".join(screen_lines(app))


async def test_a_passage_picked_in_the_library_is_read_for_the_latest_question() -> None:
    refusal = not_found(MEMORY_QUESTION, NoEvidence("nothing is close", (SCOPE,)))
    app = PanelApp(width=44)
    async with app.run_test(size=(80, 20)) as pilot:
        app.panel.show_outcome(refusal)
        await pilot.pause()
        app.panel.show_passage(LONG)
        await shown(pilot, app)
        await wait_until(pilot, lambda: bool(underlined(app)))
        assert underlined(app) == [
            "To give a function more memory, set memorySize in its settings."
        ]
        # The reader picked it: it opens at its first line, not at the sentence.
        await pilot.pause()
        assert app.panel.reader.scroll_y == 0
        assert "Step 1 writes" in "\n".join(screen_lines(app))


async def test_the_sentence_is_kept_in_view_as_the_panel_narrows_until_the_user_scrolls() -> None:
    evidence = Evidence((LONG,), ("function", "memory"), 4, None)
    app = PanelApp(width=60)
    async with app.run_test(size=(80, 20)) as pilot:
        reader = app.panel.reader
        app.panel.show_evidence(evidence, MEMORY_QUESTION)
        await opened_at_the_sentence(pilot, app)
        app.panel.styles.width = 30  # every line wraps: the sentence moves far down
        await wait_until(pilot, lambda: reader.size.width < 30)
        await wait_until(pilot, lambda: "memorySize" in "\n".join(screen_lines(app)))
        # The user goes back to the top with the keys: a narrower panel leaves them there.
        reader.focus()
        await pilot.press("home")
        await wait_until(pilot, lambda: reader.scroll_y == 0)
        app.panel.styles.width = 24
        await wait_until(pilot, lambda: reader.size.width < 24)
        await pilot.pause()
        await pilot.pause()
        assert reader.scroll_y == 0
        assert "Step 1 writes" in "\n".join(screen_lines(app))
        # The next passage shown opens at its sentence again.
        app.panel.show_evidence(evidence, MEMORY_QUESTION)
        await opened_at_the_sentence(pilot, app)
        assert reader.scroll_y > 0
