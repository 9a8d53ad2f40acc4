// Lays out a plan graph top to bottom with d3-dag's Sugiyama layout: a dependency above its dependents, no overlaps, deterministic.
import { coordCenter, coordGreedy, decrossDfs, decrossTwoLayer, graphStratify, sugiyama, type Graph, type GraphNode, type Layering } from 'd3-dag';
import { missingNodeSize, nodeSize, NODE_METRICS } from './nodeMetrics.js';
import { assignSkillColours } from './graphPalette.js';
import type { GraphLevel, MissingNode, PlanGraphEdge, PlanGraphLayout, PlanGraphModel, PlanGraphNode, Point } from './graphTypes.js';

/** How hard the layout works on crossings and straight edges; chosen by size unless given. */
export type LayoutQuality = 'best' | 'balanced' | 'fast';

export interface LayoutOptions {
  readonly quality?: LayoutQuality;
}

/**
 * Plans up to this many nodes get the best layout, up to `BALANCED_UP_TO` the balanced one, then the fast one.
 * Measured on 1.5 edges per node: best ≈ 40–70 ms at 50 nodes and balanced ≈ 170 ms at 300 (two-layer crossing
 * reduction grows fastest: one pass takes 1.5 s at 1,000); fast ≈ 200 ms at 1,000 and ≈ 1 s at 10,000
 * (benchmark g, test/bench/graphLayout.ts).
 */
const BEST_UP_TO = 150;
const BALANCED_UP_TO = 400;

/** The quality used for a graph of `nodeCount` nodes. */
export function defaultQuality(nodeCount: number): LayoutQuality {
  if (nodeCount <= BEST_UP_TO) return 'best';
  return nodeCount <= BALANCED_UP_TO ? 'balanced' : 'fast';
}

interface LayoutItem {
  readonly id: string;
  readonly parentIds: string[];
  readonly width: number;
  /** Index into model.tools, or -1 for the box of an unknown dependency. */
  readonly tool: number;
}

const MISSING_PREFIX = '\u0000missing:';

/**
 * Lays out `model`. Cycle edges are laid out reversed (so the layered layout sees a DAG) and their points
 * turned back, self-dependencies become small loops beside their node, and each unknown dependency gets a box
 * above its dependents. Coordinates start at 0,0; every node's x and y are its top-left corner.
 */
export function layoutPlanGraph(model: PlanGraphModel, options: LayoutOptions = {}): PlanGraphLayout {
  const height = NODE_METRICS.height;
  const items = layoutItems(model);
  if (items.length === 0) return { nodes: [], edges: [], cycles: model.cycles, width: 0, height: 0, levels: [], missing: [] };
  const widths = new Map(items.map((item) => [item.id, item.width]));
  const graph = graphStratify()(items);
  const quality = options.quality ?? defaultQuality(items.length);
  const layout = sugiyama()
    .nodeSize((node: GraphNode<LayoutItem>) => [widths.get(node.data.id) ?? 0, height] as const)
    .gap([NODE_METRICS.gapX, NODE_METRICS.gapY])
    .layering(levelLayering)
    .decross(quality === 'fast' ? decrossDfs() : quality === 'balanced' ? decrossTwoLayer().passes(1) : decrossTwoLayer())
    .coord(quality === 'fast' ? coordCenter() : coordGreedy());
  const size = layout(graph as unknown as Graph<LayoutItem, unknown>);
  return assemble(model, graph as unknown as Graph<LayoutItem, unknown>, size);
}

/**
 * Layers by level: a tool sits one level below its deepest dependency, and a tool without dependencies on level 0,
 * which is when it could start. (d3-dag's longest-path layering moves such tools down next to their dependents.)
 */
const levelLayering = ((
  graph: Graph<LayoutItem, unknown>,
  separation: (upper?: GraphNode<LayoutItem, unknown>, lower?: GraphNode<LayoutItem, unknown>) => number,
): number => {
  let height = 0;
  for (const node of graph.topological()) {
    let y = separation(undefined, node);
    for (const parent of node.parents()) y = Math.max(y, parent.y + separation(parent, node));
    node.y = y;
    height = Math.max(height, y + separation(node, undefined));
  }
  return height;
}) as unknown as Layering<LayoutItem, unknown>;

