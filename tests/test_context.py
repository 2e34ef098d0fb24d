"""Building the app's context from settings: which retriever answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from tests.helpers import memory_library
from tui_assistant.context import build_retriever
from tui_assistant.core.ranked import RankedRetriever
from tui_assistant.core.retrieval import KeywordRetriever
from tui_assistant.settings import Settings

MakeLibrary = Callable[[Mapping[str, tuple[str, str]]], Path]
KITCHEN = {
    "whetstones": ("Whetstones", "Sharpen a steel knife on a whetstone."),
    "storage": ("Knife storage", "Keep each knife in a block or on a magnetic strip."),
}


def test_settings_choose_the_retrieval_mode(make_library: MakeLibrary) -> None:
    library = memory_library(make_library(KITCHEN))
    assert isinstance(build_retriever(Settings(retrieval="ranked"), library), RankedRetriever)
    assert isinstance(build_retriever(Settings(retrieval="keyword"), library), KeywordRetriever)
