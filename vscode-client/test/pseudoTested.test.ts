import * as assert from 'node:assert/strict';

import { MalformedPseudoTested, parsePseudoTested, summary } from '../src/pseudoTested';

/** The shape `oracular pseudo-tested --json` prints, trimmed to what the summary reads. */
const ANSWER = {
  path: '/work/pseudo/src/test/java/org/example/pseudo/IntStackTest.java',
  error: null,
  methods: [
    { method: 'IntStack.push', verdict: 'tested', oracles: [] },
    { method: 'IntStack.size', verdict: 'pseudo-tested', oracles: [{ statement: 'assertEquals(2, s.size());' }] },
    { method: 'IntStack.isEmpty', verdict: 'partially tested', oracles: [] },
    { method: 'IntStack.trimToSize', verdict: 'pseudo-tested', oracles: [] },
  ],
};

describe('pseudo-tested answers', () => {
  it('sums up the verdicts, naming the methods that need attention', () => {
    assert.equal(
      summary(parsePseudoTested(ANSWER)),
      'Oracular: 2 pseudo-tested (IntStack.size, IntStack.trimToSize), 1 partially tested (IntStack.isEmpty), ' +
        '1 tested; 1 killing oracle(s) offered as quick fixes in the tests.',
    );
  });

  it('says why nothing ran', () => {
    const answer = { ...ANSWER, error: 'its tests call no method of the main sources', methods: [] };
    assert.equal(summary(parsePseudoTested(answer)), 'Oracular: not run: its tests call no method of the main sources');
  });

  it('refuses an answer of another shape', () => {
    assert.throws(() => parsePseudoTested({ tests: [] }), MalformedPseudoTested);
    assert.throws(() => parsePseudoTested({ methods: [{ verdict: 'tested' }] }), MalformedPseudoTested);
  });
});
