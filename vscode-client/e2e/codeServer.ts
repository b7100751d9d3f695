/**
 * One code-server for the test: the packaged extension installed into fresh user-data and
 * extension folders, HOME and TMPDIR inside the test's temporary folder, listening on 127.0.0.1
 * only, and stopped with its whole process group (the extension host and Oracular's server are
 * its children).
 */

import { ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

export interface CodeServer {
  readonly url: string;
  readonly userDataDir: string;
  /** code-server's process group: it, the extension host and the language servers it starts. */
  readonly processGroup: number;
  stop(): Promise<void>;
}

export interface CodeServerOptions {
  readonly executable: string;
  readonly root: string;
  readonly vsix: string;
  /** The user settings.json, written before start. */
  readonly settings: Record<string, unknown>;
  readonly log: string;
}

const START_TIMEOUT_MS = 60_000;

function folders(root: string): { home: string; tmp: string; userData: string; extensions: string } {
  return {
    home: path.join(root, 'home'),
    tmp: path.join(root, 'tmp'),
    userData: path.join(root, 'user-data'),
    extensions: path.join(root, 'extensions'),
  };
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const dirs = folders(options.root);
  for (const dir of Object.values(dirs)) {
    fs.mkdirSync(dir, { recursive: true });
  }
  fs.mkdirSync(path.join(dirs.userData, 'User'), { recursive: true });
  writeSettings(dirs.userData, options.settings);
  const env = {
    ...process.env,
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    XDG_DATA_HOME: path.join(dirs.home, '.local', 'share'),
    // The oracles this test expects (assertThrows for testPopOnEmptyStack...) are the documented
    // baseline's; the shipped model is tested end to end in tests/models/test_shipped.py.
    ORACULAR_RANKER: 'baseline',
  };
  const common = ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];

  await run(options.executable, [...common, '--install-extension', options.vsix], env, options.log);

  const port = await freePort();
  const log = fs.openSync(options.log, 'a');
  const child = spawn(
    options.executable,
    [
      ...common,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      // Workspace Trust stays on: the folder opens untrusted (restricted mode, see the settings in
      // extension.e2e.test.ts) and the test grants trust itself.
      '--disable-getting-started-override',
      '--bind-addr',
      `127.0.0.1:${port}`,
    ],
    { env, detached: true, stdio: ['ignore', log, log] },
  );
  fs.closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopGroup(child);
  try {
    await waitForHealth(url, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, userDataDir: dirs.userData, processGroup: child.pid as number, stop };
}

/** The command lines of the live processes in `group` (Linux: read from /proc). */
export function processesInGroup(group: number): Map<number, string[]> {
  const result = new Map<number, string[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      // Fields after the command name, which is in parentheses and may contain spaces.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] is the state ('Z': a zombie, already dead), fields[2] the process group.
      if (Number(fields[2]) === group && fields[0] !== 'Z') {
        result.set(Number(entry), fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean));
      }
    } catch {
      // the process ended while we looked
    }
  }
  return result;
}

function writeSettings(userDataDir: string, settings: Record<string, unknown>): void {
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, timeout: 120_000 }, (error, stdout, stderr) => {
      fs.appendFileSync(log, `$ ${command} ${args.join(' ')}\n${stdout}${stderr}`);
      if (error !== null) {
        reject(new Error(`${path.basename(command)} ${args.join(' ')} failed: ${stderr || error.message}`));
      } else {
        resolve();
      }
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`code-server exited with ${child.exitCode} before it was ready (see its log)`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`code-server did not answer on ${url} within ${START_TIMEOUT_MS / 1000} s`);
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child.pid as number, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
  // The leader is gone; anything left in its group (the extension host, Oracular) goes too.
  signalGroup(child.pid, 'SIGKILL');
  const deadline = Date.now() + 5_000;
  while (processesInGroup(child.pid).size > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already empty
  }
}
