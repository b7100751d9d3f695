import * as assert from 'node:assert/strict';

import { launchProblemMessage } from '../src/messages';

describe('launchProblemMessage', () => {
  it('gives the install command for the Python that lacks Oracular', () => {
    const message = launchProblemMessage(
      { kind: 'python', executable: 'python3', source: 'default' },
      { ok: false, reason: 'not-installed', detail: "No module named 'oracular'" },
    );
    assert.equal(
      message,
      'Oracular is not installed for python3 (the default: python3 on the PATH). Install it with: python3 -m pip install -e <path to your Oracular checkout> and run "Oracular: Restart server", or point oracular.python or oracular.server.path at an environment that has it.',
    );
  });

  it('names the setting that chose a missing executable', () => {
    const message = launchProblemMessage(
      { kind: 'server', executable: '/x/oracular', source: 'oracular.server.path' },
      { ok: false, reason: 'not-found', detail: '/x/oracular was not found' },
    );
    assert.equal(
      message,
      'Oracular cannot start: /x/oracular was not found (set by oracular.server.path). Set oracular.python or oracular.server.path.',
    );
  });

  it('says when the interpreter came from the Python extension', () => {
    const message = launchProblemMessage(
      { kind: 'python', executable: '/venv/bin/python', source: 'Python extension' },
      { ok: false, reason: 'failed', detail: 'Segmentation fault' },
    );
    assert.equal(
      message,
      "Oracular cannot start with /venv/bin/python (the Python extension's interpreter): Segmentation fault",
    );
  });
});
