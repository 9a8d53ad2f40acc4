// One tool's node in the scene: box, skill stripe, toolId, "skill · script", badge chips, state icon and run chip; run states change it in place; text kept inside the box.
import { badgeWidth, detailLine, NODE_METRICS } from '../../runtime/graph/nodeMetrics.js';
import type { PlanGraphNode } from '../../runtime/graph/graphTypes.js';
import { unreachableClass } from '../../runtime/graph/graphSvg.js';
import { svg } from '../common/dom.js';
import { chipText, describeRun, STATE_ICONS, type NodeRun } from '../common/stateIcons.js';

const metrics = NODE_METRICS;
/** Vertical positions inside a node (the same as the standalone SVG's). */
const TITLE_BASELINE = 20;
const DETAIL_BASELINE = 37;
const BADGE_TOP = 45;
const BADGE_HEIGHT = 14;
const ICON_CENTRE_Y = 15;

/**
 * A node's element is built on first use (`group`) and can be dropped (`release`) and built again: a virtualized
 * scene draws only the nodes near the view. Run state and marks (`setClass`) are kept here, so a node that leaves
 * and comes back shows them again.
 */
export class NodeView {
  private element: SVGGElement | undefined;
  private icon: SVGTextElement | undefined;
  private chip: SVGTextElement | undefined;
  private run: NodeRun | undefined;
  /** Classes besides `node` and `state-*`: in-cycle, critical, selected, search-match, in-focus. */
  private readonly classes = new Set<string>();

  constructor(
    readonly node: PlanGraphNode,
    /** The DOM id (for aria-activedescendant). */
    readonly elementId: string,
    inCycle: boolean,
    /** A selectable button (the graph panel), or a labelled image in a read-only drawing. */
    private readonly interactive = true,
    /** Called when the run or a mark changes (a virtualized scene redraws its low-detail form). */
    private readonly changed?: () => void,
    /** What a screen reader calls the node ("tool", "beat"). */
    private readonly noun = 'tool',
  ) {
    if (inCycle) this.classes.add('in-cycle');
    if (unreachableClass(node)) this.classes.add('unreachable');
    if (node.critical) this.classes.add('critical');
    this.run = node.state ? { state: node.state, durationMs: node.durationMs, retryCount: node.retryCount } : undefined;
  }

  /** The node's SVG group, built now if it is not drawn. */
  get group(): SVGGElement {
    return (this.element ??= this.build());
  }

  /** Whether the element exists (it may be outside the DOM only while being drawn). */
  get drawn(): boolean {
    return this.element !== undefined;
  }

  /** Removes the element from the DOM and forgets it (state and marks are kept). */
  release(): void {
    this.element?.remove();
    this.element = undefined;
    this.icon = undefined;
    this.chip = undefined;
  }

  private build(): SVGGElement {
    const node = this.node;
    const { x, y, width, height } = node;
    const left = x + metrics.stripeWidth + metrics.paddingX;
    const classes = ['node', ...this.classes].join(' ');
    const group = svg('g', {
      class: classes,
      id: this.elementId,
      role: this.interactive ? 'button' : 'img',
      'aria-roledescription': this.noun,
      'data-tool-id': node.id,
    });
    this.icon = svg('text', {
      class: 'state-icon',
      x: x + width - metrics.paddingX - 8,
      y: y + ICON_CENTRE_Y,
      'text-anchor': 'middle',
      'dominant-baseline': 'central',
      'aria-hidden': 'true',
    });
    this.chip = svg('text', { class: 'run-chip', x: x + width - metrics.paddingX, y: y + BADGE_TOP + 10.5, 'text-anchor': 'end' });
    group.append(
      svg('rect', { class: 'box', x, y, width, height, rx: 6 }),
      svg('rect', { class: `stripe skill-${node.colour}`, x: x + 2, y: y + 5, width: metrics.stripeWidth - 1, height: height - 10, rx: 2 }),
      svg('text', { class: 'title', x: left, y: y + TITLE_BASELINE }, node.id),
      svg('text', { class: 'detail', x: left, y: y + DETAIL_BASELINE }, detailLine(node)),
    );
    let badgeX = left;
    for (const badge of node.badges) {
      const chipWidth = badgeWidth(badge);
      group.append(
        svg('rect', { class: `badge badge-${badge.kind}`, x: badgeX, y: y + BADGE_TOP, width: chipWidth, height: BADGE_HEIGHT, rx: 3 }),
        svg('text', { class: 'badge-label', x: badgeX + metrics.badgePaddingX, y: y + BADGE_TOP + 10.5 }, badge.label),
      );
      badgeX += chipWidth + metrics.badgeGap;
    }
    group.append(this.icon, this.chip);
    this.element = group;
    this.showRun(undefined, this.run);
    return group;
  }

