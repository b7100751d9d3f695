/**
 * What the user is told when Oracular cannot start, with the buttons that fix it: the install
 * command to copy, the settings to change, the output to read. One place, so every failure path
 * reads alike and none of them fails silently.
 */

import * as vscode from 'vscode';

import { Launch } from './interpreter';
import { installCommand } from './serverCommand';

const COPY = 'Copy Install Command';
const SETTINGS = 'Open Settings';
const OUTPUT = 'Show Output';

export async function showLaunchProblem(launch: Launch, message: string, output: vscode.OutputChannel): Promise<void> {
  const buttons = launch.kind === 'python' ? [COPY, SETTINGS, OUTPUT] : [SETTINGS, OUTPUT];
  await handle(await vscode.window.showErrorMessage(message, ...buttons), installCommand(launch), output);
}

export async function showError(message: string, output: vscode.OutputChannel): Promise<void> {
  await handle(await vscode.window.showErrorMessage(message, SETTINGS, OUTPUT), undefined, output);
}

async function handle(
  choice: string | undefined,
  install: string | undefined,
  output: vscode.OutputChannel,
): Promise<void> {
  if (choice === COPY && install !== undefined) {
    await vscode.env.clipboard.writeText(install);
  } else if (choice === SETTINGS) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'oracular');
  } else if (choice === OUTPUT) {
    output.show(true);
  }
}
