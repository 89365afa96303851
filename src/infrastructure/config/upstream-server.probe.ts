import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { UpstreamServerProbe } from '../../domain/ports/upstream-server-probe.port';
import type { UpstreamServerSpec } from '../../domain/proxy/upstream-server';
import { expandedServer } from '../../domain/proxy/upstream-variables';

/** The cheap checks of a stdio server: its variables, its cwd, its command on PATH, executable. */
export class FsUpstreamServerProbe implements UpstreamServerProbe {
  constructor(
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
    private readonly cwd: string = process.cwd(),
  ) {}

  check(spec: UpstreamServerSpec): void {
    const server = expandedServer(spec, this.env);
    if (!server.command) return; // remote: its URL is checked by validate; connecting is mcp-serve's
    const cwd = server.cwd ? resolve(this.cwd, server.cwd) : this.cwd;
    if (server.cwd && !isDirectory(cwd)) throw cannotStart(spec, `its cwd ${cwd} is not a directory`);
    const path = server.env?.PATH ?? this.env.PATH ?? '';
    if (!findExecutable(server.command, path, cwd)) {
      throw cannotStart(
        spec,
        server.command.includes('/')
          ? `its command ${server.command} does not exist or is not executable`
          : `its command "${server.command}" is not on PATH`,
      );
    }
  }
}

function findExecutable(command: string, path: string, cwd: string): boolean {
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(cwd, command)]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, command));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return !statSync(file).isDirectory();
    } catch {
      return false;
    }
  });
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function cannotStart(spec: UpstreamServerSpec, why: string): AwfError {
  return new AwfError(
    ErrorCodes.UPSTREAM_START_FAILED,
    `MCP server "${spec.name}" cannot start: ${why}`,
    { server: spec.name, command: spec.command },
    `Install it, or fix command/cwd of "${spec.name}" (docs/upstream-servers.md).`,
  );
}
