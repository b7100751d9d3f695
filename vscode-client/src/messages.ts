/**
 * The wording of what the user is told when Oracular cannot start. Pure, so that the messages
 * (which carry the install command and the setting to change) are tested as the user reads them.
 */

import { Launch, LaunchSource } from './interpreter';
import { ProbeResult } from './probe';
import { installCommand } from './serverCommand';

function describeSource(source: LaunchSource): string {
  switch (source) {
    case 'oracular.server.path':
      return 'set by oracular.server.path';
    case 'oracular.python':
      return 'set by oracular.python';
    case 'Python extension':
      return "the Python extension's interpreter";
    case 'default':
      return 'the default: python3 on the PATH';
  }
}

/** The message for a probe that failed: exported so that its wording is tested. */
export function launchProblemMessage(launch: Launch, result: Exclude<ProbeResult, { ok: true }>): string {
  const where = `${launch.executable} (${describeSource(launch.source)})`;
  switch (result.reason) {
    case 'not-installed':
      return `Oracular is not installed for ${where}. Install it with: ${installCommand(launch)} and run "Oracular: Restart server", or point oracular.python or oracular.server.path at an environment that has it.`;
    case 'not-found':
      return `Oracular cannot start: ${result.detail} (${describeSource(launch.source)}). Set oracular.python or oracular.server.path.`;
    case 'python-too-old':
      return `Oracular cannot start: ${result.detail}. Set oracular.python to a newer Python.`;
    case 'failed':
      return `Oracular cannot start with ${where}: ${result.detail}`;
  }
}
