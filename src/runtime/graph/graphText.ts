// Renders a plan graph as Graphviz DOT or a Mermaid `flowchart TD`, for docs and CI. Pure string building.
import { detailLine, runChipLabel } from './nodeMetrics.js';
import { STATE_LABELS } from './graphPalette.js';
import type { PlanGraphLayout, PlanGraphNode } from './graphTypes.js';

/** A Graphviz digraph: one box per tool (toolId, skill · script, state), cycles and unknown dependencies in red. */
export function renderGraphDot(layout: PlanGraphLayout, name = 'plan'): string {
  const inCycle = new Set(layout.cycles.flat());
  const lines = [
    `digraph ${dotId(name)} {`,
    '  rankdir=TB;',
    '  node [shape=box, style="rounded,filled", fillcolor="#f6f8fa", fontname="monospace", fontsize=11];',
    '  edge [color="#6e7781"];',
  ];
  for (const node of layout.nodes) {
    const attributes = [`label=${dotId(nodeLines(node).join('\n'))}`];
    if (inCycle.has(node.id)) attributes.push('color="#cf222e"', 'penwidth=2');
    lines.push(`  ${dotId(node.id)} [${attributes.join(', ')}];`);
  }
  for (const missing of layout.missing)
    lines.push(`  ${dotId(`missing:${missing.id}`)} [label=${dotId(`? ${missing.id}`)}, style="dashed", color="#cf222e", fontcolor="#cf222e"];`);
  for (const edge of layout.edges) {
    const from = edge.kind === 'unknownDependency' ? dotId(`missing:${edge.from}`) : dotId(edge.from);
    const style = edge.kind === 'dependency' ? '' : edge.kind === 'cycle' ? ' [color="#cf222e", penwidth=2]' : ' [color="#cf222e", style="dashed"]';
    lines.push(`  ${from} -> ${dotId(edge.to)}${style};`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

/** A Mermaid flowchart (top-down); node ids are positional (`t0`, `t1`, …) because toolIds may hold any character. */
export function renderGraphMermaid(layout: PlanGraphLayout): string {
  const ids = new Map(layout.nodes.map((node, index) => [node.id, `t${index}`]));
  const missingIds = new Map(layout.missing.map((missing, index) => [missing.id, `m${index}`]));
  const inCycle = new Set(layout.cycles.flat());
  const lines = ['flowchart TD'];
  for (const node of layout.nodes)
    lines.push(`  ${ids.get(node.id)}["${nodeLines(node).map(mermaidText).join('<br/>')}"]${inCycle.has(node.id) ? ':::cycle' : ''}`);
  for (const missing of layout.missing) lines.push(`  ${missingIds.get(missing.id)}["? ${mermaidText(missing.id)}"]:::missing`);
  for (const edge of layout.edges) {
    const from = edge.kind === 'unknownDependency' ? missingIds.get(edge.from) : ids.get(edge.from);
    lines.push(`  ${from} ${edge.kind === 'dependency' ? '-->' : '-.->'} ${ids.get(edge.to)}`);
  }
  lines.push('  classDef cycle stroke:#cf222e,stroke-width:2px');
  lines.push('  classDef missing stroke:#cf222e,stroke-dasharray:4 3,color:#cf222e');
  return lines.join('\n') + '\n';
}

function nodeLines(node: PlanGraphNode): string[] {
  const lines = [node.id, detailLine(node)];
  if (node.state) lines.push([STATE_LABELS[node.state], runChipLabel(node.durationMs, node.retryCount)].filter(Boolean).join(' · '));
  return lines;
}

/** A DOT quoted id: backslashes and quotes escaped, newlines as \n. */
function dotId(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}

/** Text inside a Mermaid quoted label: quotes and markup characters as entity codes. */
function mermaidText(text: string): string {
  return text.replace(/[#"<>&]/g, (character) => `#${character.charCodeAt(0)};`);
}
