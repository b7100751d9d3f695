/**
 * The packaged extension in a real VS Code: code-server 4.100.3 (VS Code 1.100.3) driven through
 * Debian's Chromium by playwright-core, on a copy of the bundled example project.
 *
 * It does what a person does: opens StackTest.java, waits for the missing-oracle diagnostics and
 * the status bar's "ready", reads an inlay hint and a hover, applies the first "Add oracle:" quick
 * fix, saves, and checks the file on disk. Then it changes a server setting (no restart) and points
 * the extension at a Python without Oracular (a clear notification). Screenshots, the logs and the
 * timings go to e2e-artifacts/ (or $ORACULAR_E2E_ARTIFACTS).
 *
 * Steps share one workbench and run in order (`bail`): each needs the one before it.
 */

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';

import { CodeServer, processesInGroup, startCodeServer } from './codeServer';
import { EXAMPLE, Environment, environment } from './environment';
import { Workbench } from './workbench';

const TEST_FILE = path.join('src', 'test', 'java', 'org', 'example', 'stack', 'StackTest.java');
const COUNTER_FILE = path.join('src', 'test', 'java', 'org', 'example', 'stack', 'BoundedCounterTest.java');
/** The oracle-free tests of StackTest.java: each gets one missing-oracle diagnostic. */
const ORACLE_FREE_TESTS = 6;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Quiet, predictable workbench: nothing may cover the editor or ask a question. */
function userSettings(python: string): Record<string, unknown> {
  return {
    'oracular.python': python,
    // The baseline ranker (see codeServer.ts) needs no GPU; `auto` would import torch to find that out.
    'oracular.device': 'cpu',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'extensions.ignoreRecommendations': true,
    'extensions.autoCheckUpdates': false,
    'update.mode': 'none',
    'telemetry.telemetryLevel': 'off',
    // Workspace Trust on, without its start-up dialog: the folder opens untrusted (restricted
    // mode), so `checkOracles: auto` keeps the checks off until the test trusts it.
    'security.workspace.trust.enabled': true,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.banner': 'never',
    'editor.inlayHints.enabled': 'on',
    'editor.minimap.enabled': false,
    'editor.hover.delay': 300,
    'files.autoSave': 'off',
    'chat.commandCenter.enabled': false,
    'window.commandCenter': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  };
}

/** Polls `probe` until it returns a value; on time-out fails with what `explain` says. */
async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  explain: () => Promise<string>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      assert.fail(await explain());
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Collapses whitespace, the non-breaking spaces of VS Code's rendered lines included. */
function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

