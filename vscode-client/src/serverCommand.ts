/**
 * Command lines for a {@link Launch}: the language server itself, the probe that checks Oracular
 * is installed before the server is started, and the install command shown when it is not.
 * Pure: building a command line is kept apart from running it.
 */

import { Launch } from './interpreter';

export interface CommandLine {
  readonly command: string;
  readonly args: readonly string[];
}

/** `oracular serve` over stdio: stdout carries only LSP, the server's log goes to stderr. */
export function serverCommand(launch: Launch): CommandLine {
  return launch.kind === 'server'
    ? { command: launch.executable, args: ['serve'] }
    : { command: launch.executable, args: ['-m', 'oracular', 'serve'] };
}

/** The exit code of {@link PROBE_SCRIPT} when Oracular cannot be imported. */
export const PROBE_NOT_INSTALLED = 3;
/** The exit code of {@link PROBE_SCRIPT} when the Python is older than Oracular needs. */
export const PROBE_TOO_OLD = 4;
export const MIN_PYTHON: readonly [number, number] = [3, 11];

/**
 * Run by the chosen Python: one line, `<python version> <oracular version>`, on success.
 *
 * Importing the package alone is cheap (tens of milliseconds), unlike starting the server, so a
 * missing install is told apart from a server that crashes with one clear message.
 */
export const PROBE_SCRIPT = [
  'import sys',
  `if sys.version_info < (${MIN_PYTHON[0]}, ${MIN_PYTHON[1]}):`,
  `    print("%d.%d" % sys.version_info[:2]); sys.exit(${PROBE_TOO_OLD})`,
  'try:',
  '    import oracular',
  'except ImportError as exc:',
  `    print(exc); sys.exit(${PROBE_NOT_INSTALLED})`,
  'print("%d.%d.%d" % sys.version_info[:3], oracular.__version__)',
].join('\n');

/** The command that tells whether the launch can run Oracular at all. */
export function probeCommand(launch: Launch): CommandLine {
  return launch.kind === 'server'
    ? { command: launch.executable, args: ['--version'] }
    : { command: launch.executable, args: ['-c', PROBE_SCRIPT] };
}

/** What to run to install Oracular into the launch's Python (Oracular installs from its checkout). */
export function installCommand(launch: Launch): string {
  if (launch.kind === 'server') {
    return 'python3 -m venv .venv && .venv/bin/pip install -e <path to your Oracular checkout>';
  }
  return `${shellQuote(launch.executable)} -m pip install -e <path to your Oracular checkout>`;
}

/** The command line as a person would type it, for messages and logs. */
export function display(line: CommandLine): string {
  return [line.command, ...line.args].map(shellQuote).join(' ');
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
