import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
  LAUNCH_SETTINGS,
  SECTION,
  SERVER_SETTINGS,
  SettingError,
  launchSettings,
  serverSection,
} from '../src/settings';

const root = path.resolve(__dirname, '..', '..');
const repo = path.resolve(root, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: {
    configuration: {
      properties: Record<string, { default: unknown; markdownDescription?: string; description?: string }>;
    };
  };
};
const properties = manifest.contributes.configuration.properties;
/** Settings that are maps of overrides over the server's own defaults: their default is empty. */
const OVERRIDE_MAPS = new Set(['checks']);

/**
 * The defaults of the server's settings dataclasses, read from its source with Python's `ast`
 * (no import of Oracular, so this runs without the server's dependencies installed).
 */
const SERVER_DEFAULTS = String.raw`
import ast, json, re, sys

def defaults(path, name):
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return {s.target.id: s.value for s in node.body if isinstance(s, ast.AnnAssign) and s.value is not None}
    sys.exit(f"{name} not found in {path}")

def value(node):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "frozenset" and not node.args:
        return []
    if isinstance(node, ast.Tuple) and not node.elts:
        return []
    if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "DiagnosticSeverity":
        return node.attr.lower()
    return None

def camel(name):
    return re.sub(r"_(\w)", lambda m: m.group(1).upper(), name)

server = sys.argv[1]
fields = {**defaults(server + "/engine.py", "EngineSettings"), **defaults(server + "/lsp/settings.py", "ServerSettings")}
print(json.dumps({camel(k): value(v) for k, v in fields.items() if k != "engine"}))
`;

describe('the contributed settings', () => {
  it('cover every server setting with the default the server uses', () => {
    for (const setting of SERVER_SETTINGS) {
      const property = properties[`${SECTION}.${setting.key}`];
      assert.ok(property, `package.json does not contribute ${SECTION}.${setting.key}`);
      assert.deepEqual(property.default, setting.default, `${setting.key}'s default`);
      assert.ok(
        (property.markdownDescription ?? property.description ?? '').length > 20,
        `${setting.key} needs a description`,
      );
    }
  });

  it('match the server: the same keys and defaults as server/oracular/lsp/settings.py', () => {
    const source = fs.readFileSync(path.join(repo, 'server', 'oracular', 'lsp', 'settings.py'), 'utf8');
    const block = /_FIELDS[^=]*= \{([\s\S]*?)\n\}/.exec(source);
    assert.ok(block, 'no _FIELDS table in settings.py');
    const serverKeys = [...block[1].matchAll(/^ {4}"(\w+)": \(/gm)].map((m) => m[1]);
    assert.deepEqual([...serverKeys].sort(), SERVER_SETTINGS.map((s) => s.key).sort());

    const defaults = JSON.parse(
      execFileSync('python3', ['-c', SERVER_DEFAULTS, path.join(repo, 'server', 'oracular')], { encoding: 'utf8' }),
    ) as Record<string, unknown>;
    for (const setting of SERVER_SETTINGS.filter((s) => !OVERRIDE_MAPS.has(s.key))) {
      assert.ok(setting.key in defaults, `the server has no default for ${setting.key}`);
      assert.deepEqual(
        setting.default,
        defaults[setting.key],
        `${setting.key}: the extension's default differs from the server's`,
      );
    }
  });

  it('offer exactly the quality checks the server runs, and override none of them by default', () => {
    assert.deepEqual(SERVER_SETTINGS.find((s) => s.key === 'checks')?.default, {});
    // Every module of server/oracular/quality with a CODE is a check the runner runs (its CHECKS
    // lists them, per test or per file; tests/quality checks that side).
    const quality = path.join(repo, 'server', 'oracular', 'quality');
    const codes = fs
      .readdirSync(quality)
      .filter((name) => name.endsWith('.py'))
      .map((name) => /^CODE = "([\w-]+)"$/m.exec(fs.readFileSync(path.join(quality, name), 'utf8')))
      .filter((code): code is RegExpExecArray => code !== null)
      .map((code) => code[1]);
    assert.ok(codes.length > 0, `no module with a CODE in ${quality}`);
    const checks = properties[`${SECTION}.checks`] as unknown as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(checks.properties).sort(), codes.sort());
  });

  it('also contribute the launch settings and the LSP trace, which stay on the client', () => {
    for (const key of [...LAUNCH_SETTINGS, 'trace.server']) {
      assert.ok(properties[`${SECTION}.${key}`], `package.json does not contribute ${SECTION}.${key}`);
    }
    const contributed = Object.keys(properties).map((key) => key.slice(SECTION.length + 1));
    const known = new Set<string>([...SERVER_SETTINGS.map((s) => s.key), ...LAUNCH_SETTINGS, 'trace.server']);
    assert.deepEqual(
      contributed.filter((key) => !known.has(key)),
      [],
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
