/**
 * Drives the VS Code workbench in the page the way a person does: keyboard shortcuts, the quick
 * open and go-to-line boxes, the quick fix menu, the hover. Selectors are VS Code's own DOM
 * classes (stable across the 1.100 line this extension targets).
 */

import { Locator, Page } from 'playwright-core';

export const EDITOR = '.editor-instance .monaco-editor';

export class Workbench {
  constructor(readonly page: Page) {}

  async open(url: string, folder: string): Promise<void> {
    await this.page.goto(`${url}/?folder=${encodeURIComponent(folder)}`);
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The explorer shows the folder once the remote file system is up.
    await this.page.locator('.explorer-folders-view').waitFor({ timeout: 60_000 });
  }

  /** Quick Open (Ctrl+P) a file by name, as a person would, and wait for its editor. */
  async openFile(name: string, expectText: string): Promise<void> {
    await this.quickInput('Control+P', name);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator(`${EDITOR} .view-lines`, { hasText: expectText }).waitFor({ timeout: 30_000 });
    await this.focusEditor();
  }

  async focusEditor(): Promise<void> {
    await this.page
      .locator(`${EDITOR} .view-lines`)
      .first()
      .click({ position: { x: 400, y: 5 } });
  }

  /** Put the cursor at a 1-based line and column through Go to Line (Ctrl+G). */
  async goTo(line: number, column: number): Promise<void> {
    await this.quickInput('Control+G', `:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /** Runs a command from the palette by its exact title (the palette also lists near matches). */
  async command(title: string): Promise<void> {
    await this.quickInput('F1', `>${title}`);
    const focused = this.page.locator('.quick-input-list .monaco-list-row.focused .label-name');
    await focused.waitFor();
    for (let step = 0; step < 20; step += 1) {
      if ((await focused.innerText()).trim() === title) {
        await this.page.keyboard.press('Enter');
        // The palette closes, or gives way to a quick pick of the command's own.
        await this.page.waitForFunction((typed) => {
          const widget = document.querySelector<HTMLElement>('.quick-input-widget');
          const input = document.querySelector<HTMLInputElement>('.quick-input-widget input');
          return widget === null || widget.style.display === 'none' || input?.value !== typed;
        }, `>${title}`);
        return;
      }
      await this.page.keyboard.press('ArrowDown');
    }
    throw new Error(`no command titled ${title} in the palette`);
  }

  /** Opens a quick input box (Quick Open, Go to Line, the palette) with `key` and types `text`. */
  private async quickInput(key: string, text: string): Promise<void> {
    await this.page.keyboard.press(key);
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(text);
  }

  /**
   * Changes a setting through the Settings editor, as a person would, then closes it.
   * (VS Code does not notice a settings.json rewritten behind its back quickly enough to rely on.)
   */
  async setSetting(id: string, value: string, target: 'User' | 'Remote' = 'User'): Promise<void> {
    await this.command('Preferences: Open User Settings');
    const search = this.page.locator('.settings-editor .search-container .monaco-editor textarea').first();
    await search.waitFor();
    if (target === 'Remote') {
      // Machine-scoped settings (like a path to an interpreter) are listed under the Remote tab.
      await this.page.locator('.settings-editor .settings-tabs-widget .action-label', { hasText: /^Remote/ }).click();
      await search.focus();
    }
    await this.page.keyboard.press('Control+A');
    await this.page.keyboard.type(id);
    // Each setting's control is labelled with the setting's id.
    const control = this.page
      .locator(`.settings-editor select[aria-label="${id}"], .settings-editor input[aria-label="${id}"]`)
      .first();
    await control.waitFor();
    if ((await control.evaluate((element) => element.tagName)) === 'SELECT') {
      await control.selectOption(value);
    } else {
      await control.fill(value);
      await this.page.keyboard.press('Tab');
    }
    // The Settings editor writes after a short debounce; wait for settings.json to be saved.
    await this.page.waitForTimeout(1_000);
    await this.command('View: Close Editor');
    await this.page.locator('.settings-editor').waitFor({ state: 'hidden' });
  }

  /** Opens the Problems panel (View: Focus Problems), where every diagnostic of the file is a row. */
  async showProblems(): Promise<void> {
    await this.command('View: Focus Problems (Errors, Warnings, Infos)');
    await this.page.locator('.markers-panel').waitFor();
  }

  /**
   * Rows of the Problems panel from Oracular's missing-oracle diagnostics with one severity.
   * Each row's label reads "Info: <message> at line L and character C. generated by oracular".
   */
  missingOracleProblems(severity: 'Info' | 'Warning'): Locator {
    return this.page.locator(
      `.markers-panel .monaco-list-row[aria-label^="${severity}: "][aria-label*=" has no oracle "][aria-label$="generated by oracular"]`,
    );
  }

  /** Waits until the Problems panel lists `count` missing-oracle diagnostics, of any severity. */
  async waitForMissingOracles(count: number, timeout = 30_000): Promise<void> {
    await this.page.waitForFunction(
      (expected) =>
        document.querySelectorAll('.markers-panel .monaco-list-row[aria-label*=" has no oracle "]').length === expected,
      count,
      { timeout },
    );
  }

  /** The rendered text of the editor line that contains `text` (inlay hints included). */
  viewLine(text: string): Locator {
    return this.page.locator(`${EDITOR} .view-line`, { hasText: text });
  }

  statusItem(text: string): Locator {
    return this.page.locator('.statusbar-item', { hasText: text });
  }

  hover(): Locator {
    return this.page.locator('.monaco-hover:not(.hidden)');
  }

  /** The rows of the open code action (quick fix) menu. */
  actionRows(): Locator {
    return this.page.locator('.action-widget .monaco-list-row.action');
  }

  /**
   * Applies the row of the open code action menu labelled `label`, with the keyboard: the menu
   * blocks pointer events for a moment after it opens, and keys are what people use here anyway.
   */
  async applyAction(label: string): Promise<void> {
    const focused = this.page.locator('.action-widget .monaco-list-row.action.focused');
    for (let step = 0; step < 50; step += 1) {
      if ((await focused.getAttribute('aria-label')) === label) {
        await this.page.keyboard.press('Enter');
        await this.page.locator('.action-widget').waitFor({ state: 'hidden' });
        return;
      }
      await this.page.keyboard.press('ArrowDown');
    }
    throw new Error(`no action labelled ${label} in the menu`);
  }

  notification(text: string): Locator {
    return this.page.locator('.notification-toast', { hasText: text });
  }

  async screenshot(file: string): Promise<void> {
    await this.page.screenshot({ path: file });
  }
}