describe('Oracular in VS Code (code-server + Chromium)', function () {
  const timings: Array<[string, number]> = [];
  const started = Date.now();
  let env: Environment;
  let root: string;
  let workspace: string;
  let testFile: string;
  let original: string;
  let codeServer: CodeServer | undefined;
  let browser: BrowserContext | undefined;
  let bench: Workbench;
  let lastMark = Date.now();
  let failed = 0;
  let passed = 0;

  function mark(step: string): void {
    const now = Date.now();
    timings.push([step, (now - lastMark) / 1000]);
    lastMark = now;
  }

  async function shot(name: string): Promise<void> {
    await bench.screenshot(path.join(env.artifacts, `${name}.png`));
  }

  before(async function () {
    env = environment();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'oracular-e2e-'));
    workspace = path.join(root, 'workspace', 'stack');
    fs.cpSync(EXAMPLE, workspace, { recursive: true });
    testFile = path.join(workspace, TEST_FILE);
    original = fs.readFileSync(testFile, 'utf8');
    mark('set-up (find code-server, Chromium, copy the example)');
    codeServer = await startCodeServer({
      executable: env.codeServer,
      root,
      vsix: env.vsix,
      settings: userSettings(env.python),
      log: path.join(env.artifacts, 'code-server.log'),
    });
    mark('install the .vsix, start code-server');
    browser = await chromium.launchPersistentContext(path.join(root, 'chromium-profile'), {
      executablePath: env.chromium,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 860 },
    });
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(30_000);
    bench = new Workbench(page);
    await bench.open(codeServer.url, workspace);
    mark('open the workbench in Chromium');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'passed') {
      passed += 1;
    } else if (this.currentTest?.state === 'failed') {
      failed += 1;
      if (browser !== undefined) {
        await shot('failure').catch(() => undefined);
      }
    }
  });

  after(async function () {
    await browser?.close().catch(() => undefined);
    await codeServer?.stop();
    const leftovers = codeServer !== undefined ? processesInGroup(codeServer.processGroup) : new Map();
    if (codeServer !== undefined) {
      copyLogs(codeServer.userDataDir, env.artifacts);
    }
    mark('stop Chromium and code-server');
    if (root !== undefined && process.env.ORACULAR_E2E_KEEP === undefined) {
      fs.rmSync(root, { recursive: true, force: true });
    }
    const total = (Date.now() - started) / 1000;
    const lines = [
      ...timings.map(([step, s]) => `${s.toFixed(1).padStart(6)} s  ${step}`),
      `${total.toFixed(1).padStart(6)} s  total`,
    ];
    if (env !== undefined) {
      fs.writeFileSync(
        path.join(env.artifacts, 'timings.json'),
        JSON.stringify({ steps: Object.fromEntries(timings), total }, null, 2),
      );
      console.log(`\n  Timings (artefacts in ${env.artifacts}):\n${lines.map((l) => `    ${l}`).join('\n')}`);
    }
    // The plain closing line CI reads (mocha's own summary follows).
    // A step that never ran (a failed set-up, or `bail` after a failure) counts as failed.
    const steps = this.test?.parent?.tests.length ?? passed + failed;
    console.log(`\ne2e: ${passed} passed, ${Math.max(failed, steps - passed)} failed`);
    assert.equal(leftovers.size, 0, `processes left behind: ${JSON.stringify([...leftovers.values()])}`);
  });

  it('shows a missing-oracle diagnostic on each oracle-free test, and "ready" with the device', async function () {
    await bench.openFile('StackTest.java', 'class StackTest');
    // Ready, or an error: then fail at once with what the extension logged.
    await Promise.race([
      bench.statusItem('Oracular (cpu)').waitFor({ timeout: 90_000 }),
      bench
        .statusItem('Oracular')
        .locator('.codicon-error')
        .waitFor({ timeout: 90_000 })
        .then(() => {
          throw new Error(
            `the status bar shows an error; the Oracular output:\n${readOutputLogs((codeServer as CodeServer).userDataDir)}`,
          );
        }),
    ]);
    mark('open StackTest.java: status "ready (cpu)"');
    await bench.showProblems();
    await bench
      .missingOracleProblems('Info')
      .nth(ORACLE_FREE_TESTS - 1)
      .waitFor({ timeout: 60_000 });
    assert.equal(await bench.missingOracleProblems('Info').count(), ORACLE_FREE_TESTS);
    // ranked: not the first look at the file nor the set shown while the model loads
    const ranked = bench
      .missingOracleProblems('Info')
      .filter({ hasText: 'testPushPopIsEmpty' })
      .filter({ hasText: 'suggested:' });
    await ranked.waitFor({ timeout: 60_000 });
    const label = await ranked.getAttribute('aria-label');
    assert.match(
      label ?? '',
      /^Info: testPushPopIsEmpty has no oracle \(focal method Stack\.isEmpty\); suggested: .+ at line 15 and character 10\. generated by oracular$/,
    );
    await shot('01-diagnostics');
    mark('missing-oracle diagnostics in the Problems panel');
    assert.match(
      readOutputLogs((codeServer as CodeServer).userDataDir),
      /oracle checks are off: the client has not said that the workspace is trusted/,
    );
    await bench.command('View: Hide Panel');
    await bench.focusEditor();
  });

  it('shows the top oracle as an inlay hint after the last statement', async function () {
    // The hint is rendered inline after the statement (VS Code's injected text), so the line's
    // rendered text is the statement followed by the oracle.
    const line = bench.viewLine('s.isEmpty();');
    const rendered = await eventually(
      async () => {
        const text = normalise(await line.innerText());
        return /boolean empty = s\.isEmpty\(\);\s*assert\w+\(empty\);/.test(text) ? text : undefined;
      },
      30_000,
      async () => `the line renders as: ${normalise(await line.innerText())}`,
    );
    assert.ok(!original.includes(rendered.replace(/^.*isEmpty\(\);\s*/, '')), 'the hint is not in the file itself');
    await shot('02-inlay-hint');
    mark('inlay hint');
  });

  it("shows the ranked oracles on hover over a test's name", async function () {
    await bench.goTo(lineOf(testFile, 'void testPopOnEmptyStack'), 12);
    await bench.page.keyboard.press('Control+K');
    await bench.page.keyboard.press('Control+I');
    // The diagnostic's part of the hover can show before the server's part: wait for the latter.
    const hover = bench.hover().filter({ hasText: 'testPopOnEmptyStack has no oracle (Oracular)' });
    await hover.waitFor();
    const text = normalise(await hover.innerText());
    assert.match(text, /testPopOnEmptyStack has no oracle \(Oracular\)/);
    assert.match(text, /Focal method Stack\.pop/);
    assert.match(text, /Top \d+ oracles/);
    assert.match(text, /assertThrows\(EmptyStackException\.class/);
    // Markdown is rendered, not shown as source.
    assert.ok(!text.includes('**'), `the hover shows raw Markdown: ${text}`);
    await shot('03-hover');
    await bench.page.keyboard.press('Escape');
    mark('hover');
  });

  let applied = '';

  it('applies the first "Add oracle:" quick fix', async function () {
    await bench.goTo(lineOf(testFile, 'void testPushPopIsEmpty'), 12);
    await bench.page.keyboard.press('Control+.');
    const first = bench.actionRows().filter({ hasText: 'Add oracle: ' }).first();
    await first.waitFor();
    const title = (await first.getAttribute('aria-label')) ?? '';
    applied = title.replace(/^Add oracle: /, '');
    assert.ok(
      title.startsWith('Add oracle: ') && applied.length > 0 && !original.includes(applied),
      `unexpected first action: ${title}`,
    );
    await shot('04-quick-fix');
    await bench.applyAction(title);
    await bench.viewLine(applied).waitFor();
    mark('quick fix');
  });

  it('saves the oracle to disk, and the diagnostic goes away', async function () {
    // From the palette: a Ctrl+S pressed while the code action menu is still closing can be lost.
    await bench.command('File: Save');
    const saved = await eventually(
      async () => {
        const text = fs.readFileSync(testFile, 'utf8');
        return text !== original ? text : undefined;
      },
      15_000,
      async () => 'the file was not saved',
    );
    assert.ok(normalise(saved).includes(normalise(applied)), `the saved file lacks ${applied}:\n${saved}`);
    const body = saved.slice(saved.indexOf('void testPushPopIsEmpty'), saved.indexOf('void testPopOnEmptyStack'));
    assert.ok(normalise(body).includes(normalise(applied)), 'the oracle is not inside testPushPopIsEmpty');
    await bench.showProblems();
    await bench.waitForMissingOracles(ORACLE_FREE_TESTS - 1);
    assert.equal(await bench.missingOracleProblems('Info').filter({ hasText: 'testPushPopIsEmpty' }).count(), 0);
    await shot('05-saved');
    mark('save; file on disk has the oracle; diagnostics 6 -> 5');
  });

  it('passes a changed setting to the running server without a restart', async function () {
    const before = oracularServers(codeServer as CodeServer);
    assert.equal(before.length, 1, `expected one running Oracular server, found ${before.length}`);
    const launchesBefore = countLaunches(codeServer as CodeServer);
    await bench.setSetting('oracular.diagnosticSeverity', 'warning');
    await bench
      .missingOracleProblems('Warning')
      .nth(ORACLE_FREE_TESTS - 2)
      .waitFor({ timeout: 30_000 });
    assert.equal(await bench.missingOracleProblems('Info').count(), 0);
    assert.deepEqual(oracularServers(codeServer as CodeServer), before, 'the server process was replaced');
    assert.equal(countLaunches(codeServer as CodeServer), launchesBefore, 'the extension started the server again');
    mark('setting change reaches the server (information -> warning)');
  });

  it('"Oracular: Suggest oracles for this test" lists the ranked oracles and inserts the chosen one', async function () {
    await bench.goTo(lineOf(testFile, 'void testPopOnEmptyStack'), 12);
    await bench.command('Oracular: Suggest oracles for this test');
    const pick = bench.page.locator('.quick-input-widget');
    await pick
      .locator('.quick-input-title', { hasText: 'Oracles for testPopOnEmptyStack (focal Stack.pop;' })
      .waitFor();
    const first = pick.locator('.quick-input-list .monaco-list-row').first();
    await first.waitFor();
    const entry = normalise(await first.innerText());
    assert.match(
      entry,
      /^assertThrows\(EmptyStackException\.class, \(\) -> s\.pop\(\)\);\s*1\. score 0\.\d{3}, expects an exception$/,
    );
    await shot('07-suggest-command');
    await bench.page.keyboard.press('Enter');
    await pick.waitFor({ state: 'hidden' });
    await bench.viewLine('assertThrows(EmptyStackException.class').first().waitFor();
    await bench.waitForMissingOracles(ORACLE_FREE_TESTS - 2);
    mark('command "Suggest oracles for this test"');
  });

  it('"Oracular: Add top oracles to all tests in file" leaves no test without an oracle', async function () {
    await bench.command('Oracular: Add top oracles to all tests in file');
    await bench.waitForMissingOracles(0);
    await bench.command('File: Save');
    await eventually(
      async () =>
        /assertThrows\(EmptyStackException\.class/.test(fs.readFileSync(testFile, 'utf8')) &&
        !/● /.test(await bench.page.title())
          ? true
          : undefined,
      15_000,
      async () => 'the file was not saved',
    );
    // The CLI, reading the saved file, agrees: no test is left without an oracle.
    const scan = execFileSync(path.join(path.dirname(env.python), 'oracular'), ['scan', testFile], {
      encoding: 'utf8',
    });
    assert.equal(scan.trim(), '', `oracular scan still finds oracle-free tests:\n${scan}`);
    await shot('08-all-oracles');
    mark('command "Add top oracles to all tests in file"; save; oracular scan finds none');
  });

  it('tells the server when the user trusts the workspace, and the checks come on', async function () {
    const output = () => readOutputLogs((codeServer as CodeServer).userDataDir);
    assert.doesNotMatch(output(), /oracle checks are on/);
    await bench.command('Workspaces: Manage Workspace Trust');
    await bench.page.locator('.workspace-trust-editor').getByRole('button', { name: 'Trust', exact: true }).click();
    await eventually(
      async () =>
        /oracle checks are on: the workspace is trusted \(checkOracles: auto\)/.test(output()) ? true : undefined,
      30_000,
      async () => `the server never turned the checks on; the Oracular output:\n${output()}`,
    );
    assert.match(output(), /The workspace is now trusted: telling the server\./);
    await shot('09-trusted');
    await bench.command('View: Close Editor');
    mark('trust the workspace: the server turns the checks on');
  });

  it('shows what running the test observed in its quick fixes, now that checks may run', async function () {
    // StackTest.java has an oracle everywhere by now; BoundedCounterTest.java has none yet.
    await bench.openFile('BoundedCounterTest.java', 'class BoundedCounterTest');
    await bench.goTo(lineOf(path.join(workspace, COUNTER_FILE), 'int v = c.value();'), 12);
    const observed = await eventually(
      async () => {
        await bench.page.keyboard.press('Control+.');
        const row = bench.actionRows().filter({ hasText: 'holds now (observed)' }).first();
        const shown = await row
          .waitFor({ timeout: 3_000 })
          .then(() => row.getAttribute('aria-label'))
          .catch(() => null);
        await bench.page.keyboard.press('Escape');
        return shown ?? undefined;
      },
      120_000,
      async () => 'no quick fix says what running testValueAfterIncrement observed',
    );
    assert.match(observed, /^Add oracle: .+\); · holds now \(observed\)$/);
    await shot('10-observed');
    mark('trusted: the quick fixes show the values running the test observed');
  });

  it('tells the user how to install Oracular when the chosen Python lacks it', async function () {
    // A real Python that cannot see any installed package (-S: no site-packages, -I: no PYTHONPATH).
    const bare = path.join(root, 'python-without-oracular');
    fs.writeFileSync(bare, `#!/bin/sh\nexec python3 -I -S "$@"\n`, { mode: 0o755 });
    await bench.setSetting('oracular.python', bare, 'Remote');
    const toast = bench.notification(`Oracular is not installed for ${bare}`);
    await toast.waitFor({ timeout: 30_000 });
    const text = normalise(await toast.innerText());
    assert.match(
      text,
      new RegExp(`Install it with: ${bare.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} -m pip install -e`),
    );
    await toast.getByRole('button', { name: 'Copy Install Command' }).waitFor();
    await bench.statusItem('Oracular').locator('.codicon-error').waitFor();
    assert.deepEqual(oracularServers(codeServer as CodeServer), [], 'the previous server is still running');
    await shot('11-not-installed');
    mark('Python without Oracular: notification and error status');
  });
});