  get id(): string {
    return this.node.id;
  }

  get currentRun(): NodeRun | undefined {
    return this.run;
  }

  /** Shows a run state (undefined: none); touches only this node's own elements. */
  setRun(run: NodeRun | undefined): void {
    const previous = this.run;
    this.run = run;
    if (this.element) this.showRun(previous, run);
    this.changed?.();
  }

  private showRun(previousRun: NodeRun | undefined, run: NodeRun | undefined): void {
    const group = this.element!;
    const previous = previousRun?.state;
    if (previous !== run?.state) {
      if (previous) group.classList.remove(`state-${previous}`);
      if (run) group.classList.add(`state-${run.state}`);
      this.icon!.textContent = run ? STATE_ICONS[run.state].glyph : '';
      if (run) group.setAttribute('data-state', run.state);
      else group.removeAttribute('data-state');
    }
    this.chip!.textContent = chipText(run);
    group.setAttribute('aria-label', this.label());
  }

  /** Adds or removes a mark class (kept while the node is not drawn). */
  setClass(name: string, on: boolean): void {
    if (this.classes.has(name) === on) return;
    if (on) this.classes.add(name);
    else this.classes.delete(name);
    this.element?.classList.toggle(name, on);
    this.changed?.();
  }

  hasClass(name: string): boolean {
    return this.classes.has(name);
  }

  setCritical(critical: boolean): void {
    this.setClass('critical', critical);
  }

  /** What a screen reader says: toolId, skill and script, state. */
  label(): string {
    const skill = this.node.skill ? `skill ${this.node.skill}, ${this.node.script}` : this.node.script;
    const state = this.run ? describeRun(this.run) : 'not run';
    const badges = this.node.badges.length > 0 ? `, ${this.node.badges.map((badge) => badge.label).join(', ')}` : '';
    return `${this.node.id}, ${skill}, ${state}${badges}`;
  }
}

const SAMPLE = 'MWMWMWMWMWMWMWMWMWMW';

/**
 * The factor (≤ 1) by which node text must shrink so that its widest characters take no more than the
 * layout's `advance` per column. 1 for the usual editor fonts (monospace at about 0.6 em); less when the user's
 * editor font is wider or proportional (its M and W are wider than a monospace cell).
 */
export function measureTextScale(drawing: SVGSVGElement): number {
  const title = svg('text', { class: 'title' }, SAMPLE);
  const detail = svg('text', { class: 'detail' }, SAMPLE);
  const probe = svg('g', { class: 'node font-probe', visibility: 'hidden', 'aria-hidden': 'true' }, title, detail);
  drawing.append(probe);
  try {
    const columns = SAMPLE.length;
    const ratio = Math.max(
      title.getComputedTextLength() / (columns * NODE_METRICS.titleSize * NODE_METRICS.advance),
      detail.getComputedTextLength() / (columns * NODE_METRICS.detailSize * NODE_METRICS.advance),
    );
    return ratio > 1 ? Math.floor((1000 / ratio) * 0.99) / 1000 : 1;
  } finally {
    probe.remove();
  }
}

/** Measures now and again once web fonts have loaded; sets `--graph-text-scale` on `host` when text must shrink. */
export function fitTextToMetrics(drawing: SVGSVGElement, host: HTMLElement): void {
  const apply = () => {
    const scale = measureTextScale(drawing);
    if (scale < 1) host.style.setProperty('--graph-text-scale', String(scale));
    else host.style.removeProperty('--graph-text-scale');
  };
  apply();
  void document.fonts?.ready.then(apply);
}
