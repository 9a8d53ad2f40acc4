// Marks on a drawn scene that follow the user: the selected node and its edges, search matches, the focus set and the critical path.
import type { GraphScene } from './graphScene.js';

export class GraphHighlight {
  private selected: string | undefined;
  private matches = new Set<string>();
  private focus: ReadonlySet<string> | undefined;
  private critical = new Set<string>();

  constructor(
    private readonly scene: GraphScene,
    /** The element whose classes switch whole modes (`searching`, `focus-mode`). */
    private readonly modeHost: Element,
  ) {}

  /** Selects `id` (undefined clears): ring, `selected` class, related edges drawn in the focus colour. */
  select(id: string | undefined): void {
    if (this.selected !== undefined) {
      this.scene.nodes.get(this.selected)?.group.classList.remove('selected');
      for (const view of this.scene.edgesOf(this.selected)) {
        view.element.classList.remove('related');
        view.element.setAttribute('marker-end', `url(#${view.marker})`);
      }
    }
    const view = id === undefined ? undefined : this.scene.nodes.get(id);
    this.selected = view?.id;
    const ring = this.scene.selectionRing;
    if (!view) {
      ring.setAttribute('visibility', 'hidden');
      return;
    }
    view.group.classList.add('selected');
    for (const edge of this.scene.edgesOf(view.id)) {
      edge.element.classList.add('related');
      if (edge.edge.kind === 'dependency') edge.element.setAttribute('marker-end', `url(#${this.scene.markers.related})`);
    }
    const { x, y, width, height } = view.node;
    ring.setAttribute('x', String(x - 4));
    ring.setAttribute('y', String(y - 4));
    ring.setAttribute('width', String(width + 8));
    ring.setAttribute('height', String(height + 8));
    ring.setAttribute('visibility', 'visible');
  }

  /** Marks the nodes of `ids` as matches and dims the rest; an empty query clears the search. */
  setMatches(ids: ReadonlySet<string>, searching: boolean): void {
    for (const id of this.matches) if (!ids.has(id)) this.scene.nodes.get(id)?.group.classList.remove('search-match');
    for (const id of ids) if (!this.matches.has(id)) this.scene.nodes.get(id)?.group.classList.add('search-match');
    this.matches = new Set(ids);
    this.modeHost.classList.toggle('searching', searching);
  }

  /** Keeps only `ids` (and the edges between them) visible; undefined shows everything. */
  setFocus(ids: ReadonlySet<string> | undefined): void {
    this.focus = ids;
    this.modeHost.classList.toggle('focus-mode', ids !== undefined);
    for (const view of this.scene.nodes.values()) view.group.classList.toggle('in-focus', ids?.has(view.id) ?? false);
    for (const view of this.scene.edges) {
      const { from, to, kind } = view.edge;
      const inFocus = ids !== undefined && ids.has(to) && (kind === 'unknownDependency' || ids.has(from));
      view.element.classList.toggle('in-focus', inFocus);
    }
    for (const [id, group] of this.scene.missing) {
      const inFocus = ids !== undefined && this.scene.edges.some((view) => view.edge.kind === 'unknownDependency' && view.edge.from === id && ids.has(view.edge.to));
      group.classList.toggle('in-focus', inFocus);
    }
  }

  get focusSet(): ReadonlySet<string> | undefined {
    return this.focus;
  }

  /**
   * The critical path: nodes listed in `path` (first to last) and the edges between consecutive ones, plus what
   * the layout itself marks critical.
   */
  setCriticalPath(path: readonly string[]): void {
    const nodes = new Set(path);
    const links = new Set(path.slice(1).map((id, position) => `${path[position]}\u0000${id}`));
    for (const view of this.scene.nodes.values()) view.setCritical(nodes.has(view.id) || view.node.critical === true);
    for (const view of this.scene.edges) {
      view.element.classList.toggle('critical', links.has(`${view.edge.from}\u0000${view.edge.to}`) || view.edge.critical === true);
    }
    this.critical = nodes;
  }

  isCritical(id: string): boolean {
    return this.critical.has(id) || this.scene.nodes.get(id)?.node.critical === true;
  }
}
