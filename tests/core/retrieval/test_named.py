"""A question that names an API object finds that object's passage first."""

from __future__ import annotations

from tui_assistant.core.retrieval.named import named_in, named_index

TITLES = [
    (0, "requests.api.post(url, data=None, json=None, **kwargs)"),
    (1, "requests.sessions.Session.post(url, data=None, json=None, **kwargs)"),
    (2, "requests.utils.dict_from_cookiejar(cj)"),
    (3, "requests.utils.add_dict_to_cookiejar(cj, cookie_dict)"),
    (4, "requests.models.Request(method=None, url=None)"),
    (5, "requests.api.request(method, url, **kwargs)"),
    (6, "requests.auth.HTTPDigestAuth(username, password)"),
    (7, "requests.models.Response.links"),
]
INDEX = named_index(TITLES)


def test_a_written_name_picks_its_object_not_its_lookalikes() -> None:
    assert named_in("what does dict_from_cookiejar return", INDEX) == [2]
    assert named_in("what is HTTPDigestAuth for?", INDEX) == [6]
    assert named_in("what is Response.links", INDEX) == [7]


def test_a_shorter_qualified_name_and_the_same_case_come_first() -> None:
    assert named_in("what does requests.post do?", INDEX) == [0, 1]
    assert named_in("how does requests.request take the method", INDEX) == [5, 4]
    assert named_in("Session.post with json", INDEX) == [1]


def test_plain_words_name_nothing() -> None:
    assert named_in("how do I post a form?", INDEX) == []
    assert named_in("what does request mean here", INDEX) == []
    assert named_in("what does nothing_here() do", INDEX) == []
