// The Inspector's stderr lane: each chunk with its time since start; choosing one selects the first stdout line at or after that time.
import type { StderrChunk } from '../../protocol/inspectorMessages.js';
import { elapsedText } from './format.js';

/** Chunks kept in the lane; older ones are counted, not drawn. */
const MAX_CHUNKS = 2000;

export class StderrLane {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly title: HTMLElement;
  private count = 0;

  constructor(private readonly onChoose: (elapsedMs: number) => void) {
    this.element = document.createElement('section');
    this.element.className = 'stderr-lane';
    this.element.setAttribute('aria-label', 'stderr');
    this.title = document.createElement('h2');
    this.list = document.createElement('ol');
    this.list.className = 'stderr-list';
    this.element.append(this.title, this.list);
    this.clear();
  }

  clear(): void {
    this.count = 0;
    this.list.replaceChildren();
    this.title.textContent = 'stderr (empty)';
  }

  add(chunks: readonly StderrChunk[]): void {
    for (const chunk of chunks) {
      this.count++;
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.className = 'stderr-time';
      button.textContent = elapsedText(chunk.elapsedMs);
      button.title = 'Select the stdout line at this time';
      button.addEventListener('click', () => this.onChoose(chunk.elapsedMs));
      const body = document.createElement('span');
      body.className = 'stderr-text';
      body.textContent = chunk.text.replace(/\n$/, '');
      item.append(button, body);
      this.list.append(item);
    }
    while (this.list.childElementCount > MAX_CHUNKS) this.list.firstElementChild?.remove();
    this.title.textContent = `stderr (${this.count} chunk${this.count === 1 ? '' : 's'}${this.count > MAX_CHUNKS ? `, last ${MAX_CHUNKS} shown` : ''})`;
    this.list.scrollTop = this.list.scrollHeight;
  }
}
