"""The citation check, for any answer text: it never raises, an accepted answer cites
only the passages it was sent, and any invented marker is refused."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from tests.helpers.properties import PROPERTY, any_text, passage_ids
from tui_assistant.core.checks.citations import MAX_ANSWER_CHARS, NOT_GIVEN, check_citations


@PROPERTY
@given(any_text, any_text)
def test_citation_check_takes_any_text(answer: str, evidence_id: str) -> None:
    check = check_citations(answer, [evidence_id])

    assert check.accepted == (check.problem is None)


@st.composite
def accepted_answers(draw: st.DrawFn) -> tuple[str, str]:
    """An answer that cites its evidence, with arbitrary text around the markers."""
    evidence_id = draw(passage_ids)
    marker = f"[source:{evidence_id}]"
    parts = draw(st.lists(any_text, min_size=2, max_size=4))
    answer = marker.join(parts)
    assume(check_citations(answer, [evidence_id]).accepted)
    return answer, evidence_id


@PROPERTY
@given(accepted_answers())
def test_an_accepted_answer_cites_exactly_its_evidence(answer_and_id: tuple[str, str]) -> None:
    answer, evidence_id = answer_and_id

    check = check_citations(answer, [evidence_id, "other/doc#part"])

    assert f"[source:{evidence_id}]" in answer
    assert check.cited_ids == (evidence_id,)


@PROPERTY
@given(accepted_answers(), st.data())
def test_adding_an_invented_marker_always_rejects(
    answer_and_id: tuple[str, str], data: st.DataObject
) -> None:
    answer, evidence_id = answer_and_id
    # Near misses of the real id as well as anything else a marker can hold.
    invented = data.draw(
        st.one_of(
            st.text(st.characters(exclude_characters="]\n"), max_size=30),
            st.sampled_from(
                [
                    evidence_id.upper(),
                    evidence_id.title(),
                    f" {evidence_id}",
                    f"{evidence_id} ",
                    f"{evidence_id}.md",
                    f"lessons/{evidence_id}.md",
                    evidence_id[:-1],
                    evidence_id + evidence_id[-1],
                    f"{evidence_id}, other",
                ]
            ),
        )
    )
    assume(invented != evidence_id)
    position = data.draw(st.integers(min_value=0, max_value=len(answer)))
    # Any spelling the marker pattern accepts: the check must see it, not skip it.
    opening = data.draw(st.sampled_from(["[source:", "[Source:", "[ SOURCE : ", "[source :"]))
    tampered = answer[:position] + f"{opening}{invented}]" + answer[position:]

    assert not check_citations(tampered, [evidence_id]).accepted


@PROPERTY
@given(
    passage_ids,
    st.lists(
        st.text(st.characters(exclude_characters="["), min_size=1, max_size=80).filter(
            lambda part: part.strip()
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_text_that_cites_only_its_evidence_is_accepted(evidence_id: str, parts: list[str]) -> None:
    answer = f" [source:{evidence_id}] ".join(parts) + f" [source:{evidence_id}]"
    assume(len(answer) <= MAX_ANSWER_CHARS)

    assert check_citations(answer, [evidence_id]).accepted


def test_ids_of_nested_documents_and_sections_are_checked_exactly() -> None:
    evidence = "api/fs#fspromises-readfile"

    accepted = check_citations(f"Use readFile. [source:{evidence}]", [evidence])
    assert accepted.accepted and accepted.cited_ids == (evidence,)
    # Another section of the same document, the document itself, or another case: refused.
    for other in ("api/fs#fspromises-writefile", "api/fs", "API/fs#fspromises-readfile"):
        refused = check_citations(f"Use readFile. [source:{other}]", [evidence])
        assert not refused.accepted
        assert refused.problem == NOT_GIVEN


SENT = ["npm/registry#scopes", "npm/config", "pasta-water"]


def test_any_of_the_passages_sent_may_be_cited_and_citations_keep_their_order() -> None:
    answer = (
        "Point the scope at the registry [source:npm/config] [source:npm/registry#scopes]. "
        "Settings live in .npmrc [source:npm/config]."
    )

    check = check_citations(answer, SENT)

    assert check.accepted
    assert check.cited_ids == ("npm/config", "npm/registry#scopes")


def test_one_marker_outside_the_passages_sent_refuses_the_whole_answer() -> None:
    for invented in ("npm/registry", "npm/registry#scope", "npm/other", "NPM/config"):
        answer = f"Use scopes [source:npm/config]. Or not [source:{invented}]."

        check = check_citations(answer, SENT)

        assert not check.accepted
        assert check.problem == NOT_GIVEN
        assert check.cited_ids == ()


def test_a_single_id_is_one_id_not_its_characters() -> None:
    assert check_citations("Yes [source:p]", "pasta-water").problem is not None
    assert check_citations("Yes [source:pasta-water]", "pasta-water").accepted
