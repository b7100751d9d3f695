import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { LAUNCH_SETTINGS, SECTION, SERVER_KEYS, SettingError, launchSettings, serverSection } from '../src/settings';

type Property = Record<string, unknown>;

const root = path.resolve(__dirname, '..', '..');
const read = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(root, name), 'utf8'));
const properties = (
  read('package.json') as { contributes: { configuration: { properties: Record<string, Property> } } }
).contributes.configuration.properties;
/**
 * The server's settings as it exports them (server/oracular/lsp/settings.py, one definition of each);
 * tests/lsp/test_settings_schema.py keeps this file current.
 */
const schema = read('settings.schema.json') as { properties: Record<string, Property> };
const REGENERATE = 'run `python -m oracular.lsp.settings_schema --write vscode-client`';

describe('the contributed settings', () => {
  it("are the server's settings as its schema states them: types, defaults, values, quality checks, descriptions", () => {
    for (const [key, setting] of Object.entries(schema.properties)) {
      const property = properties[`${SECTION}.${key}`];
      assert.ok(property, `package.json does not contribute ${SECTION}.${key}: ${REGENERATE}`);
      assert.deepEqual(property, setting, `${SECTION}.${key} differs from settings.schema.json: ${REGENERATE}`);
    }
  });

  it('are sent to the server: the extension knows every key of its section', () => {
    assert.deepEqual([...SERVER_KEYS].sort(), Object.keys(schema.properties).sort());
  });

  it('also contribute the launch settings and the LSP trace, which stay on the client, and nothing else', () => {
    for (const key of [...LAUNCH_SETTINGS, 'trace.server']) {
      assert.ok(properties[`${SECTION}.${key}`], `package.json does not contribute ${SECTION}.${key}`);
    }
    const contributed = Object.keys(properties).map((key) => key.slice(SECTION.length + 1));
    const known = new Set<string>([...Object.keys(schema.properties), ...LAUNCH_SETTINGS, 'trace.server']);
    assert.deepEqual(
      contributed.filter((key) => !known.has(key)),
      [],
      `settings the server does not have (remove them from package.json)`,
    );
  });
});

describe('serverSection', () => {
  it("keeps the server's keys and drops the extension's own", () => {
    const section = {
      topK: 3,
      device: 'cpu',
      extraAssertionMethods: ['checkAll'],
      server: { path: '/x/oracular' },
      python: '/usr/bin/python3',
      trace: { server: 'verbose' },
      onSave: null,
    };
    assert.deepEqual(serverSection(section), { topK: 3, device: 'cpu', extraAssertionMethods: ['checkAll'] });
  });

  it('passes invalid values through for the server to report', () => {
    assert.deepEqual(serverSection({ topK: 'many' }), { topK: 'many' });
  });

  it('returns null for anything that is not a section', () => {
    assert.equal(serverSection(null), null);
    assert.equal(serverSection([1]), null);
    assert.equal(serverSection('oracular'), null);
  });
});

describe('launchSettings', () => {
  it('treats empty and blank strings as unset', () => {
    assert.deepEqual(launchSettings('', '  '), { serverPath: undefined, python: undefined });
    assert.deepEqual(launchSettings(undefined, null), { serverPath: undefined, python: undefined });
  });

  it('trims paths', () => {
    assert.deepEqual(launchSettings(' /a/oracular ', '/b/python\n'), {
      serverPath: '/a/oracular',
      python: '/b/python',
    });
  });

  it('rejects a value of the wrong type instead of silently starting another Oracular', () => {
    assert.throws(
      () => launchSettings(42, undefined),
      (e: unknown) => e instanceof SettingError && /oracular\.server\.path must be a path/.test(e.message),
    );
    assert.throws(
      () => launchSettings(undefined, ['python3']),
      /oracular\.python must be a path \(a string\), got \["python3"\]/,
    );
  });
});
