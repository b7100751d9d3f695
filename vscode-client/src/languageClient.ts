/**
 * The `vscode-languageclient` client for one run of `oracular serve`.
 *
 * The workspace's trust goes in the `initialize` request (see trust.ts). Two middlewares adapt the
 * generic client to Oracular: settings requests are answered with the
 * server's keys only (the extension's own `oracular.server.path`, `oracular.python` and
 * `oracular.trace` would otherwise reach the server as "unknown setting" warnings), and
 * `$/progress` is mirrored into the status bar before VS Code's own progress UI gets it.
 */

import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
} from 'vscode-languageclient/node';

import { CommandLine } from './serverCommand';
import { SECTION, serverSection } from './settings';
import { ProgressValue, StatusModel } from './status';
import { initializationOptions } from './trust';

const CLIENT_ID = 'oracular';
const CLIENT_NAME = 'Oracular';

/** Java files on disk and unsaved Java buffers; the server itself decides which ones are tests. */
const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'java' },
  { scheme: 'untitled', language: 'java' },
];

export function createLanguageClient(
  line: CommandLine,
  output: vscode.OutputChannel,
  status: StatusModel,
): LanguageClient {
  const serverOptions: ServerOptions = {
    command: line.command,
    args: [...line.args],
    // No `transport`: an executable without one is spoken to over its stdin and stdout, which is
    // `oracular serve`'s default (older servers reject the `--stdio` a transport would append).
    // Unbuffered stderr: the server's log reaches the output channel as it is written.
    options: { env: { ...process.env, PYTHONUNBUFFERED: '1' } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
    // Problems are reported through the status bar and our own notifications, not by popping
    // the output open on every server log line.
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    // Read at every (re)start: the server runs the project's code only in a trusted workspace.
    initializationOptions: () => initializationOptions(vscode.workspace.isTrusted),
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const answer = await next(params, token);
          if (!Array.isArray(answer)) {
            return answer;
          }
          return answer.map((value: unknown, index) =>
            params.items[index]?.section === SECTION ? serverSection(value) : value,
          );
        },
      },
      handleWorkDoneProgress: (token, params, next) => {
        status.progress(token, params as ProgressValue);
        next(token, params);
      },
    },
  };
  return new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
}
