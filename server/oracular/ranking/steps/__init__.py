"""The ranking pipeline's steps, one module each, named for what it does to the scores.

In the order :data:`oracular.ranking.pipeline.STEPS` runs them:

1. ``asserted-alike`` (:mod:`.file_habits`): raise the assertions on what the file's other tests
   assert on, where the prefix ends with an action;
2. ``guard-verdict`` (:mod:`.guard_verdict`): static mode, a certain guard verdict makes the
   exception oracles likely;
3. ``first-check`` (:mod:`.file_habits`): raise the assertions of the file's first-check habit;
4. ``join-helpers`` (:mod:`.helper_calls`): the suite's own assertion helpers join, scored by habit;
5. ``judge`` (:mod:`.judge`): observed mode, each candidate holds or fails;
6. ``witnessed-exception`` (:mod:`.witnessed_exception`): raise the exception that was thrown;
7. ``settled-targets`` (:mod:`.settled_targets`): lower what the action left as it was;
8. ``named-values`` (:mod:`.named_values`): a holding named value takes its literal's score;
9. ``passing-helpers`` (:mod:`.helper_calls`): a helper call that passed takes its habit's share;
10. ``fewer-helper-calls`` (:mod:`.helper_calls`): lower a helper's later argument choices.

Each is a callable with a ``name``, taking and returning a :class:`~oracular.ranking.scored.Ranked`
with the :class:`~oracular.ranking.scored.RankingContext`; a step that does not apply (a static
step in observed mode) returns what it was given. Weights come from the context's
:class:`~oracular.ranking.weights.RankingWeights`.
"""
