import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const FIXTURE_PLUGIN = resolve(__dirname, '../../fixtures/plugins/fixture-plugin.js');
export const EXAMPLE_PLUGINS = resolve(__dirname, '../../../examples/plugins');

export interface FixtureOperation {
  behaviour?: 'echo' | 'fail' | 'crash' | 'sleep' | 'pid';
  description?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

export interface FixtureSpec {
  startup?: 'normal' | 'plaintext' | 'silent' | 'garbage' | 'wrong-cookie' | 'stubborn';
  operations?: Record<string, FixtureOperation>;
  /** Raw plugin.yaml text instead of the generated one. */
  manifest?: string;
}

/** A plugins folder in a temp dir, one sub-folder per fixture plugin, removed by `cleanup`. */
export function fixturePlugins(plugins: Record<string, FixtureSpec>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'awf-plugins-test-'));
  for (const [name, spec] of Object.entries(plugins)) {
    const pluginDir = join(dir, name);
    mkdirSync(pluginDir);
    writeFileSync(
      join(pluginDir, 'plugin.yaml'),
      spec.manifest ??
        `name: ${name}\nversion: 0.0.1\ncapabilities: [operations]\ncommand: [node, ${JSON.stringify(FIXTURE_PLUGIN)}]\n`,
    );
    writeFileSync(
      join(pluginDir, 'fixture.json'),
      JSON.stringify({ name, startup: spec.startup, operations: spec.operations ?? {} }),
    );
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
