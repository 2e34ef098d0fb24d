"""The library's folder tree and section labels, without a terminal."""

from __future__ import annotations

from tui_assistant.core.library.library import DocumentInfo
from tui_assistant.core.library.tree import folder_tree, section_labels


def test_documents_are_filed_under_their_folders_sorted() -> None:
    documents = [
        DocumentInfo("intro.md", "Intro", 0, 1),
        DocumentInfo("kitchen/knives/sharpening.md", "Sharpening", 1, 3),
        DocumentInfo("cooking/pasta.md", "Pasta", 4, 3),
    ]
    root = folder_tree(documents)
    assert root.documents == [0]
    assert [folder.path for folder in root.sorted_folders()] == ["cooking", "kitchen"]
    knives = root.folders["kitchen"].folders["knives"]
    assert (knives.path, knives.documents) == ("kitchen/knives", [1])


def test_section_labels_drop_the_document_title_and_number_repeated_parts() -> None:
    titles = ["Config", "Config › Files", "Config › Files", "Elsewhere"]
    assert section_labels(titles, "Config") == ["Config", "Files", "Files (2)", "Elsewhere"]
