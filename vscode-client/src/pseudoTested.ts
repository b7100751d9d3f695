/**
 * What the server's `oracular.pseudoTested` answers (the JSON of `oracular pseudo-tested --json`),
 * read defensively and summed up in one line for a notification. Kept free of `vscode` so that it
 * is unit-tested.
 */

export interface MethodVerdict {
  readonly method: string;
  readonly verdict: string;
  readonly oracles: number;
}

export interface PseudoTestedAnswer {
  readonly error: string | null;
  readonly methods: readonly MethodVerdict[];
}

export class MalformedPseudoTested extends Error {}

export function parsePseudoTested(answer: unknown): PseudoTestedAnswer {
  if (typeof answer !== 'object' || answer === null || !Array.isArray((answer as { methods?: unknown }).methods)) {
    throw new MalformedPseudoTested('the server answered oracular.pseudoTested with no methods');
  }
  const raw = answer as { error?: unknown; methods: unknown[] };
  const methods = raw.methods.map((m) => {
    const entry = m as { method?: unknown; verdict?: unknown; oracles?: unknown };
    if (typeof entry.method !== 'string' || typeof entry.verdict !== 'string') {
      throw new MalformedPseudoTested('a method of the answer has no name or verdict');
    }
    return {
      method: entry.method,
      verdict: entry.verdict,
      oracles: Array.isArray(entry.oracles) ? entry.oracles.length : 0,
    };
  });
  return { error: typeof raw.error === 'string' ? raw.error : null, methods };
}

/** "2 pseudo-tested (IntStack.size, IntStack.trimToSize), 1 partially tested, 2 tested; 1 oracle ...". */
export function summary(answer: PseudoTestedAnswer): string {
  if (answer.error !== null) {
    return `Oracular: not run: ${answer.error}`;
  }
  const named = (verdict: string): string[] => answer.methods.filter((m) => m.verdict === verdict).map((m) => m.method);
  const pseudo = named('pseudo-tested');
  const partial = named('partially tested');
  const parts = [
    pseudo.length > 0 ? `${pseudo.length} pseudo-tested (${pseudo.join(', ')})` : '0 pseudo-tested',
    partial.length > 0 ? `${partial.length} partially tested (${partial.join(', ')})` : '0 partially tested',
    `${named('tested').length} tested`,
  ];
  const oracles = answer.methods.reduce((sum, m) => sum + m.oracles, 0);
  const fixes = oracles > 0 ? `; ${oracles} killing oracle(s) offered as quick fixes in the tests` : '';
  return `Oracular: ${parts.join(', ')}${fixes}.`;
}
