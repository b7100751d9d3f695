/**
 * The answer of the server's `oracular.suggest` command (the `oracular suggest --json` document),
 * checked and turned into quick-pick entries. The server is another program: a malformed answer
 * must become a clear error, not an `undefined` deep inside the UI. Pure: no `vscode` import.
 */

export interface LspPosition {
  readonly line: number;
  readonly character: number;
}

export interface LspEdit {
  readonly range: { readonly start: LspPosition; readonly end: LspPosition };
  readonly newText: string;
}

export interface Suggestion {
  readonly rank: number;
  /** `helper`: a call of the suite's own assertion helper (`assertOptionDetected(options, "a")`). */
  readonly kind: 'assertion' | 'exception' | 'helper';
  readonly oracle: string;
  readonly score: number;
  readonly edits: readonly LspEdit[];
}

export interface TestSuggestions {
  readonly method: string;
  /** 1-based line of the method's name. */
  readonly line: number;
  readonly focal: { readonly class: string; readonly method: string } | null;
  readonly exception: { readonly probability: number; readonly type: string };
  readonly abstained: boolean;
  /** How sure the server is of the top oracle (it abstains below its threshold); null: not asked. */
  readonly confidence: number | null;
  readonly suggestions: readonly Suggestion[];
}

export interface SuggestDocument {
  readonly file: string;
  readonly tests: readonly TestSuggestions[];
}

export class MalformedAnswer extends Error {}

export function parseSuggestDocument(value: unknown): SuggestDocument {
  const document = object(value, 'the answer');
  return {
    file: string(document.file, 'file'),
    tests: array(document.tests, 'tests').map((t, i) => parseTest(t, `tests[${i}]`)),
  };
}

function parseTest(value: unknown, where: string): TestSuggestions {
  const test = object(value, where);
  const exception = object(test.exception, `${where}.exception`);
  let focal: TestSuggestions['focal'] = null;
  if (test.focal !== null && test.focal !== undefined) {
    const raw = object(test.focal, `${where}.focal`);
    focal = { class: string(raw.class, `${where}.focal.class`), method: string(raw.method, `${where}.focal.method`) };
  }
  return {
    method: string(test.method, `${where}.method`),
    line: number(test.line, `${where}.line`),
    focal,
    exception: {
      probability: number(exception.probability, `${where}.exception.probability`),
      type: string(exception.type, `${where}.exception.type`),
    },
    abstained: boolean(test.abstained, `${where}.abstained`),
    confidence: test.confidence === undefined ? null : number(test.confidence, `${where}.confidence`),
    suggestions: array(test.suggestions, `${where}.suggestions`).map((s, i) =>
      parseSuggestion(s, `${where}.suggestions[${i}]`),
    ),
  };
}

function parseSuggestion(value: unknown, where: string): Suggestion {
  const suggestion = object(value, where);
  const kind = string(suggestion.kind, `${where}.kind`);
  if (kind !== 'assertion' && kind !== 'exception' && kind !== 'helper') {
    throw new MalformedAnswer(
      `${where}.kind: expected "assertion", "exception" or "helper", got ${JSON.stringify(kind)}`,
    );
  }
  return {
    rank: number(suggestion.rank, `${where}.rank`),
    kind,
    oracle: string(suggestion.oracle, `${where}.oracle`),
    score: number(suggestion.score, `${where}.score`),
    edits: array(suggestion.edits, `${where}.edits`).map((e, i) => parseEdit(e, `${where}.edits[${i}]`)),
  };
}

function parseEdit(value: unknown, where: string): LspEdit {
  const edit = object(value, where);
  const range = object(edit.range, `${where}.range`);
  return {
    range: { start: position(range.start, `${where}.range.start`), end: position(range.end, `${where}.range.end`) },
    newText: string(edit.newText, `${where}.newText`),
  };
}

function position(value: unknown, where: string): LspPosition {
  const raw = object(value, where);
  return { line: number(raw.line, `${where}.line`), character: number(raw.character, `${where}.character`) };
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MalformedAnswer(`${where}: expected an object, got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

function array(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) {
    throw new MalformedAnswer(`${where}: expected a list, got ${describe(value)}`);
  }
  return value;
}

function string(value: unknown, where: string): string {
  if (typeof value !== 'string') {
    throw new MalformedAnswer(`${where}: expected a string, got ${describe(value)}`);
  }
  return value;
}

function number(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new MalformedAnswer(`${where}: expected a number, got ${describe(value)}`);
  }
  return value;
}

function boolean(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') {
    throw new MalformedAnswer(`${where}: expected true or false, got ${describe(value)}`);
  }
  return value;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 40 ? text : `${text.slice(0, 37)}...`;
}

/** One entry of the quick pick: the oracle as it will be written, with its score. */
export interface PickEntry {
  readonly label: string;
  readonly description: string;
  readonly suggestion: Suggestion;
}

const KIND_NOTE: Record<Suggestion['kind'], string> = {
  assertion: '',
  exception: ', expects an exception',
  helper: ", the suite's own helper",
};

export function pickEntries(test: TestSuggestions): PickEntry[] {
  return test.suggestions.map((suggestion) => ({
    label: oneLine(suggestion.oracle),
    description: `${suggestion.rank}. score ${suggestion.score.toFixed(3)}${KIND_NOTE[suggestion.kind]}`,
    suggestion,
  }));
}

/** The quick pick's title: the test, its focal method and how likely it is to throw. */
export function pickTitle(test: TestSuggestions): string {
  const focal = test.focal !== null ? `focal ${test.focal.class}.${test.focal.method}` : 'no focal method';
  const sure =
    test.confidence === null
      ? ''
      : `; confidence ${test.confidence.toFixed(2)}${test.abstained ? ', too low to insert on its own' : ''}`;
  return `Oracles for ${test.method} (${focal}; p(${test.exception.type}) = ${test.exception.probability.toFixed(2)}${sure})`;
}

/** Why there is nothing to pick, or `undefined` when there is. */
export function nothingToPick(document: SuggestDocument, line: number): string | undefined {
  const test = document.tests[0];
  if (test === undefined) {
    return `Oracular: line ${line} is not inside a test that lacks an oracle.`;
  }
  if (test.suggestions.length === 0) {
    return test.abstained
      ? `Oracular has no confident oracle for ${test.method} (it abstains below the oracular.abstainBelow confidence).`
      : `Oracular has no oracle to suggest for ${test.method}.`;
  }
  return undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