function layoutItems(model: PlanGraphModel): LayoutItem[] {
  const position = new Map(model.tools.map((tool, index) => [tool.id, index]));
  const parents = model.tools.map(() => new Set<string>());
  for (const edge of model.dependencies) {
    if (edge.from === edge.to) continue;
    const from = position.get(edge.from)!;
    const to = position.get(edge.to)!;
    // Inside a cycle, edges that go back in the file's order (the tools' index: a beat graph lists its nodes by priority)
    // are laid out reversed: what remains is acyclic.
    if (edge.cycle && model.tools[from]!.index > model.tools[to]!.index) parents[from]!.add(edge.to);
    else parents[to]!.add(edge.from);
  }
  const missing = new Map<string, LayoutItem>();
  for (const unknown of model.unknownDependencies) {
    const id = MISSING_PREFIX + unknown.missing;
    if (!missing.has(id)) missing.set(id, { id, parentIds: [], width: missingNodeSize(unknown.missing).width, tool: -1 });
    parents[position.get(unknown.to)!]!.add(id);
  }
  const tools = model.tools.map((tool, index): LayoutItem => ({ id: tool.id, parentIds: [...parents[index]!], width: nodeSize(tool).width, tool: index }));
  return [...missing.values(), ...tools];
}

function assemble(model: PlanGraphModel, graph: Graph<LayoutItem, unknown>, size: { width: number; height: number }): PlanGraphLayout {
  const height = NODE_METRICS.height;
  const step = height + NODE_METRICS.gapY;
  const centers = new Map<string, { x: number; y: number; readonly width: number }>();
  for (const node of graph.nodes()) centers.set(node.data.id, { x: node.x, y: node.y, width: node.data.width });
  const levelOf = (y: number) => Math.round((y - margin - height / 2) / step);
  // A margin of half a level gap on every side: the level bands then start at 0 and end at the height.
  const margin = NODE_METRICS.gapY / 2;
  for (const center of centers.values()) {
    center.x += margin;
    center.y += margin;
  }
  const colours = assignSkillColours(model.tools.map((tool) => tool.skill));
  const nodes: PlanGraphNode[] = model.tools.map((tool) => {
    const center = centers.get(tool.id)!;
    const { width } = center;
    return {
      id: tool.id,
      toolPath: tool.toolPath,
      skill: tool.skill,
      script: tool.script,
      ...(tool.namedAs !== undefined ? { namedAs: tool.namedAs } : {}),
      level: levelOf(center.y),
      x: round(center.x - width / 2),
      y: round(center.y - height / 2),
      width,
      height,
      index: tool.index,
      colour: colours.get(tool.skill)!,
      badges: tool.badges,
      ...(tool.input ? { input: tool.input } : {}),
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      ...(tool.title !== undefined ? { title: tool.title } : {}),
    };
  });
  const missing: MissingNode[] = [];
  for (const [id, center] of centers) {
    if (!id.startsWith(MISSING_PREFIX)) continue;
    const box = missingNodeSize(id.slice(MISSING_PREFIX.length));
    missing.push({
      id: id.slice(MISSING_PREFIX.length),
      x: round(center.x - box.width / 2),
      y: round(center.y - box.height / 2),
      width: box.width,
      height: box.height,
    });
  }
  const routes = new Map<string, Point[]>();
  for (const link of graph.links())
    routes.set(`${link.source.data.id}\u0000${link.target.data.id}`, route(link.points, margin, height, NODE_METRICS.missingHeight, link.source.data.tool < 0));
  const edges: PlanGraphEdge[] = [];
  const byId = new Map(nodes.map((node) => [node.id, node]));
  for (const dependency of model.dependencies) {
    const kind = dependency.cycle ? 'cycle' : 'dependency';
    const relation = dependency.relation !== undefined ? { relation: dependency.relation } : {};
    if (dependency.from === dependency.to) {
      edges.push({ from: dependency.from, to: dependency.to, kind, points: selfLoop(byId.get(dependency.from)!), ...relation });
      continue;
    }
    const forward = routes.get(`${dependency.from}\u0000${dependency.to}`);
    const points = forward ?? [...routes.get(`${dependency.to}\u0000${dependency.from}`)!].reverse();
    edges.push({ from: dependency.from, to: dependency.to, kind, points, ...relation });
  }
  for (const unknown of model.unknownDependencies) {
    edges.push({
      from: unknown.missing,
      to: unknown.to,
      kind: 'unknownDependency',
      points: routes.get(`${MISSING_PREFIX}${unknown.missing}\u0000${unknown.to}`)!,
    });
  }
  spreadPorts(edges, byId, missing);
  const width = round(size.width + 2 * margin);
  const totalHeight = round(size.height + 2 * margin);
  return { nodes, edges, cycles: model.cycles, width, height: totalHeight, levels: levelBands(nodes, totalHeight), missing };
}

