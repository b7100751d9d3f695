import * as assert from 'node:assert/strict';

import { DEFAULT_PYTHON, expandPath, resolveLaunch } from '../src/interpreter';
import { SettingError } from '../src/settings';

const home = '/home/dev';
const workspaceFolder = '/work/project';

describe('resolveLaunch', () => {
  it('prefers oracular.server.path over everything else', () => {
    const launch = resolveLaunch({
      settings: { serverPath: '/opt/oracular/bin/oracular', python: '/usr/bin/python3.12' },
      pythonExtension: '/venv/bin/python',
      workspaceFolder,
      home,
    });
    assert.deepEqual(launch, {
      kind: 'server',
      executable: '/opt/oracular/bin/oracular',
      source: 'oracular.server.path',
    });
  });

  it('uses oracular.python before the Python extension', () => {
    const launch = resolveLaunch({
      settings: { python: '/usr/bin/python3.12' },
      pythonExtension: '/venv/bin/python',
      workspaceFolder,
      home,
    });
    assert.deepEqual(launch, { kind: 'python', executable: '/usr/bin/python3.12', source: 'oracular.python' });
  });

  it("uses the Python extension's interpreter when no setting is given", () => {
    const launch = resolveLaunch({ settings: {}, pythonExtension: '/venv/bin/python', workspaceFolder, home });
    assert.deepEqual(launch, { kind: 'python', executable: '/venv/bin/python', source: 'Python extension' });
  });

  it('falls back to python3 on the PATH without the Python extension', () => {
    assert.deepEqual(resolveLaunch({ settings: {}, home }), {
      kind: 'python',
      executable: DEFAULT_PYTHON,
      source: 'default',
    });
    assert.deepEqual(resolveLaunch({ settings: {}, pythonExtension: '  ', home }), {
      kind: 'python',
      executable: DEFAULT_PYTHON,
      source: 'default',
    });
  });

  it('resolves a relative oracular.python against the workspace folder', () => {
    const launch = resolveLaunch({ settings: { python: '.venv/bin/python' }, workspaceFolder, home });
    assert.equal(launch.executable, '/work/project/.venv/bin/python');
  });
});

describe('expandPath', () => {
  const inputs = { workspaceFolder, home };

  it('expands ${workspaceFolder}, ${userHome} and ~', () => {
    assert.equal(
      expandPath('${workspaceFolder}/.venv/bin/oracular', 'oracular.server.path', inputs),
      '/work/project/.venv/bin/oracular',
    );
    assert.equal(expandPath('${userHome}/bin/python', 'oracular.python', inputs), '/home/dev/bin/python');
    assert.equal(expandPath('~/venvs/o/bin/python', 'oracular.python', inputs), '/home/dev/venvs/o/bin/python');
  });

  it('leaves a bare command name for the PATH', () => {
    assert.equal(expandPath('python3.12', 'oracular.python', inputs), 'python3.12');
    assert.equal(expandPath('oracular', 'oracular.server.path', { home }), 'oracular');
  });

  it('rejects ${workspaceFolder} and relative paths when no folder is open', () => {
    assert.throws(
      () => expandPath('${workspaceFolder}/x', 'oracular.python', { home }),
      (e: unknown) =>
        e instanceof SettingError &&
        /oracular\.python uses \$\{workspaceFolder\} but no folder is open/.test(e.message),
    );
    assert.throws(
      () => expandPath('.venv/bin/python', 'oracular.python', { home }),
      /relative path \(\.venv\/bin\/python\)/,
    );
  });

  it('names an unknown variable', () => {
    assert.throws(() => expandPath('${env:HOME}/x', 'oracular.python', inputs), /unknown variable/);
    assert.throws(() => expandPath('${pythonPath}', 'oracular.python', inputs), /unknown variable \$\{pythonPath\}/);
  });
});
