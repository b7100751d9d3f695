import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { probe } from '../src/probe';

/**
 * The probe against real processes: a Python with and without a (stand-in) `oracular` package on
 * its path, a missing executable, and scripts standing in for an `oracular` executable.
 */
describe('probe', () => {
  let dir: string;
  const python = { kind: 'python', executable: 'python3', source: 'default' } as const;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oracular-probe-'));
    fs.mkdirSync(path.join(dir, 'site', 'oracular'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'site', 'oracular', '__init__.py'), '__version__ = "9.8.7"\n');
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function script(name: string, body: string, mode = 0o755): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode });
    return file;
  }

  it('finds the version of an importable package', async () => {
    const result = await probe(python, { ...process.env, PYTHONPATH: path.join(dir, 'site') });
    assert.equal(result.ok, true);
    assert.ok(result.ok && result.version === '9.8.7' && /^3\.\d+\.\d+$/.test(result.python ?? ''));
  });

  it('tells a Python without Oracular apart from other failures', async () => {
    const result = await probe(python, { ...process.env, PYTHONPATH: path.join(dir, 'empty') });
    assert.deepEqual(result, { ok: false, reason: 'not-installed', detail: "No module named 'oracular'" });
  });

  it('reports a missing or non-executable interpreter', async () => {
    const missing = await probe({ ...python, executable: path.join(dir, 'no-such-python') });
    assert.deepEqual(missing, {
      ok: false,
      reason: 'not-found',
      detail: `${path.join(dir, 'no-such-python')} was not found`,
    });
    const notExecutable = script('not-executable', 'exit 0', 0o644);
    const denied = await probe({ kind: 'server', executable: notExecutable, source: 'oracular.server.path' });
    assert.equal(denied.ok === false && denied.reason, 'not-found');
  });

  it('reports a Python older than Oracular needs', async () => {
    const old = script('python-old', 'echo 3.8; exit 4');
    const result = await probe({ ...python, executable: old });
    assert.deepEqual(result, {
      ok: false,
      reason: 'python-too-old',
      detail: `Oracular needs Python 3.11 or later; ${old} is Python 3.8`,
    });
  });

  it('checks that oracular.server.path really is Oracular', async () => {
    const good = await probe({
      kind: 'server',
      executable: script('oracular', 'echo "oracular 0.1.0"'),
      source: 'oracular.server.path',
    });
    assert.deepEqual(good, { ok: true, version: '0.1.0' });
    const other = await probe({
      kind: 'server',
      executable: script('other', 'echo "something 1.0"'),
      source: 'oracular.server.path',
    });
    assert.ok(!other.ok && other.reason === 'failed' && /not an Oracular executable/.test(other.detail));
  });

  it('passes on the end of a crash', async () => {
    const crash = script(
      'crash',
      'echo "Traceback (most recent call last):" >&2; echo "ImportError: libtorch.so: cannot open" >&2; exit 1',
    );
    const result = await probe({ kind: 'server', executable: crash, source: 'oracular.server.path' });
    assert.ok(!result.ok && result.reason === 'failed');
    assert.match(result.detail, /ImportError: libtorch\.so/);
  });

  it('gives up on a probe that hangs', async () => {
    const hang = script('hang', 'sleep 10');
    const result = await probe({ kind: 'server', executable: hang, source: 'oracular.server.path' }, process.env, 300);
    assert.ok(!result.ok && result.reason === 'failed' && /did not answer within 0\.3 s/.test(result.detail));
  });
});
