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
      this.scene.nodes.get(this.selected)?.setClass('selected', false);
      for (const view of this.scene.edgesOf(this.selected)) {
        view.setClass('related', false);
        view.setMarkerEnd(view.marker);
      }
    }
    const view = id === undefined ? undefined : this.scene.nodes.get(id);
    this.selected = view?.id;
    const ring = this.scene.selectionRing;
    if (!view) {
      ring.setAttribute('visibility', 'hidden');
      return;
    }
    view.setClass('selected', true);
    for (const edge of this.scene.edgesOf(view.id)) {
      edge.setClass('related', true);
      if (edge.edge.kind === 'dependency') edge.setMarkerEnd(this.scene.markers.related);
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
    for (const id of this.matches) if (!ids.has(id)) this.scene.nodes.get(id)?.setClass('search-match', false);
    for (const id of ids) if (!this.matches.has(id)) this.scene.nodes.get(id)?.setClass('search-match', true);
    this.matches = new Set(ids);
    this.modeHost.classList.toggle('searching', searching);
  }

  /** Keeps only `ids` (and the edges between them) visible; undefined shows everything. */
  setFocus(ids: ReadonlySet<string> | undefined): void {
    this.focus = ids;
    this.modeHost.classList.toggle('focus-mode', ids !== undefined);
    for (const view of this.scene.nodes.values()) view.setClass('in-focus', ids?.has(view.id) ?? false);
    for (const view of this.scene.edges) {
      const { from, to, kind } = view.edge;
      const inFocus = ids !== undefined && ids.has(to) && (kind === 'unknownDependency' || ids.has(from));
      view.setClass('in-focus', inFocus);
    }
    for (const [id, group] of this.scene.missing) {
      const inFocus =
        ids !== undefined && this.scene.edges.some((view) => view.edge.kind === 'unknownDependency' && view.edge.from === id && ids.has(view.edge.to));
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
      view.setClass('critical', links.has(`${view.edge.from}\u0000${view.edge.to}`) || view.edge.critical === true);
    }
    this.critical = nodes;
  }

  isCritical(id: string): boolean {
    return this.critical.has(id) || this.scene.nodes.get(id)?.node.critical === true;
  }
}
