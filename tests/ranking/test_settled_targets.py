"""Step ``settled-targets``: what the action left as it was falls behind what it changed."""

from __future__ import annotations

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import ObservedValue, TestObservation
from oracular.candidates.values import Value
from oracular.ranking.steps.settled_targets import lower_settled_targets
from oracular.ranking.weights import RankingWeights

from ..conftest import target

WEIGHTS = RankingWeights()


def test_what_the_action_changed_is_weighed_above_what_it_left_alone() -> None:
    """args4j: ``parser.parseArgument("-str", "foo")`` fills the bean's ``str``; the parser's
    argument count and a file of the set-up are as they were, and a new local is new."""
    before = {
        "bean.str": ObservedValue("null", "null", "null"),
        "parser.count()": ObservedValue("literal", "int", "0"),
        "bean": ObservedValue("object", "p.Bean", ""),
        "tmp.exists()": ObservedValue("boolean", "boolean", "true"),
    }
    after = {
        **before,
        "bean.str": ObservedValue("literal", "java.lang.String", '"foo"'),
        "result": ObservedValue("boolean", "boolean", "true"),
        "flaky.get()": ObservedValue("literal", "int", "1"),
    }
    observation = TestObservation(values=after, before=before, fresh={"result"}, completed=True)
    assert observation.changed("bean.str") is True
    assert observation.changed("result") is True  # declared by the action
    assert observation.changed("parser.count()") is False
    assert observation.changed("tmp.exists()") is False
    assert observation.changed("bean") is None  # an object: its description hides its state
    assert observation.changed("flaky.get()") is None  # not read before the action
    assert observation.changed("never.read()") is None
    candidates = [
        Candidate(
            "assertion",
            "assertEquals",
            target("bean.str", "String", "field"),
            Value('"foo"', "String", "observed"),
        ),
        Candidate(
            "assertion",
            "assertEquals",
            target("parser.count()", "int", "observer"),
            Value("0", "int", "observed"),
        ),
        Candidate("assertion", "assertTrue", target("tmp.exists()", "boolean", "observer")),
        Candidate("assertion", "assertNotNull", target("bean", "Bean")),
        Candidate("exception", "assertThrows", None, exception="CmdLineException"),
    ]
    scores = [0.2, 0.5, 0.3, 0.1, 0.4]
    weighed = lower_settled_targets(candidates, scores, observation, WEIGHTS.settled)
    assert weighed[0] == 0.2 and weighed[3] == 0.1 and weighed[4] == 0.4
    assert weighed[1] < 0.2 and weighed[2] < 0.2  # the unchanged fall behind the changed field
    assert (
        lower_settled_targets(candidates, scores, TestObservation(values=after), WEIGHTS.settled) == scores
    )  # nothing read before
