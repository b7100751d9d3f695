import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
  RESTRICTED_SETTINGS,
  TRUSTED_OPTION,
  TRUST_NOTIFICATION,
  initializationOptions,
  trustParams,
} from '../src/trust';

const root = path.resolve(__dirname, '..', '..');
/** What the server exports beside its settings (server/oracular/lsp/execution_policy.py). */
const exported = JSON.parse(fs.readFileSync(path.join(root, 'settings.schema.json'), 'utf8')) as {
  'x-workspaceTrust': { initializationOption: string; notification: string };
};
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  capabilities?: { untrustedWorkspaces?: { supported: unknown; restrictedConfigurations?: unknown } };
  contributes: { configuration: { properties: Record<string, { default: unknown; enum?: unknown[] }> } };
};

describe('workspace trust', () => {
  it("speaks the server's protocol: the same option and notification names", () => {
    assert.equal(TRUSTED_OPTION, exported['x-workspaceTrust'].initializationOption);
    assert.equal(TRUST_NOTIFICATION, exported['x-workspaceTrust'].notification);
    assert.deepEqual(initializationOptions(true), { workspaceTrusted: true });
    assert.deepEqual(initializationOptions(false), { workspaceTrusted: false });
    assert.deepEqual(trustParams(true), { trusted: true });
  });

  it('declares limited support in untrusted workspaces, restricting the settings that run code', () => {
    assert.deepEqual(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited');
    assert.deepEqual(manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations, [...RESTRICTED_SETTINGS]);
    for (const key of RESTRICTED_SETTINGS) {
      assert.ok(manifest.contributes.configuration.properties[key], `${key} is not contributed`);
    }
  });

  it('offers checkOracles as "auto" (the default), true or false', () => {
    const checkOracles = manifest.contributes.configuration.properties['oracular.checkOracles'];
    assert.equal(checkOracles.default, 'auto');
    assert.deepEqual(checkOracles.enum, ['auto', true, false]);
  });
});
