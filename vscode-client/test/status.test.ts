import * as assert from 'node:assert/strict';

import { Status, StatusModel, statusView } from '../src/status';

function lastStatus(model: StatusModel): () => Status {
  let last: Status | undefined;
  model.onChange((status) => {
    last = status;
  });
  return () => {
    assert.ok(last);
    return last;
  };
}

describe('StatusModel', () => {
  it('goes from starting to ready, showing the device once the ranker is loaded', () => {
    const model = new StatusModel();
    const status = lastStatus(model);
    assert.equal(statusView(status()).text, '$(circle-slash) Oracular: stopped');
    model.starting('python3 -m oracular serve (default)');
    assert.equal(statusView(status()).text, '$(sync~spin) Oracular: starting');
    model.running('0.1.0');
    model.progress('t1', { kind: 'begin', title: 'Oracular: loading the ranker' });
    assert.equal(statusView(status()).text, '$(sync~spin) Oracular: loading the ranker');
    model.progress('t1', { kind: 'report', message: 'baseline ranker on cpu' });
    assert.equal(statusView(status()).text, '$(sync~spin) Oracular: loading the ranker: baseline ranker on cpu');
    model.progress('t1', { kind: 'end' });
    const view = statusView(status());
    assert.equal(view.text, '$(check) Oracular (cpu)');
    assert.match(view.tooltip, /^Oracular 0\.1\.0: ready$/m);
    assert.match(view.tooltip, /Ranker: baseline, on cpu/);
    assert.match(view.tooltip, /Server: python3 -m oracular serve \(default\)/);
    assert.equal(view.alarm, false);
  });

  it('shows indexing with its message and percentage, and the newest of overlapping tasks', () => {
    const model = new StatusModel();
    const status = lastStatus(model);
    model.running('0.1.0');
    model.progress(7, { kind: 'begin', title: 'Oracular: indexing stack', percentage: 0 });
    model.progress('t2', { kind: 'begin', title: 'Oracular: indexing other' });
    assert.equal(statusView(status()).text, '$(sync~spin) Oracular: indexing other');
    model.progress('t2', { kind: 'end' });
    model.progress(7, { kind: 'report', message: '12 Java files', percentage: 50 });
    assert.equal(statusView(status()).text, '$(sync~spin) Oracular: indexing stack: 12 Java files 50%');
    assert.match(statusView(status()).tooltip, /busy/);
    model.progress(7, { kind: 'end' });
    assert.equal(statusView(status()).text, '$(check) Oracular');
  });

  it('ignores reports and ends for tasks it never saw begin', () => {
    const model = new StatusModel();
    const status = lastStatus(model);
    model.running(undefined);
    model.progress('unknown', { kind: 'report', message: 'half way' });
    model.progress('unknown', { kind: 'end' });
    assert.deepEqual(status().activities, []);
  });

  it('follows a device change', () => {
    const model = new StatusModel();
    const status = lastStatus(model);
    model.running('0.1.0');
    model.progress('a', { kind: 'begin', title: 'Oracular: loading the ranker' });
    model.progress('a', { kind: 'report', message: 'neural ranker on cuda' });
    model.progress('a', { kind: 'end' });
    assert.equal(statusView(status()).text, '$(check) Oracular (cuda)');
    assert.equal(status().ranker, 'neural');
  });

  it('shows an error in the status bar colour and tooltip, and clears it on the next start', () => {
    const model = new StatusModel();
    const status = lastStatus(model);
    model.progress('a', { kind: 'begin', title: 'Oracular: indexing stack' });
    model.failed('Oracular is not installed for python3');
    const view = statusView(status());
    assert.equal(view.text, '$(error) Oracular');
    assert.equal(view.alarm, true);
    assert.match(view.tooltip, /Oracular: error\nOracular is not installed for python3/);
    assert.deepEqual(status().activities, []);
    model.starting('python3 -m oracular serve (default)');
    assert.equal(status().error, undefined);
    assert.equal(statusView(status()).alarm, false);
  });
});
