// The JSON form of a laid-out graph: exactly the fields of contracts/plan-graph.schema.json, in a stable order.
import type { PlanGraphLayout } from './graphTypes.js';

/** The contract's JSON (drops the view-only input and description of each node). */
export function toGraphJson(layout: PlanGraphLayout): Record<string, unknown> {
  return {
    nodes: layout.nodes.map((node) => ({
      id: node.id,
      toolPath: node.toolPath,
      skill: node.skill,
      script: node.script,
      ...(node.namedAs !== undefined ? { namedAs: node.namedAs } : {}),
      level: node.level,
      x: node.x,
      y: node.y,
      width: node.width,
      height: node.height,
      badges: node.badges.map((badge) => badge.kind),
      ...(node.state !== undefined ? { state: node.state } : {}),
      ...(node.durationMs !== undefined ? { durationMs: node.durationMs } : {}),
      ...(node.retryCount !== undefined ? { retryCount: node.retryCount } : {}),
      ...(node.critical ? { critical: true } : {}),
    })),
    edges: layout.edges.map((edge) => ({ from: edge.from, to: edge.to, kind: edge.kind, points: edge.points, ...(edge.critical ? { critical: true } : {}) })),
    cycles: layout.cycles,
    width: layout.width,
    height: layout.height,
    levels: layout.levels,
    missing: layout.missing,
  };
}
