import * as v8 from 'node:v8';

/**
 * The one contract for state a provider holds of the process it runs in (signal handlers, values
 * read from the environment, the pid, cwd, fds): the provider puts that work in a function and
 * hands it to {@link onProcess} from its constructor. It never asks whether a snapshot is being
 * built; this file is where that is known (ADR 112).
 *
 * - In an ordinary process the function runs at once.
 * - While the startup snapshot is built (`mcp-serve`'s container is made then, ADR 094), it is
 *   kept, and runs in the process started from the blob when that start serves the container
 *   the blob holds ({@link bindDeferred}), before the first request. A start that builds its own
 *   container instead (extensions) drops them ({@link dropDeferred}): that container's providers
 *   bind at once, being made in an ordinary process.
 *
 * A binding must not log (the logger binds itself on first use) and runs once per process.
 * Made on first use instead, for what providers keep a reference to: the logger and the masker
 * (process-logging.ts), which call {@link refuseWhileBuildingSnapshot}.
 */
const deferred: Array<() => void> = [];

/** True while V8 builds the startup snapshot: the process then is the build's, not a user's. */
function buildingSnapshot(): boolean {
  return v8.startupSnapshot?.isBuildingSnapshot() ?? false;
}

/** Runs `bind` in the process that will use the provider: now, or when a start from the snapshot binds. */
export function onProcess(bind: () => void): void {
  if (buildingSnapshot()) deferred.push(bind);
  else bind();
}

/** In a start from the snapshot that serves the blob's container: runs what its providers deferred; how many. */
export function bindDeferred(): number {
  const bindings = deferred.splice(0);
  for (const bind of bindings) bind();
  return bindings.length;
}

/** In a start from the snapshot that builds its own container: the blob's container is not used. */
export function dropDeferred(): void {
  deferred.length = 0;
}

/** For per-process state made on first use: using it while the snapshot is built is a bug, made loud. */
export function refuseWhileBuildingSnapshot(what: string): void {
  if (buildingSnapshot())
    throw new Error(
      `${what} was used while the startup snapshot was built; it would carry the build process's state into every start`,
    );
}
