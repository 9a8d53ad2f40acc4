// Waits until code-server's workbench has saved its open editors (so a window reload restores a webview panel with its state).
import type { Workbench } from './workbench.js';
import { waitFor } from './scenario.js';

/**
 * Waits until the workbench's saved editor state (IndexedDB `vscode-web-state-db-*`, table `ItemTable`, an
 * editor memento key) holds the webview panel of `viewType` (VS Code names it `mainThreadWebview-<viewType>`),
 * so that a reload restores the panel, and (when `stateNeedle` is given) with the view's setState state holding
 * that text. VS Code saves it every 5 s when idle. Deterministic when the storage is
 * laid out like that; if it is not found within 30 s (six save intervals) the wait ends with a warning and the
 * test goes on, so a storage layout this does not know degrades to a generous margin, never to a failure here.
 */
export async function waitForSavedEditor(workbench: Workbench, viewType: string, stateNeedle = ''): Promise<void> {
  const needle = `mainThreadWebview-${viewType}`;
  const saved = () =>
    workbench.page
      .evaluate(
        async ({ text, state }) => {
          const names = (await indexedDB.databases()).map((database) => database.name ?? '').filter((name) => name.startsWith('vscode-web-state-db'));
          for (const name of names) {
            const found = await new Promise<boolean>((resolve) => {
              const opening = indexedDB.open(name);
              opening.onerror = () => resolve(false);
              opening.onsuccess = () => {
                const database = opening.result;
                try {
                  const table = database.transaction('ItemTable', 'readonly').objectStore('ItemTable');
                  const keys = table.getAllKeys();
                  const values = table.getAll();
                  values.onsuccess = () => {
                    database.close();
                    resolve(
                      keys.result.some(
                        (key, index) =>
                          /editor/i.test(String(key)) && String(values.result[index]).includes(text) && String(values.result[index]).includes(state),
                      ),
                    );
                  };
                  values.onerror = () => {
                    database.close();
                    resolve(false);
                  };
                } catch {
                  database.close();
                  resolve(false);
                }
              };
            });
            if (found) return true;
          }
          return false;
        },
        { text: needle, state: stateNeedle },
      )
      .catch(() => false);
  await waitFor(saved, 30_000, `the workbench saved its editors with ${needle}`).catch(() =>
    console.warn(`[e2e] the saved editor state never named ${needle}${stateNeedle ? ` with "${stateNeedle}"` : ''} within 30 s; reloading anyway`),
  );
}
