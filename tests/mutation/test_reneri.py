"""What counts as a difference a test could assert on, and what ``assertNotNull`` can kill."""

from __future__ import annotations

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import ObservedValue
from oracular.mutation.reneri import _distinct, _tells

EMPTY = ObservedValue("list", "java.util.Collections$UnmodifiableRandomAccessList", "")


def test_values_differ_as_an_assertion_would_see_them() -> None:
    assert not _distinct(EMPTY, ObservedValue("list", "java.util.Collections$EmptyList", ""))  # List.equals
    assert _distinct(ObservedValue("literal", "int", "2"), ObservedValue("literal", "int", "0"))
    assert _distinct(ObservedValue("object", "p.Set", ""), ObservedValue("null", "null", "null"))
    assert _distinct(ObservedValue("string", "p.A", '"x"'), ObservedValue("string", "p.B", '"x"'))
    out_of_bounds = "java.lang.IndexOutOfBoundsException"
    assert not _distinct(  # the same throw, worded by another list class
        ObservedValue("thrown", out_of_bounds, "Index 0 out of bounds for length 0"),
        ObservedValue("thrown", out_of_bounds, "Index: 0"),
    )


def test_assert_not_null_kills_only_a_null() -> None:
    not_null = Candidate("assertion", "assertNotNull")
    assert _tells(not_null, ObservedValue("null", "null", "null"))
    assert not _tells(not_null, ObservedValue("object", "p.Set", ""))
    assert _tells(Candidate("assertion", "assertEquals"), ObservedValue("literal", "int", "0"))