/** The 1-based line of the first line of `file` that contains `text`. */
function lineOf(file: string, text: string): number {
  const index = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text));
  assert.ok(index >= 0, `${text} is not in ${file}`);
  return index + 1;
}

/** The process ids of the `oracular serve` processes that code-server's extension host started. */
function oracularServers(server: CodeServer): number[] {
  return [...processesInGroup(server.processGroup)]
    .filter(([, argv]) => argv.includes('oracular') && argv[argv.length - 1] === 'serve')
    .map(([pid]) => pid);
}

/** How often the extension started a server, from its own output channel's log. */
function countLaunches(server: CodeServer): number {
  return readOutputLogs(server.userDataDir)
    .split('\n')
    .filter((line) => line.includes('Starting ')).length;
}

/** The files under code-server's log folder whose names match `name`. */
function logFiles(userDataDir: string, name: RegExp): string[] {
  const logs = path.join(userDataDir, 'logs');
  if (!fs.existsSync(logs)) {
    return [];
  }
  return (fs.readdirSync(logs, { recursive: true }) as string[])
    .filter((file) => name.test(file))
    .map((file) => path.join(logs, file));
}

/** The Oracular output channel, as the extension host logged it. */
function readOutputLogs(userDataDir: string): string {
  return logFiles(userDataDir, /Oracular\.log$/)
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
}

/** Keep the Oracular output channel and the extension host log with the screenshots. */
function copyLogs(userDataDir: string, artifacts: string): void {
  fs.writeFileSync(path.join(artifacts, 'oracular-output.log'), readOutputLogs(userDataDir));
  for (const file of logFiles(userDataDir, /exthost\.log$/)) {
    fs.copyFileSync(file, path.join(artifacts, 'exthost.log'));
  }
}
