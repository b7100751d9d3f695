/**
 * The server's state as the status bar shows it: starting, busy (indexing a project, loading the
 * ranker) with the server's own progress messages, ready, or failed; and the device the ranker
 * runs on. Pure: it is fed client state changes and `$/progress` notifications and says what to
 * display; statusBar.ts puts that on screen.
 */

export type Phase = 'stopped' | 'starting' | 'ready' | 'error';

export interface Status {
  readonly phase: Phase;
  /** The slow work in progress, newest last: "indexing stack: 12 Java files". */
  readonly activities: readonly string[];
  /** The ranker and the device it runs on, as the server last reported them. */
  readonly ranker?: string;
  readonly device?: string;
  readonly version?: string;
  /** How the server was launched: shown in the tooltip. */
  readonly launch?: string;
  readonly error?: string;
}

/** What the server sends in `$/progress` (the LSP work-done progress values). */
export type ProgressValue =
  | { readonly kind: 'begin'; readonly title: string; readonly message?: string; readonly percentage?: number }
  | { readonly kind: 'report'; readonly message?: string; readonly percentage?: number }
  | { readonly kind: 'end'; readonly message?: string };

interface Activity {
  readonly title: string;
  readonly message?: string;
  readonly percentage?: number;
}

const TITLE_PREFIX = /^Oracular:\s*/;
/** The server's report when its ranker is loaded (server/oracular/lsp/ranker.py `describe`). */
const RANKER_REPORT = /^(.+) ranker on (\S+)$/;

export class StatusModel {
  private phase: Phase = 'stopped';
  private readonly activities = new Map<string, Activity>();
  private ranker?: string;
  private device?: string;
  private version?: string;
  private launch?: string;
  private error?: string;
  private readonly listeners: Array<(status: Status) => void> = [];

  onChange(listener: (status: Status) => void): void {
    this.listeners.push(listener);
    listener(this.snapshot());
  }

  starting(launch: string): void {
    this.activities.clear();
    this.phase = 'starting';
    this.launch = launch;
    this.error = undefined;
    this.changed();
  }

  running(version: string | undefined): void {
    this.phase = 'ready';
    this.version = version;
    this.changed();
  }

  stopped(): void {
    this.activities.clear();
    this.phase = 'stopped';
    this.changed();
  }

  failed(error: string): void {
    this.activities.clear();
    this.phase = 'error';
    this.error = error;
    this.changed();
  }

  progress(token: string | number, value: ProgressValue): void {
    const key = String(token);
    if (value.kind === 'begin') {
      this.activities.set(key, {
        title: value.title.replace(TITLE_PREFIX, ''),
        message: value.message,
        percentage: value.percentage,
      });
    } else {
      const activity = this.activities.get(key);
      if (activity !== undefined) {
        const message = value.message ?? activity.message;
        this.activities.set(key, {
          ...activity,
          message,
          percentage: value.kind === 'report' ? (value.percentage ?? activity.percentage) : activity.percentage,
        });
      }
    }
    const ranker = value.message !== undefined ? RANKER_REPORT.exec(value.message) : null;
    if (ranker !== null) {
      this.ranker = ranker[1];
      this.device = ranker[2];
    }
    if (value.kind === 'end') {
      this.activities.delete(key);
    }
    this.changed();
  }

  snapshot(): Status {
    return {
      phase: this.phase,
      activities: [...this.activities.values()].map(describeActivity),
      ranker: this.ranker,
      device: this.device,
      version: this.version,
      launch: this.launch,
      error: this.error,
    };
  }

  private changed(): void {
    const status = this.snapshot();
    for (const listener of this.listeners) {
      listener(status);
    }
  }
}

function describeActivity(activity: Activity): string {
  const percentage = activity.percentage !== undefined ? ` ${Math.round(activity.percentage)}%` : '';
  return activity.message !== undefined
    ? `${activity.title}: ${activity.message}${percentage}`
    : `${activity.title}${percentage}`;
}

export interface StatusView {
  /** The status bar text, with a codicon. */
  readonly text: string;
  readonly tooltip: string;
  readonly alarm: boolean;
}

export function statusView(status: Status): StatusView {
  const device = status.device !== undefined ? ` (${status.device})` : '';
  const busy = status.activities[status.activities.length - 1];
  let text: string;
  if (status.phase === 'error') {
    text = '$(error) Oracular';
  } else if (status.phase === 'stopped') {
    text = '$(circle-slash) Oracular: stopped';
  } else if (status.phase === 'starting') {
    text = '$(sync~spin) Oracular: starting';
  } else if (busy !== undefined) {
    text = `$(sync~spin) Oracular: ${busy}`;
  } else {
    text = `$(check) Oracular${device}`;
  }
  const lines = [`Oracular ${status.version ?? ''}: ${describePhase(status)}`.replace(' :', ':')];
  if (status.error !== undefined) {
    lines.push(status.error);
  }
  for (const activity of status.activities) {
    lines.push(`- ${activity}`);
  }
  if (status.ranker !== undefined) {
    lines.push(`Ranker: ${status.ranker}, on ${status.device}`);
  }
  if (status.launch !== undefined) {
    lines.push(`Server: ${status.launch}`);
  }
  lines.push('Click to show the output.');
  return { text, tooltip: lines.join('\n'), alarm: status.phase === 'error' };
}

function describePhase(status: Status): string {
  switch (status.phase) {
    case 'error':
      return 'error';
    case 'stopped':
      return 'stopped';
    case 'starting':
      return 'starting';
    case 'ready':
      return status.activities.length > 0 ? 'busy' : 'ready';
  }
}
