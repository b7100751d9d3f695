import * as assert from 'node:assert/strict';

import { MalformedAnswer, nothingToPick, parseSuggestDocument, pickEntries, pickTitle } from '../src/suggestions';

/** The shape `oracular suggest --json` prints (README), for one test of the bundled example. */
const ANSWER = {
  file: '/work/stack/src/test/java/org/example/stack/StackTest.java',
  tests: [
    {
      method: 'testPushPopIsEmpty',
      line: 15,
      focal: {
        class: 'Stack',
        method: 'isEmpty',
        signature: 'public boolean isEmpty()',
        path: '/work/stack/Stack.java',
      },
      exception: { probability: 0.02, type: 'Exception' },
      abstained: false,
      confidence: 0.62,
      suggestions: [
        {
          rank: 1,
          kind: 'assertion',
          oracle: 'assertTrue(empty);',
          score: 0.784,
          edits: [
            {
              range: { start: { line: 20, character: 36 }, end: { line: 20, character: 36 } },
              newText: '\n        assertTrue(empty);',
            },
          ],
        },
        {
          rank: 2,
          kind: 'exception',
          oracle: 'assertThrows(Exception.class,\n    () -> s.pop());',
          score: 0.1,
          edits: [],
        },
        {
          rank: 3,
          kind: 'helper',
          oracle: 'assertSize(s, 0);',
          score: 0.05,
          edits: [],
        },
      ],
    },
  ],
};

describe('parseSuggestDocument', () => {
  it('reads the documented JSON', () => {
    const document = parseSuggestDocument(JSON.parse(JSON.stringify(ANSWER)));
    assert.equal(document.tests[0].method, 'testPushPopIsEmpty');
    assert.deepEqual(document.tests[0].focal, { class: 'Stack', method: 'isEmpty' });
    assert.equal(document.tests[0].suggestions[0].edits[0].range.start.character, 36);
  });

  it('accepts a test without a focal method', () => {
    const answer = { file: 'F.java', tests: [{ ...ANSWER.tests[0], focal: null }] };
    assert.equal(parseSuggestDocument(answer).tests[0].focal, null);
  });

  it('says where a malformed answer is wrong', () => {
    assert.throws(
      () => parseSuggestDocument(null),
      (e: unknown) => e instanceof MalformedAnswer && e.message === 'the answer: expected an object, got null',
    );
    assert.throws(() => parseSuggestDocument({ file: 'F.java', tests: {} }), /tests: expected a list/);
    const badScore = structuredClone(ANSWER) as { tests: Array<{ suggestions: Array<{ score: unknown }> }> };
    badScore.tests[0].suggestions[1].score = 'high';
    assert.throws(
      () => parseSuggestDocument(badScore),
      /tests\[0\]\.suggestions\[1\]\.score: expected a number, got "high"/,
    );
    const badKind = structuredClone(ANSWER) as { tests: Array<{ suggestions: Array<{ kind: unknown }> }> };
    badKind.tests[0].suggestions[0].kind = 'guess';
    assert.throws(() => parseSuggestDocument(badKind), /kind: expected "assertion", "exception" or "helper"/);
  });
});

describe('pick entries', () => {
  const document = parseSuggestDocument(ANSWER);

  it('show each oracle on one line with its rank and score', () => {
    const entries = pickEntries(document.tests[0]);
    assert.deepEqual(
      entries.map((e) => [e.label, e.description]),
      [
        ['assertTrue(empty);', '1. score 0.784'],
        ['assertThrows(Exception.class, () -> s.pop());', '2. score 0.100, expects an exception'],
        ['assertSize(s, 0);', "3. score 0.050, the suite's own helper"],
      ],
    );
    assert.equal(entries[0].suggestion.rank, 1);
  });

  it('title the pick with the test, its focal method, the exception probability and the confidence', () => {
    assert.equal(
      pickTitle(document.tests[0]),
      'Oracles for testPushPopIsEmpty (focal Stack.isEmpty; p(Exception) = 0.02; confidence 0.62)',
    );
    const unsure = { ...document.tests[0], abstained: true, confidence: 0.1 };
    assert.match(pickTitle(unsure), /; confidence 0\.10, too low to insert on its own\)$/);
    const unasked = { ...document.tests[0], confidence: null };
    assert.equal(pickTitle(unasked), 'Oracles for testPushPopIsEmpty (focal Stack.isEmpty; p(Exception) = 0.02)');
  });

  it('explain why there is nothing to pick', () => {
    assert.equal(nothingToPick(document, 15), undefined);
    assert.match(
      nothingToPick({ file: 'F.java', tests: [] }, 3) ?? '',
      /line 3 is not inside a test that lacks an oracle/,
    );
    const abstained = { ...document.tests[0], abstained: true, suggestions: [] };
    assert.match(
      nothingToPick({ file: 'F.java', tests: [abstained] }, 15) ?? '',
      /no confident oracle for testPushPopIsEmpty/,
    );
  });
});
