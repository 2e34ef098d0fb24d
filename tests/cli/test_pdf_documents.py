"""PDF manuals through the headless commands: `passages`, `ask` and `library` show
their pages, and bad PDFs beside Markdown cost one line each and nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.documents.test_pdf import boiler_manual
from tests.helpers import write_lesson
from tests.helpers.pdf_files import pdf_bytes
from tui_assistant import cli

pytestmark = pytest.mark.usefixtures("clean_env")


@pytest.fixture
def manuals(tmp_path: Path) -> Path:
    folder = tmp_path / "manuals"
    folder.mkdir()
    (folder / "boiler.pdf").write_bytes(pdf_bytes(boiler_manual()))
    write_lesson(folder, "pasta-water", "Salting pasta water", "Salt the water well.")
    return folder


def test_passages_json_gives_every_passage_its_pages(
    manuals: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["passages", "--library", str(manuals), "--json"]) == 0

    rows = json.loads(capsys.readouterr().out)
    assert [(row["id"], row["page"], row["end_page"]) for row in rows] == [
        ("boiler", 1, 1),
        ("boiler#pressure", 2, 3),
        ("pasta-water", None, None),
    ]


def test_ask_json_and_readable_ask_give_the_pages(
    manuals: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    question = "keep the pressure between one and two bar"
    assert cli.main(["ask", "--library", str(manuals), "--json", question]) == 0
    row = json.loads(capsys.readouterr().out)

    assert (row["outcome"], row["passage_id"]) == ("answered", "boiler#pressure")
    assert (row["page"], row["end_page"]) == (2, 3)
    assert (row["passages"][0]["page"], row["passages"][0]["end_page"]) == (2, 3)

    assert cli.main(["ask", "--library", str(manuals), question]) == 0
    assert "source: manuals/boiler.pdf p. 2\N{EN DASH}3" in capsys.readouterr().out


def test_search_gives_a_pdf_passages_pages(
    manuals: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    question = "keep the pressure between one and two bar"
    assert cli.main(["search", "--library", str(manuals), "--json", question]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (first["id"], first["page"], first["end_page"]) == ("boiler#pressure", 2, 3)

    assert cli.main(["search", "--library", str(manuals), question]) == 0
    assert "manuals/boiler.pdf p. 2\N{EN DASH}3" in capsys.readouterr().out


def test_library_counts_pdfs_and_names_each_bad_one(
    manuals: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (manuals / "locked.pdf").write_bytes(pdf_bytes(boiler_manual(user_password="secret")))
    (manuals / "scan.pdf").write_bytes(pdf_bytes(boiler_manual(scanned_pages={0, 1, 2})))
    javascript = boiler_manual(javascript="app.alert('x')", embedded=("a.md", b"# A\n\nhidden\n"))
    (manuals / "scripted.pdf").write_bytes(pdf_bytes(javascript))

    assert cli.main(["library", "--library", str(manuals), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)

    assert report["documents"]["by_kind"]["pdf"] == 2  # boiler.pdf and scripted.pdf
    assert report["documents"]["by_kind"]["md"] == 1
    files = {file["path"]: file["reason"] for file in report["skipped"]["files"]}
    assert files == {"locked.pdf": "encrypted", "scan.pdf": "no_text_layer"}


def test_eval_checks_every_expected_id_of_the_pdf_development_sets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The cases name passages of real PDF manuals: each id must be one the reader makes.
    root = Path(__file__).resolve().parents[2]
    for name in ("fhs-pdf", "devref-pdf"):
        cases, folder = root / "eval" / f"{name}.jsonl", root / "eval" / name
        args = ["eval", str(cases), "--library", str(folder), "--retrieval", "keyword", "--json"]
        assert cli.main(args) == 0, capsys.readouterr().err
        report = json.loads(capsys.readouterr().out)
        assert report["cases"] == len(cases.read_text(encoding="utf-8").splitlines())