/**
 * Turns d3-dag's center-to-center polyline into one that leaves the bottom of the source, passes each level it
 * crosses vertically (through the slot the layout kept free), and enters the top of the target.
 */
function route(points: readonly (readonly [number, number])[], margin: number, height: number, missingHeight: number, fromMissing: boolean): Point[] {
  const half = height / 2;
  const result: Point[] = [];
  points.forEach(([layoutX, layoutY], index) => {
    const x = layoutX + margin;
    const y = layoutY + margin;
    if (index === 0) result.push({ x: round(x), y: round(y + (fromMissing ? missingHeight / 2 : half)) });
    else if (index === points.length - 1) result.push({ x: round(x), y: round(y - half) });
    else result.push({ x: round(x), y: round(y - half) }, { x: round(x), y: round(y + half) });
  });
  return result;
}

/**
 * Edges that leave one node (or enter one) would all meet at its centre; instead they leave along the middle of
 * its bottom side (enter along its top), ordered by where their other end lies, so arrows stay apart. Only the
 * end point moves, and the segment it ends stays in the gap between levels.
 */
function spreadPorts(edges: PlanGraphEdge[], nodes: ReadonlyMap<string, PlanGraphNode>, missing: readonly MissingNode[]): void {
  const boxes = new Map<string, { x: number; width: number }>(nodes);
  for (const box of missing) boxes.set(`${MISSING_PREFIX}${box.id}`, box);
  const outgoing = new Map<string, number[]>();
  const incoming = new Map<string, number[]>();
  edges.forEach((edge, index) => {
    if (edge.from === edge.to || edge.points.length < 2) return;
    const first = edge.points[0]!;
    const last = edge.points[edge.points.length - 1]!;
    // Reversed cycle edges run upwards: they leave from a top side and enter a bottom side.
    const downwards = last.y >= first.y;
    const source = edge.kind === 'unknownDependency' ? `${MISSING_PREFIX}${edge.from}` : edge.from;
    push(downwards ? outgoing : incoming, `${source}\u0000${downwards ? 'bottom' : 'top'}`, index);
    push(downwards ? incoming : outgoing, `${edge.to}\u0000${downwards ? 'top' : 'bottom'}`, index);
  });
  const place = (groups: Map<string, number[]>, end: 'first' | 'last') => {
    for (const [key, indices] of groups) {
      if (indices.length < 2) continue;
      const box = boxes.get(key.slice(0, key.indexOf('\u0000')));
      if (!box) continue;
      const otherX = (index: number) => {
        const points = edges[index]!.points;
        return (end === 'first' ? points[1]! : points[points.length - 2]!).x;
      };
      const sorted = [...indices].sort((a, b) => otherX(a) - otherX(b) || a - b);
      sorted.forEach((index, position) => {
        const edge = edges[index]!;
        const points = [...edge.points];
        const at = end === 'first' ? 0 : points.length - 1;
        const x = round(box.x + box.width * (0.25 + (0.5 * (position + 0.5)) / sorted.length));
        points[at] = { x, y: points[at]!.y };
        edges[index] = { ...edge, points };
      });
    }
  };
  place(outgoing, 'first');
  place(incoming, 'last');
}

function push(groups: Map<string, number[]>, key: string, index: number): void {
  const group = groups.get(key);
  if (group) group.push(index);
  else groups.set(key, [index]);
}

/** A small loop on the right of a node that depends on itself. */
function selfLoop(node: PlanGraphNode): Point[] {
  const right = node.x + node.width;
  const out = Math.min(16, NODE_METRICS.gapX - 8);
  return [
    { x: right, y: node.y + node.height / 3 },
    { x: right + out, y: node.y + node.height / 3 },
    { x: right + out, y: node.y + (2 * node.height) / 3 },
    { x: right, y: node.y + (2 * node.height) / 3 },
  ].map((point) => ({ x: round(point.x), y: round(point.y) }));
}

function levelBands(nodes: readonly PlanGraphNode[], totalHeight: number): GraphLevel[] {
  const counts = new Map<number, number>();
  for (const node of nodes) counts.set(node.level, (counts.get(node.level) ?? 0) + 1);
  const step = NODE_METRICS.height + NODE_METRICS.gapY;
  const layers = Math.max(0, Math.round(totalHeight / step));
  const levels: GraphLevel[] = [];
  for (let level = 0; level < layers; level++) {
    levels.push({ level, y: level * step, height: step, count: counts.get(level) ?? 0 });
  }
  return levels;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
