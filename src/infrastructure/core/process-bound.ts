import type { INestApplicationContext } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import * as v8 from 'node:v8';

/**
 * A provider that holds state of the process it runs in: signal handlers, values read from
 * the environment. `awf mcp-serve` builds its container while the startup snapshot is built
 * (ADR 094, amended), so such state must not be made in the constructor then: the provider
 * binds in its constructor only when no snapshot is being built, and a start from the
 * snapshot calls {@link bindToProcess} once, before it serves. `bindProcess` must be
 * idempotent within a process and must not log (the logger binds itself on first use).
 */
export interface ProcessBound {
  bindProcess(): void;
}

/** True while V8 builds the startup snapshot: the process then is the build's, not a user's. */
export function buildingSnapshot(): boolean {
  return v8.startupSnapshot?.isBuildingSnapshot() ?? false;
}

/** For per-process state made on first use: using it while the snapshot is built is a bug, made loud. */
export function refuseWhileBuildingSnapshot(what: string): void {
  if (buildingSnapshot()) throw new Error(`${what} was used while the startup snapshot was built; it would carry the build process's state into every start`);
}

function isProcessBound(instance: unknown): instance is ProcessBound {
  return typeof instance === 'object' && instance !== null && typeof (instance as Partial<ProcessBound>).bindProcess === 'function';
}

/** Binds every ProcessBound provider of `app` (extensions' too) to the running process; how many. */
export function bindToProcess(app: INestApplicationContext): number {
  const instances = new Set(app.get(DiscoveryService, { strict: false }).getProviders().map((w) => w.instance as unknown));
  let bound = 0;
  for (const instance of instances) {
    if (!isProcessBound(instance)) continue;
    instance.bindProcess();
    bound++;
  }
  return bound;
}
