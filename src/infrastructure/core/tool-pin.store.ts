import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { awfDirs } from '../../application/workflow/run/awf-dirs';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import {
  canonicalJson,
  type PinFile,
  type PinnableTool,
  pinnedDefinition,
  type ToolChange,
  toolChanges,
} from '../../domain/policy/tool-pin';

/** The one digest of pinning: sha256 of the canonical JSON. */
export function pinDigest(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

/** A server's tools as a pin file: each tool's pinned fields and digest, and the digest of them all. */
export function pinFileOf(server: string, tools: readonly PinnableTool[], at = new Date()): PinFile {
  const pinned: PinFile['tools'] = {};
  for (const tool of tools) {
    const definition = pinnedDefinition(tool);
    pinned[tool.name] = { digest: pinDigest(definition), definition };
  }
  const digests = Object.fromEntries(Object.entries(pinned).map(([name, t]) => [name, t.digest]));
  return { version: 1, server, digest: pinDigest(digests), at: at.toISOString(), tools: pinned };
}

/** What `awf mcp trust` reviews: the pin, the tools last seen changed, and how they differ. */
export interface PinReview {
  pinned?: PinFile;
  seen?: PinFile;
  changes: ToolChange[];
}

/**
 * The pins of upstream MCP servers' tools (ADR 253): one small JSON file per server under
 * `<data dir>/mcp-pins/` (`$AWF_STORAGE`, which `--storage` sets), `<server>.json` as pinned and
 * `<server>.seen.json` as the proxy last saw them when they differed. Read with one readFileSync
 * when a server's tools are listed; written only on first sight, on a change and by `trust`,
 * always through a temp file and a rename (a first pin through a link, so two proxies that
 * meet a new server at once cannot overwrite each other's pin).
 */
export class ToolPinStore {
  constructor(private readonly fixedDir?: string) {}

  get dir(): string {
    return this.fixedDir ?? join(resolve(awfDirs(process.env).data_dir), 'mcp-pins');
  }

  /**
   * The tools of `tools` that differ from the server's pin, by name. The first listing of a
   * server pins it; a listing that differs is kept as seen (for `awf mcp trust`), one that
   * matches removes what was seen, so a reverted change is never trusted later.
   */
  check(server: string, tools: readonly PinnableTool[]): Map<string, ToolChange> {
    const seen = pinFileOf(server, tools);
    let pinned = this.read(server, 'pin');
    if (!pinned) {
      if (this.write(server, 'pin', seen, true)) return new Map();
      pinned = this.read(server, 'pin')!; // another proxy pinned it first
    }
    const changes = toolChanges(pinned.tools, seen.tools).filter((c) => c.kind !== 'removed');
    if (changes.length === 0) {
      rmSync(this.path(server, 'seen'), { force: true });
      return new Map();
    }
    this.write(server, 'seen', seen);
    return new Map(changes.map((c) => [c.tool, c]));
  }

  review(server: string): PinReview {
    const pinned = this.read(server, 'pin');
    const seen = this.read(server, 'seen');
    return { pinned, seen, changes: pinned && seen ? toolChanges(pinned.tools, seen.tools) : [] };
  }

  /** Pins the tools last seen: they replace the pin, and are no longer "seen". */
  trust(server: string): PinFile {
    const seen = this.read(server, 'seen')!;
    const pin = { ...seen, at: new Date().toISOString() };
    this.write(server, 'pin', pin);
    rmSync(this.path(server, 'seen'), { force: true });
    return pin;
  }

  path(server: string, kind: 'pin' | 'seen'): string {
    if (!/^[A-Za-z0-9_-]{1,48}$/.test(server)) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        `"${server}" is not an MCP server name`,
        { server },
        'Server names use letters, digits, "_" and "-" (at most 48).',
      );
    }
    return join(this.dir, kind === 'pin' ? `${server}.json` : `${server}.seen.json`);
  }

  private read(server: string, kind: 'pin' | 'seen'): PinFile | undefined {
    const file = this.path(server, kind);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw ioFailed(server, file, 'read', err);
    }
    try {
      const parsed = JSON.parse(text) as PinFile;
      if (parsed.version === 1 && parsed.server === server && typeof parsed.tools === 'object') return parsed;
    } catch {
      // reported below
    }
    throw new AwfError(
      ErrorCodes.MCP_PIN_INVALID,
      `the tool pins of MCP server "${server}" (${file}) are not a version 1 pin file`,
      { server, file },
      'Remove the file: the next run pins the tools the server lists then.',
    );
  }

  /** Atomic: a temp file renamed (or, with `onlyNew`, linked: false when the file exists) into place. */
  private write(server: string, kind: 'pin' | 'seen', pins: PinFile, onlyNew = false): boolean {
    const file = this.path(server, kind);
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(temp, `${JSON.stringify(pins, null, 2)}\n`, { mode: 0o600 });
      if (!onlyNew) renameSync(temp, file);
      else linkSync(temp, file);
      return true;
    } catch (err) {
      if (onlyNew && (err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw ioFailed(server, file, 'write', err);
    } finally {
      rmSync(temp, { force: true });
    }
  }
}

/** A pin that cannot be read or written: the server's tools are not served unpinned. */
function ioFailed(server: string, file: string, what: 'read' | 'write', err: unknown): AwfError {
  const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return new AwfError(
    ErrorCodes.SYSTEM_IO,
    `cannot ${what} the tool pins of MCP server "${server}" (${file}: ${why})`,
    { server, file },
    'awf keeps them under <data dir>/mcp-pins: make it writable, or choose another with --storage.',
  );
}
