// Disposable primitives shared by every layer (no VS Code dependency): Disposable, DisposableStore.

/** Something that holds resources until `dispose()` is called. Structurally compatible with vscode.Disposable. */
export interface Disposable {
  dispose(): void;
}

/** Wraps a cleanup function as a Disposable that runs at most once. */
export function toDisposable(cleanup: () => void): Disposable {
  let disposed = false;
  return {
    dispose() {
      if (!disposed) {
        disposed = true;
        cleanup();
      }
    },
  };
}

/** Owns a set of disposables and disposes them together (in reverse order of registration). */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  /** Registers `item`; if the store is already disposed, disposes it at once. */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  /** Registers several disposables at once. */
  addAll(...items: readonly Disposable[]): void {
    for (const item of items) this.add(item);
  }

  /** Disposes what the store holds now and keeps it open for more (a panel's per-document listeners, for example). */
  clear(): void {
    disposeAll(this.items.splice(0).reverse());
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.items.splice(0).reverse());
  }
}

/** Disposes each item even when one throws, then rethrows what they threw. */
function disposeAll(items: readonly Disposable[]): void {
  const errors: unknown[] = [];
  for (const item of items) {
    try {
      item.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed');
}
