"""JUnit's assertion vocabulary, said once: the names Oracular reads in tests and writes into them.

Why a module of its own: the grammar writes these calls, the oracle detector and the normaliser
read them, the answer confidence and the template features count them, the quality checks match
them. Spelled out in each, a name added to one list (``assertIterableEquals``) was missing from
the next. The tuples whose order is a model's feature order (:data:`WRITTEN`) are ordered; the
others are sets.
"""

from __future__ import annotations

ASSERT_EQUALS = "assertEquals"
ASSERT_NOT_EQUALS = "assertNotEquals"
ASSERT_ARRAY_EQUALS = "assertArrayEquals"
ASSERT_ITERABLE_EQUALS = "assertIterableEquals"
ASSERT_LINES_MATCH = "assertLinesMatch"
ASSERT_TRUE = "assertTrue"
ASSERT_FALSE = "assertFalse"
ASSERT_NULL = "assertNull"
ASSERT_NOT_NULL = "assertNotNull"
ASSERT_SAME = "assertSame"
ASSERT_NOT_SAME = "assertNotSame"
ASSERT_THROWS = "assertThrows"
ASSERT_THAT = "assertThat"
FAIL = "fail"

WRITTEN = (ASSERT_EQUALS, ASSERT_TRUE, ASSERT_FALSE, ASSERT_NULL, ASSERT_NOT_NULL, ASSERT_ARRAY_EQUALS)
"""The assertions the candidate grammar writes, in the template features' order."""
GRAMMAR_FORMS = frozenset(WRITTEN)
BOOLEAN = frozenset({ASSERT_TRUE, ASSERT_FALSE})
NULL_CHECKS = frozenset({ASSERT_NULL, ASSERT_NOT_NULL})
EQUALITY = frozenset({ASSERT_EQUALS, ASSERT_ARRAY_EQUALS})
"""What compares a value with an expected one, as the grammar writes it."""
UNARY = BOOLEAN | NULL_CHECKS
"""One value checked."""
PAIRED = frozenset(
    {ASSERT_EQUALS, ASSERT_NOT_EQUALS, ASSERT_SAME, ASSERT_NOT_SAME, ASSERT_ARRAY_EQUALS,
     ASSERT_ITERABLE_EQUALS}
)  # fmt: skip
"""An expected value and an actual one, in that order (JUnit's; TestNG's are the other way)."""
BINARY = PAIRED | {ASSERT_LINES_MATCH}
JUNIT_ORACLES = frozenset({*WRITTEN, ASSERT_NOT_EQUALS, ASSERT_SAME, ASSERT_NOT_SAME, ASSERT_THROWS, FAIL})
"""The oracles Oracular writes (and ``fail``, of try/``fail``/catch): a test whose oracle is one of
these checks the way Oracular's answers do."""
FAMILIES = {
    ASSERT_TRUE: "truth", ASSERT_FALSE: "truth", ASSERT_EQUALS: "equals", ASSERT_NOT_EQUALS: "equals",
    ASSERT_ARRAY_EQUALS: "equals", ASSERT_NULL: "null", ASSERT_NOT_NULL: "null", ASSERT_SAME: "same",
    ASSERT_NOT_SAME: "same",
}  # fmt: skip
"""JUnit's assertions by what they compare: which of a family holds is the code's to say."""
