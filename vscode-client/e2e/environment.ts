/**
 * What the end-to-end test needs from the machine, found or installed up front. Each missing piece
 * is a failure that says how to get it: this test must never pass by skipping.
 */

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const CLIENT_ROOT = path.resolve(__dirname, '..', '..');
export const REPO_ROOT = path.resolve(CLIENT_ROOT, '..');
export const EXAMPLE = path.join(REPO_ROOT, 'examples', 'stack');
export const VSIX = path.join(CLIENT_ROOT, 'oracular.vsix');

export interface Environment {
  readonly codeServer: string;
  readonly chromium: string;
  /** A Python that has Oracular installed (the repository's virtual environment by default). */
  readonly python: string;
  readonly vsix: string;
  /** Where screenshots, logs and timings go (kept after the run; ignored by git). */
  readonly artifacts: string;
}

export class MissingRequirement extends Error {}

export function environment(): Environment {
  const chromium = process.env.ORACULAR_CHROMIUM ?? '/usr/bin/chromium';
  if (!isExecutable(chromium)) {
    throw new MissingRequirement(
      `Chromium not found at ${chromium}: apt-get install chromium (or set ORACULAR_CHROMIUM)`,
    );
  }
  const python = process.env.ORACULAR_PYTHON ?? path.join(REPO_ROOT, '.venv', 'bin', 'python');
  if (!isExecutable(python)) {
    throw new MissingRequirement(
      `no Python with Oracular at ${python}: run the README's set-up (python3 -m venv .venv && .venv/bin/pip install -e .) or set ORACULAR_PYTHON`,
    );
  }
  try {
    execFileSync(python, ['-c', 'import oracular'], { stdio: 'pipe' });
  } catch (error) {
    throw new MissingRequirement(`${python} cannot import oracular: ${String(error)}`);
  }
  if (!fs.existsSync(VSIX)) {
    throw new MissingRequirement(`${VSIX} is missing: run npm run package (npm run e2e does)`);
  }
  const artifacts = process.env.ORACULAR_E2E_ARTIFACTS ?? path.join(CLIENT_ROOT, 'e2e-artifacts');
  fs.rmSync(artifacts, { recursive: true, force: true });
  fs.mkdirSync(artifacts, { recursive: true });
  return { codeServer: codeServer(), chromium, python, vsix: VSIX, artifacts };
}

/** `ORACULAR_CODE_SERVER`, else the cached install of install-code-server.sh (installing it once). */
function codeServer(): string {
  const configured = process.env.ORACULAR_CODE_SERVER;
  if (configured !== undefined) {
    if (!isExecutable(configured)) {
      throw new MissingRequirement(`ORACULAR_CODE_SERVER=${configured} is not an executable`);
    }
    return configured;
  }
  const script = path.join(CLIENT_ROOT, 'e2e', 'install-code-server.sh');
  try {
    const output = execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    return output.trim().split('\n').pop() ?? '';
  } catch (error) {
    throw new MissingRequirement(`could not install code-server (${script}): ${String(error)}`);
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
