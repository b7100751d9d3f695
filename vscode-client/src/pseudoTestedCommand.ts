/**
 * "Oracular: Find pseudo-tested methods": the server's `oracular.pseudoTested` on the test file in
 * the editor, behind a cancellable progress notification (cancelling cancels the request, and
 * the server stops its runs). The verdicts then show as code lenses above the methods, and the
 * killing oracles as quick fixes in the tests; the notification sums them up.
 */

import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';

import { parsePseudoTested, summary } from './pseudoTested';

/** The server's command (server/oracular/lsp/pseudo_tested.py). */
const SERVER_PSEUDO_TESTED = 'oracular.pseudoTested';

export async function findPseudoTested(client: LanguageClient, editor: vscode.TextEditor): Promise<void> {
  const uri = client.code2ProtocolConverter.asUri(editor.document.uri);
  const answer = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: 'Oracular: running extreme mutants',
      cancellable: true,
    },
    (_progress, token) =>
      client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_PSEUDO_TESTED, arguments: [uri] }, token),
  );
  void vscode.window.showInformationMessage(summary(parsePseudoTested(answer)));
}
