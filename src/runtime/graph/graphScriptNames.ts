// The plan graph's ScriptNames for a story: a toolPath naming a script by an alias, resolved as validation resolves it (inside the skills roots only).
import { pathFromRoot } from '../common/pathContainment.js';
import { resolveWith, toolPathResolver, type ToolPathPolicy } from '../validation/toolPathPolicy.js';
import type { ScriptNames } from './graphTypes.js';

/** ScriptNames over the story's skills roots; each distinct toolPath is resolved once per instance (one graph). */
export function storyScriptNames(policy: ToolPathPolicy): ScriptNames {
  const resolver = toolPathResolver(policy);
  const known = new Map<string, ReturnType<ScriptNames>>();
  return (toolPath) => {
    if (!known.has(toolPath)) {
      const resolution = resolveWith(resolver, toolPath);
      const named = resolution.ok ? resolution.named : undefined;
      known.set(toolPath, named ? { toolPath: pathFromRoot(named.file, resolver.root), written: named.written } : undefined);
    }
    return known.get(toolPath);
  };
}
