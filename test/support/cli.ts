import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The built CLI: e2e tests run exactly what users run. */
export const AWF_MAIN = resolve(__dirname, '../../dist/main.js');
export const REPO_ROOT = resolve(__dirname, '../..');

export function runAwf(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeout?: number } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [AWF_MAIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, AWF_LOG_LEVEL: 'warn', ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: options.timeout ?? 20_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * `runAwf` without blocking the event loop: for a test that holds HTTP connections open meanwhile
 * (a blocked loop misses the server closing an idle keep-alive socket, and the next request fails).
 */
export function runAwfAsync(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnAwf(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end();
    child.on('close', (code) => resolve({ status: code ?? -1, stdout, stderr }));
  });
}

export function spawnAwf(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return spawn(process.execPath, [AWF_MAIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, AWF_LOG_LEVEL: 'warn', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** A scratch directory that the test removes; `files` are written relative to it. */
export function scratchDir(files: Record<string, string> = {}): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'awf-test-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a project whose .awf/config.yaml loads the given extension modules. */
export function projectWithExtensions(extensions: string[]): { dir: string; cleanup: () => void } {
  return scratchDir({
    '.awf/config.yaml': `extensions:\n${extensions.map((e) => `  - ${JSON.stringify(e)}`).join('\n')}\n`,
  });
}

export const ECHO_EXTENSION = resolve(REPO_ROOT, 'test/fixtures/extension/echo-tools.module.js');
