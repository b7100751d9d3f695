"""Fields of a test class that only ever hold one literal."""

from __future__ import annotations

from oracular.java.class_values import literal_fields
from oracular.java.source import new_parser

SOURCE = """
class ParserTest {
    private static final String CONSTANT = "c";
    private String expected;
    private String declared = "d", other = "o";
    private int count = 1;
    private String twice = "x";
    private String computed = "a" + "b";
    private String shadowed = "s";
    private Object nothing = null;
    private String unset;
    int bumped = 0;
    void setUp() { expected = "clear"; this.twice = "x"; }
    void testOne() { other = "p"; bumped++; }
    void testTwo(String shadowed) { count = 1; }
}
"""


def test_only_fields_whose_every_write_is_one_literal_are_named_values() -> None:
    tree = new_parser().parse(SOURCE.encode())
    (cls,) = [n for n in tree.root_node.named_children if n.type == "class_declaration"]
    found = literal_fields(cls)
    assert found == {
        "expected": ("String", '"clear"'),  # set once, in the set-up
        "declared": ("String", '"d"'),
        "count": ("int", "1"),  # written again with the same literal
        "twice": ("String", '"x"'),  # through this.
    }
    # a constant is one already; two literals, an expression, null, nothing, an increment, or a
    # parameter of the same name make a field state, not a name for a value
    assert not {"CONSTANT", "other", "computed", "nothing", "unset", "bumped", "shadowed"} & set(found)
