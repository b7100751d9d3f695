"""Two reads of different objects that agree on a telling value make an oracle that holds; reads
of one object, values any two reads share, and values many reads share make none."""

from __future__ import annotations

from oracular.candidates.equal_reads import MAX_EQUAL_READS, equal_reads
from oracular.candidates.observed import HOLDS, ObservedValue, TestObservation, verdict
from oracular.java.targets import Target


def read(expression: str, type_: str = "int", kind: str = "observer") -> Target:
    return Target(expression, type_, kind, expression.split(".")[0])


def number(payload: str) -> ObservedValue:
    return ObservedValue("literal", "int", payload)


def test_reads_of_two_objects_that_agree_are_asserted_equal_and_hold() -> None:
    smile2, smile1, name = read("smile2.length"), read("smile1.length"), read("s.getName()", "String")
    seen = TestObservation(
        values={
            "smile2.length": number("366926"),
            "smile1.length": number("366926"),
            "s.getName()": ObservedValue("literal", "java.lang.String", '"a"'),
        },
        completed=True,
    )
    (pair,) = equal_reads([smile2, smile1, name], seen)
    # the first listed (the more relevant) is the actual value, the other names the expected one
    assert (pair.assertion, pair.target, pair.expected.text) == ("assertEquals", smile2, "smile1.length")
    assert pair.expected.source == "variable"  # a name the verdict reads, as a local is
    assert verdict(pair, seen).status == HOLDS


def test_no_pair_of_one_object_of_a_chance_value_or_of_a_value_many_share() -> None:
    targets = [read("s"), read("s.length()"), read("a.size()"), read("b.size()")]
    values = {"s": number("3"), "s.length()": number("3"), "a.size()": number("0"), "b.size()": number("0")}
    # s and s.length() are one object's; 0 is any two counts' value
    assert equal_reads(targets, TestObservation(values=values, completed=True)) == []
    many = [read(f"x{i}.size()") for i in range(4)]
    shared = TestObservation(values={t.expression: number("7") for t in many}, completed=True)
    assert equal_reads(many, shared) == []  # four counts of 7: a coincidence, not a relation
    pairs = [read(f"p{i}.size()") for i in range(2 * (MAX_EQUAL_READS + 1))]
    values = {t.expression: number(str(10 + i // 2)) for i, t in enumerate(pairs)}
    assert len(equal_reads(pairs, TestObservation(values=values, completed=True))) == MAX_EQUAL_READS


def test_enum_constants_of_two_types_are_not_one_value() -> None:
    state, switch, mode = (
        read("a.getState()", "State"),
        read("b.getSwitch()", "Switch"),
        read("c.getState()", "State"),
    )
    seen = TestObservation(
        values={
            "a.getState()": ObservedValue("enum", "p.State", "ON"),
            "b.getSwitch()": ObservedValue("enum", "p.Switch", "ON"),
            "c.getState()": ObservedValue("enum", "p.State", "ON"),
        },
        completed=True,
    )
    assert [(p.target, p.expected.text) for p in equal_reads([state, switch, mode], seen)] == [
        (state, "c.getState()")
    ]
