"""The library's folder tree and section labels, without a terminal."""

from __future__ import annotations

from tui_assistant.core.library.library import DocumentInfo
from tui_assistant.core.library.tree import folder_tree, section_labels, tree_path


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


def test_each_folder_lists_its_index_first_then_documents_by_name_numbers_by_value() -> None:
    paths = [
        "ch10-generics.md",
        "ch2-guessing.md",
        "Appendix.md",
        "README.md",
        "how-to/index.rst",
        "how-to/cache.rst",
        "how-to/Assert.rst",
        "lesson-10/notes.md",
        "lesson-9/notes.md",
    ]
    documents = [DocumentInfo(path, path, number, 1) for number, path in enumerate(paths)]
    tree = folder_tree(documents)
    assert [paths[index] for index in tree.documents] == [
        "README.md",
        "Appendix.md",
        "ch2-guessing.md",
        "ch10-generics.md",
    ]
    assert [folder.path for folder in tree.sorted_folders()] == ["how-to", "lesson-9", "lesson-10"]
    how_to = tree.folders["how-to"]
    assert [paths[index] for index in how_to.documents] == [
        "how-to/index.rst",
        "how-to/Assert.rst",
        "how-to/cache.rst",
    ]


def test_several_libraries_are_each_a_folder_at_the_top() -> None:
    documents = [
        DocumentInfo("index.md", "Docs", 0, 1, "docs"),
        DocumentInfo("guide/install.md", "Install", 1, 2, "docs"),
        DocumentInfo("index.md", "API", 3, 1, "api"),
    ]
    shelf = folder_tree(documents, several=True)
    assert shelf.documents == []
    assert [folder.path for folder in shelf.sorted_folders()] == ["api", "docs"]
    assert shelf.folders["docs"].documents == [0]
    assert shelf.folders["docs"].folders["guide"].path == "docs/guide"
    assert tree_path(documents[2], several=True) == "api/index.md"
    assert tree_path(documents[2], several=False) == "index.md"
