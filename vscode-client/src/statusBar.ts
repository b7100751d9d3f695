/**
 * The status bar item: the text, tooltip and colour that {@link statusView} computes, kept in
 * step with the {@link StatusModel}. Clicking it shows the server's output.
 */

import * as vscode from 'vscode';

import { StatusModel, statusView } from './status';

export const SHOW_OUTPUT_COMMAND = 'oracular.showOutput';

export function createStatusBarItem(status: StatusModel): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem('oracular.status', vscode.StatusBarAlignment.Left, 0);
  item.name = 'Oracular';
  item.command = SHOW_OUTPUT_COMMAND;
  status.onChange((snapshot) => {
    const view = statusView(snapshot);
    item.text = view.text;
    item.tooltip = view.tooltip;
    item.backgroundColor = view.alarm ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  });
  item.show();
  return item;
}
