import type { AwfError } from '../errors/awf-error';

/**
 * How a step's `mcp-serve` tells the `awf run` that wrote its config that it could not open
 * its tools (an upstream MCP server that would not start, a collision only its tools/list
 * shows). The upstream servers start once per step, in mcp-serve, so `awf run` learns of such
 * a failure from here: it stops the agent and fails the step with this error.
 *
 * - `record` (mcp-serve) keeps `error` for the config `file` where only the run's user can
 *   read it, next to the config in the step's private directory. It never throws: a record
 *   that cannot be written leaves the error to mcp-serve's exit and stderr.
 * - `read` (awf run) gives the recorded error, or undefined.
 * - `watch` (awf run) calls `onFailure` once, when one is recorded (or at once if one is);
 *   the function it returns stops watching. Removing the step's private directory removes
 *   the record.
 */
export interface ProxyStartFailures {
  record(configFile: string, error: AwfError): void;
  read(configFile: string): AwfError | undefined;
  watch(configFile: string, onFailure: (error: AwfError) => void): () => void;
}

export const PROXY_START_FAILURES = Symbol.for('awf.ProxyStartFailures');
