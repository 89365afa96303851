import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { awfDirs } from '../../application/workflow/run/awf-dirs';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import {
  canonicalJson,
  type PinFile,
  type PinKey,
  type PinnableTool,
  pinnedDefinition,
  pinOwner,
  type ToolChange,
  toolChanges,
} from '../../domain/policy/tool-pin';

/** The one digest of pinning: sha256 of the canonical JSON. */
export function pinDigest(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

/** A source's tools as a pin file: each tool's pinned fields and digest, and the digest of them all. */
export function pinFileOf(server: PinKey, tools: readonly PinnableTool[], at = new Date(), version?: string): PinFile {
  const pinned: PinFile['tools'] = {};
  for (const tool of tools) {
    const definition = pinnedDefinition(tool);
    pinned[tool.name] = { digest: pinDigest(definition), definition };
  }
  const digests = Object.fromEntries(Object.entries(pinned).map(([name, t]) => [name, t.digest]));
  const pkg = version === undefined ? {} : { package_version: version };
  return { version: 1, server, ...pkg, digest: pinDigest(digests), at: at.toISOString(), tools: pinned };
}

/** One line of `<pins dir>/audit.jsonl`: every change of a pin, whoever made it. */
export interface PinAuditLine {
  at: string;
  key: PinKey;
  event: 'pinned' | 'repinned' | 'trusted';
  digest: string;
  from_digest?: string;
  version?: string;
  from_version?: string;
}

/** What `awf mcp trust` reviews: the pin, the tools last seen changed, and how they differ. */
export interface PinReview {
  pinned?: PinFile;
  seen?: PinFile;
  changes: ToolChange[];
}

/**
 * The pins of tools (ADR 253, ADR 305): one small JSON file per upstream server, plugin or
 * extension module under `<data dir>/mcp-pins/` (`$AWF_STORAGE`, which `--storage` sets),
 * `<key>.json` as pinned and `<key>.seen.json` as the proxy last saw them when they differed.
 * Read with one readFileSync when the tools are listed; written only on first sight, on a change,
 * on a new package version and by `trust`, always through a temp file and a rename (a first pin
 * through a link, so two proxies that meet a new source at once cannot overwrite each other's
 * pin). Every pin written is a line of `audit.jsonl` beside them.
 */
export class ToolPinStore {
  constructor(private readonly fixedDir?: string) {}

  get dir(): string {
    return this.fixedDir ?? join(resolve(awfDirs(process.env).data_dir), 'mcp-pins');
  }

  /**
   * The tools of `tools` that differ from the pin, by name. The first listing pins them; so does
   * a listing of another package `version` (a plugin or module the user installed anew). A
   * listing that differs is kept as seen (for `awf mcp trust`), one that matches removes what
   * was seen, so a reverted change is never trusted later.
   */
  check(server: PinKey, tools: readonly PinnableTool[], version?: string): Map<string, ToolChange> {
    const seen = pinFileOf(server, tools, new Date(), version);
    let pinned = this.read(server, 'pin');
    if (!pinned) {
      if (this.write(server, 'pin', seen, true)) return (this.audit(seen, 'pinned'), new Map());
      pinned = this.read(server, 'pin')!; // another proxy pinned it first
    }
    if (version !== undefined && pinned.package_version !== version) {
      this.repin(seen, pinned);
      return new Map();
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
  trust(server: PinKey): PinFile {
    const seen = this.read(server, 'seen')!;
    const was = this.read(server, 'pin');
    const pin = { ...seen, at: new Date().toISOString() };
    this.write(server, 'pin', pin);
    rmSync(this.path(server, 'seen'), { force: true });
    this.audit(pin, 'trusted', was);
    return pin;
  }

  /**
   * Pins a package version the user installed (`awf plugin install|update`). The version pinned
   * already keeps its pin: a definition that changed under it still needs `awf mcp trust`.
   */
  repin(pin: PinFile, was = this.read(pin.server, 'pin')): void {
    if (was && was.package_version === pin.package_version) return;
    this.write(pin.server, 'pin', pin);
    rmSync(this.path(pin.server, 'seen'), { force: true });
    this.audit(pin, was ? 'repinned' : 'pinned', was);
  }

  /** `docs` → `docs.json`; `plugin:kv` → `plugin.kv.json` (a "." is in no server name). */
  path(server: PinKey, kind: 'pin' | 'seen'): string {
    const [, source, name] = /^(?:(plugin|module):)?([A-Za-z0-9_-]{1,48})$/.exec(server) ?? [];
    if (!name) {
      throw new AwfError(
        ErrorCodes.CLI_INVALID_ARGS,
        `"${server}" is not an MCP server name, plugin:<name> or module:<name>`,
        { server },
        'Names use letters, digits, "_" and "-" (at most 48).',
      );
    }
    const base = source ? `${source}.${name}` : name;
    return join(this.dir, kind === 'pin' ? `${base}.json` : `${base}.seen.json`);
  }

  get auditFile(): string {
    return join(this.dir, 'audit.jsonl');
  }

  /** One line per pin written, one `write` each (O_APPEND): lines of two processes never interleave. */
  private audit(pin: PinFile, event: PinAuditLine['event'], was?: PinFile): void {
    const line: PinAuditLine = {
      at: pin.at,
      key: pin.server,
      event,
      digest: pin.digest,
      ...(was ? { from_digest: was.digest } : {}),
      ...(pin.package_version !== undefined ? { version: pin.package_version } : {}),
      ...(was?.package_version !== undefined ? { from_version: was.package_version } : {}),
    };
    try {
      appendFileSync(this.auditFile, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    } catch (err) {
      throw ioFailed(pin.server, this.auditFile, 'write', err);
    }
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
      `the tool pins of ${pinOwner(server)} (${file}) are not a version 1 pin file`,
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
    `cannot ${what} the tool pins of ${pinOwner(server)} (${file}: ${why})`,
    { server, file },
    'awf keeps them under <data dir>/mcp-pins: make it writable, or choose another with --storage.',
  );
}
