// Typed events in the VS Code style (`onDidX(listener) => Disposable`), without string-keyed emitters.
import type { Disposable } from './disposable.js';

/** Subscribes a listener; the returned Disposable unsubscribes it. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/** Owns the listeners of one event. Listener errors are reported, never propagated to the firer. */
export class Emitter<T> implements Disposable {
  private listeners: ((value: T) => void)[] = [];

  constructor(private readonly onListenerError: (error: unknown) => void = defaultListenerError) {}

  /** The public side: give this to consumers. */
  readonly event: Event<T> = (listener) => {
    this.listeners.push(listener);
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((candidate) => candidate !== listener);
      },
    };
  };

  /** True when at least one listener is subscribed (lets hot paths skip building payloads). */
  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  fire(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.listeners = [];
  }
}

function defaultListenerError(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}
