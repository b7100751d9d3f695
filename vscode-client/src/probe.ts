/**
 * Runs the probe of {@link probeCommand} and classifies the outcome, so that each way of not
 * having a usable Oracular gets its own message instead of a language server that dies at start.
 * Node only (no `vscode`), so the classification is tested against real processes.
 */

import { execFile } from 'node:child_process';

import { Launch } from './interpreter';
import { MIN_PYTHON, PROBE_NOT_INSTALLED, PROBE_TOO_OLD, probeCommand } from './serverCommand';

export type ProbeResult =
  | { readonly ok: true; readonly version: string; readonly python?: string }
  /** The executable does not exist or cannot be run. */
  | { readonly ok: false; readonly reason: 'not-found'; readonly detail: string }
  /** Python runs, but `import oracular` fails. */
  | { readonly ok: false; readonly reason: 'not-installed'; readonly detail: string }
  | { readonly ok: false; readonly reason: 'python-too-old'; readonly detail: string }
  /** Anything else: a crash, a time-out, unexpected output. */
  | { readonly ok: false; readonly reason: 'failed'; readonly detail: string };

const PROBE_TIMEOUT_MS = 30_000;

interface Outcome {
  readonly error: (Error & { code?: string | number | null; killed?: boolean }) | null;
  readonly stdout: string;
  readonly stderr: string;
}

export async function probe(
  launch: Launch,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ProbeResult> {
  const line = probeCommand(launch);
  const outcome = await new Promise<Outcome>((resolve) => {
    execFile(line.command, [...line.args], { env, timeout: timeoutMs, windowsHide: true }, (error, stdout, stderr) =>
      resolve({ error, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
  return classify(launch, outcome, timeoutMs);
}

function classify(launch: Launch, { error, stdout, stderr }: Outcome, timeoutMs: number): ProbeResult {
  const output = stdout.trim();
  if (error === null) {
    return launch.kind === 'server' ? parseServerVersion(output) : parsePythonProbe(output);
  }
  if (error.code === 'ENOENT' || error.code === 'EACCES') {
    const what = error.code === 'ENOENT' ? 'was not found' : 'is not executable';
    return { ok: false, reason: 'not-found', detail: `${launch.executable} ${what}` };
  }
  if (error.killed) {
    return {
      ok: false,
      reason: 'failed',
      detail: `${launch.executable} did not answer within ${timeoutMs / 1000} s`,
    };
  }
  if (launch.kind === 'python' && error.code === PROBE_NOT_INSTALLED) {
    return { ok: false, reason: 'not-installed', detail: output || 'import oracular failed' };
  }
  if (launch.kind === 'python' && error.code === PROBE_TOO_OLD) {
    return {
      ok: false,
      reason: 'python-too-old',
      detail: `Oracular needs Python ${MIN_PYTHON.join('.')} or later; ${launch.executable} is Python ${output}`,
    };
  }
  return { ok: false, reason: 'failed', detail: lastLines(stderr || stdout || error.message) };
}

function parsePythonProbe(output: string): ProbeResult {
  const match = /^(\d+\.\d+\.\d+) (\S+)$/.exec(output);
  if (match === null) {
    return {
      ok: false,
      reason: 'failed',
      detail: `unexpected answer from the Python probe: ${JSON.stringify(output)}`,
    };
  }
  return { ok: true, python: match[1], version: match[2] };
}

function parseServerVersion(output: string): ProbeResult {
  const match = /^oracular (\S+)$/.exec(output);
  if (match === null) {
    return {
      ok: false,
      reason: 'failed',
      detail: `not an Oracular executable (--version printed ${JSON.stringify(output)})`,
    };
  }
  return { ok: true, version: match[1] };
}

/** The end of an error output: where Python puts the exception that matters. */
function lastLines(text: string, count = 5): string {
  return text.trim().split(/\r?\n/).slice(-count).join('\n');
}
