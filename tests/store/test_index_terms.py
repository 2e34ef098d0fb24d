"""A manual's index terms go through the store and count in the ranking: a passage is
found by the words of the book's index that point to it, not only by its own."""

from __future__ import annotations

from pathlib import Path

from tui_assistant.core.retrieval.ranked import RankedRetriever
from tui_assistant.core.words import stem
from tui_assistant.store.index_store import open_library

FILLER = " ".join(["Text about the build that names nothing in particular."] * 8)
MANUAL = f"""<html><head><title>Builder</title></head><body>
<h2>1 Recipes</h2>
<p><span id="index-tabs"></span>Each line of a recipe must start with a special character. {FILLER}</p>
<h2>2 Variables</h2>
<p>Variables hold strings that are expanded later. {FILLER}</p>
<h2>3 Conditionals</h2>
<p>A conditional directive chooses which part of the file is read. {FILLER}</p>
<h2>Index</h2>
<table class="index-cp">
<tr><td><a href="#index-tabs">tab character, missing separator</a></td><td><a href="#x">1</a></td></tr>
</table>
</body></html>
"""


def manual(folder: Path) -> Path:
    folder.mkdir()
    (folder / "builder.html").write_text(MANUAL, encoding="utf-8")
    return folder


def test_index_terms_are_kept_by_the_store_across_a_reopen(tmp_path: Path) -> None:
    folder = manual(tmp_path / "docs")
    data = tmp_path / "data"
    first = open_library(folder, data, RankedRetriever.key)
    first.close()

    library = open_library(folder, data, stem)

    recipes = library.get("builder")
    assert recipes is not None
    assert recipes.index_terms == ("tab character, missing separator",)
    assert library.get("builder#index") is None  # the index is a way in, not a passage


def test_a_question_in_the_words_of_the_index_finds_the_passage_they_point_to(
    tmp_path: Path,
) -> None:
    library = open_library(manual(tmp_path / "docs"), None, RankedRetriever.key)
    ranked = RankedRetriever(library)

    ranking = ranked.rank("missing separator error, is it a tab problem?")

    assert ranking is not None
    assert library.passage(ranking.passage_number).id == "builder"
