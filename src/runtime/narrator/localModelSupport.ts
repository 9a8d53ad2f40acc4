// Whether this install can run the local model: node-llama-cpp and this platform's binary package sit beside the model worker (the universal VSIX ships neither).
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** The node-llama-cpp binary package of each VS Code target (CPU builds; Metal on Apple silicon). */
export const BINARY_PACKAGES: Readonly<Record<string, string>> = {
  'darwin-arm64': '@node-llama-cpp/mac-arm64-metal',
  'darwin-x64': '@node-llama-cpp/mac-x64',
  'win32-x64': '@node-llama-cpp/win-x64',
  'win32-arm64': '@node-llama-cpp/win-arm64',
  'linux-arm64': '@node-llama-cpp/linux-arm64',
  'linux-x64': '@node-llama-cpp/linux-x64',
};

export type LocalModelSupport = { readonly supported: true } | { readonly supported: false; readonly reason: string };

/** The folder Node would load `name` from, starting at `directory` (node_modules lookup upwards), if any. */
function packageFolder(name: string, directory: string): string | undefined {
  for (let current = path.resolve(directory); ; current = path.dirname(current)) {
    const candidate = path.join(current, 'node_modules', ...name.split('/'));
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * Looks for node-llama-cpp and this platform's binary package from `workerDirectory` (where the model worker runs).
 * Finding them does not prove the binary loads on this machine: the worker's first load says that (and the
 * narrator then falls back with its error).
 */
export function localModelSupport(workerDirectory: string, platform: string = process.platform, architecture: string = process.arch): LocalModelSupport {
  const target = `${platform}-${architecture}`;
  const binaryPackage = BINARY_PACKAGES[target];
  if (!packageFolder('node-llama-cpp', workerDirectory)) {
    const advice = binaryPackage ? `install the ${target} package of Narratoria to use the local model` : `there is no local-model build for ${target}`;
    return { supported: false, reason: `this universal package of Narratoria has no native code, so no local model (${advice})` };
  }
  if (!binaryPackage) return { supported: false, reason: `node-llama-cpp has no prebuilt binary for ${target}` };
  if (!packageFolder(binaryPackage, workerDirectory))
    return { supported: false, reason: `the local-model binary for ${target} (${binaryPackage}) is not installed` };
  return { supported: true };
}
