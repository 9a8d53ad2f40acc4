// Unit tests of the play panel's DOM-free pieces: the UI state store (sanitising, caps, dismissals, open graphs), the input history cursor, and tool statuses as graph states.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { InputHistory } from '../../src/webview/play/inputHistory.js';
import { graphRunOf } from '../../src/webview/play/toolGraphState.js';
import { maxHistoryEntries, sanitizeUiState, UiStateStore, type UiStateStorage } from '../../src/webview/play/uiStateStore.js';

function memoryStorage(initial?: unknown): UiStateStorage & { saved: unknown } {
  const storage = {
    saved: initial,
    getState: () => storage.saved,
    setState: (state: unknown) => {
      storage.saved = JSON.parse(JSON.stringify(state));
    },
  };
  return storage;
}

test('a missing or malformed saved state falls back to defaults field by field', () => {
  assert.deepEqual(sanitizeUiState(undefined), {
    inputHistory: [],
    draft: '',
    expandedStatePaths: [],
    dismissedNotices: [],
    collapsedSections: [],
    openGraphs: [],
  });
  assert.deepEqual(
    sanitizeUiState({ inputHistory: ['a', 3, 'b'], draft: 42, expandedStatePaths: 'dice', dismissedNotices: ['x'], openGraphs: ['3/1/p', null] }),
    {
      inputHistory: ['a', 'b'],
      draft: '',
      expandedStatePaths: [],
      dismissedNotices: ['x'],
      collapsedSections: [],
      openGraphs: ['3/1/p'],
    },
  );
});

test('the history keeps 50 entries without consecutive duplicates or blanks, and every change is saved', () => {
  const storage = memoryStorage();
  const store = new UiStateStore(storage);
  store.pushHistory('look around');
  store.pushHistory('look around');
  store.pushHistory('   ');
  store.pushHistory('open the gate');
  store.pushHistory('look around');
  assert.deepEqual(store.state.inputHistory, ['look around', 'open the gate', 'look around']);
  for (let index = 0; index < 60; index++) store.pushHistory(`action ${index}`);
  assert.equal(store.state.inputHistory.length, maxHistoryEntries);
  assert.equal(store.state.inputHistory.at(-1), 'action 59');
  assert.deepEqual((storage.saved as { inputHistory: string[] }).inputHistory, store.state.inputHistory);
});

test('expanded paths, dismissed notices and collapsed sections round-trip through the storage', () => {
  const storage = memoryStorage();
  const store = new UiStateStore(storage);
  store.setExpanded(['dice', 'dice.lastRoll'], true);
  store.setExpanded(['dice'], false);
  store.dismiss('turn-errors:s:2');
  store.dismiss('turn-errors:s:2');
  store.setSectionCollapsed('tools@narrow', true);
  store.setDraft('half');
  const reloaded = new UiStateStore(memoryStorage(storage.saved));
  assert.equal(reloaded.isExpanded('dice.lastRoll'), true);
  assert.equal(reloaded.isExpanded('dice'), false);
  assert.deepEqual(reloaded.state.dismissedNotices, ['turn-errors:s:2']);
  assert.equal(reloaded.isSectionCollapsed('tools@narrow'), true);
  assert.equal(reloaded.isSectionCollapsed('tools@wide'), false);
  assert.equal(reloaded.state.draft, 'half');
});

test('open graphs round-trip, close, and keep the most recent 100', () => {
  const storage = memoryStorage();
  const store = new UiStateStore(storage);
  store.setGraphOpen('3/1/turn-3', true);
  store.setGraphOpen('3/2/turn-3-r1', true);
  store.setGraphOpen('3/1/turn-3', false);
  const reloaded = new UiStateStore(memoryStorage(storage.saved));
  assert.equal(reloaded.isGraphOpen('3/1/turn-3'), false);
  assert.equal(reloaded.isGraphOpen('3/2/turn-3-r1'), true);
  for (let index = 0; index < 120; index++) reloaded.setGraphOpen(`${index}/1/p`, true);
  assert.equal(reloaded.state.openGraphs.length, 100);
  assert.equal(reloaded.isGraphOpen('119/1/p'), true);
  assert.equal(reloaded.isGraphOpen('3/2/turn-3-r1'), false, 'the oldest go first');
});

test('each tool status is the graph state of the same name, with its duration and retries', () => {
  assert.deepEqual(graphRunOf({ status: 'pending', retries: 0 }), { state: 'pending', durationMs: undefined, retryCount: undefined });
  assert.deepEqual(graphRunOf({ status: 'success', retries: 0, durationMs: 84 }), { state: 'success', durationMs: 84, retryCount: undefined });
  assert.deepEqual(graphRunOf({ status: 'retrying', retries: 2 }), { state: 'retrying', attempt: 3, durationMs: undefined }, 'the try under way');
  assert.deepEqual(graphRunOf({ status: 'timeout', retries: 1, durationMs: 5004 }), { state: 'timeout', durationMs: 5004, retryCount: 1 });
  assert.equal(graphRunOf({ status: 'recorded', retries: 0 }), undefined, 'a saved turn’s tool without a kept status shows no state');
});

test('the history cursor walks up and down and gives back the unsent text', () => {
  const entries = ['first', 'second', 'third'];
  const history = new InputHistory(() => entries);
  assert.equal(history.next(), undefined, 'nothing below the bottom');
  assert.equal(history.previous('unsent'), 'third');
  assert.equal(history.browsing, true);
  assert.equal(history.recalled, 'third');
  assert.equal(history.previous('third'), 'second');
  assert.equal(history.previous('second'), 'first');
  assert.equal(history.previous('first'), undefined, 'stops at the oldest');
  assert.equal(history.next(), 'second');
  assert.equal(history.next(), 'third');
  assert.equal(history.next(), 'unsent');
  assert.equal(history.browsing, false);
  history.reset();
  assert.equal(new InputHistory(() => []).previous('x'), undefined);
});
