import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { type ErrorCode, ErrorCodes } from '../../domain/errors/error-codes';
import type { ProxyStartFailures } from '../../domain/ports/proxy-start-failures.port';

/** The record of `configFile`: beside it, in the step's private directory (0700) that awf run removes. */
const recordOf = (configFile: string): string => `${configFile}.start-error.json`;

/**
 * ProxyStartFailures as a file next to the step's proxy config: written atomically (0600) by
 * mcp-serve, watched by awf run through the directory (inotify), so the step fails as soon
 * as mcp-serve gives up rather than when the agent ends.
 */
export class FileProxyStartFailures implements ProxyStartFailures {
  record(configFile: string, error: AwfError): void {
    const target = recordOf(configFile);
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(error.toJSON()), { mode: 0o600, flag: 'wx' });
      renameSync(temp, target);
    } catch {
      rmSync(temp, { force: true }); // the error still reaches mcp-serve's stderr and exit code
    }
  }

  read(configFile: string): AwfError | undefined {
    let raw: { code?: unknown; message?: unknown; hint?: unknown; details?: unknown };
    try {
      raw = JSON.parse(readFileSync(recordOf(configFile), 'utf8')) as typeof raw;
    } catch {
      return undefined; // none yet (or gone with the directory)
    }
    const code = typeof raw.code === 'string' ? (raw.code as ErrorCode) : ErrorCodes.UPSTREAM_START_FAILED;
    return new AwfError(
      code,
      typeof raw.message === 'string' ? raw.message : 'mcp-serve could not open its tools',
      typeof raw.details === 'object' && raw.details !== null ? (raw.details as Record<string, unknown>) : {},
      typeof raw.hint === 'string' ? raw.hint : undefined,
    );
  }

  watch(configFile: string, onFailure: (error: AwfError) => void): () => void {
    const name = basename(recordOf(configFile));
    let done = false;
    const check = (): void => {
      if (done) return;
      const error = this.read(configFile);
      if (!error) return;
      stop();
      onFailure(error);
    };
    let watcher: ReturnType<typeof watch> | undefined;
    try {
      watcher = watch(dirname(configFile), { persistent: false }, (_event, file) => {
        if (file === null || file === name) check();
      });
      watcher.on('error', () => undefined); // the directory went away: the step is over
    } catch {
      watcher = undefined; // no directory to watch: read() at the step's end still sees a record
    }
    const stop = (): void => {
      done = true;
      watcher?.close();
    };
    if (existsSync(recordOf(configFile))) check();
    return stop;
  }
}
