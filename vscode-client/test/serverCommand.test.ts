import * as assert from 'node:assert/strict';

import { Launch } from '../src/interpreter';
import { display, installCommand, probeCommand, PROBE_SCRIPT, serverCommand, shellQuote } from '../src/serverCommand';

const python: Launch = { kind: 'python', executable: '/usr/bin/python3', source: 'default' };
const server: Launch = { kind: 'server', executable: '/opt/o/bin/oracular', source: 'oracular.server.path' };

describe('serverCommand', () => {
  it('runs the package with -m for a Python', () => {
    assert.deepEqual(serverCommand(python), { command: '/usr/bin/python3', args: ['-m', 'oracular', 'serve'] });
  });

  it('runs the executable with serve for oracular.server.path', () => {
    assert.deepEqual(serverCommand(server), { command: '/opt/o/bin/oracular', args: ['serve'] });
  });

  it('never adds arguments that could put anything but LSP on stdout', () => {
    for (const launch of [python, server]) {
      assert.ok(!serverCommand(launch).args.includes('--tcp'));
    }
  });
});

describe('probeCommand', () => {
  it('imports the package with the chosen Python', () => {
    assert.deepEqual(probeCommand(python), { command: '/usr/bin/python3', args: ['-c', PROBE_SCRIPT] });
    assert.match(PROBE_SCRIPT, /import oracular/);
  });

  it('asks an oracular executable for its version', () => {
    assert.deepEqual(probeCommand(server), { command: '/opt/o/bin/oracular', args: ['--version'] });
  });
});

describe('installCommand', () => {
  it('installs into the very Python that was chosen', () => {
    assert.equal(installCommand(python), '/usr/bin/python3 -m pip install -e <path to your Oracular checkout>');
    assert.equal(
      installCommand({ ...python, executable: '/home/me/My Envs/bin/python' }),
      "'/home/me/My Envs/bin/python' -m pip install -e <path to your Oracular checkout>",
    );
  });
});

describe('display and shellQuote', () => {
  it('quotes only what a shell would split or expand', () => {
    assert.equal(display(serverCommand(python)), '/usr/bin/python3 -m oracular serve');
    assert.equal(shellQuote("it's here"), `'it'\\''s here'`);
    assert.equal(shellQuote('$HOME'), `'$HOME'`);
  });
});
