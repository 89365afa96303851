/**
 * Tool pinning (the "rug pull" defence, docs/policy.md, ADR 253, ADR 305): what awf records of
 * the tools of an upstream server, a plugin or an extension module the first time it sees them,
 * and how a later listing is compared with that record. Pure: the digest (sha256) and the file
 * live in infrastructure/core.
 */

/** The parts of a tool an agent reads and acts on: a change to any of them is a change. */
export const PINNED_FIELDS = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;
export type PinnedField = (typeof PINNED_FIELDS)[number];

/** A tool as its server lists it (its own name, not the prefixed one the agent sees). */
export interface PinnableTool {
  name: string;
  title?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

export interface PinnedTool {
  /** `sha256:<hex>` of the canonical JSON of `definition`. */
  digest: string;
  definition: PinnableTool;
}

/**
 * Whose tools a pin holds: an upstream MCP server's name (`docs`), or a tool source with a
 * package version, `plugin:<name>` or `module:<name>` (ADR 305).
 */
export type PinKey = string;

/** Whose tools, for a person: `MCP server "docs"`, `plugin "kv"`, `extension module "tickets"`. */
export function pinOwner(key: PinKey): string {
  const [kind, name] = key.includes(':') ? key.split(':', 2) : ['mcp', key];
  return `${kind === 'plugin' ? 'plugin' : kind === 'module' ? 'extension module' : 'MCP server'} "${name}"`;
}

/** One source's tools as pinned (`<server>.json`) or as last seen changed (`<server>.seen.json`). */
export interface PinFile {
  version: 1;
  /** The pin key (historically always a server's name). */
  server: PinKey;
  /** The package version of a plugin or extension module: a new version is pinned anew. */
  package_version?: string;
  /** `sha256:<hex>` of the canonical JSON of every tool's digest by name. */
  digest: string;
  at: string;
  tools: Record<string, PinnedTool>;
}

/** How one tool differs from its pin: a tool the pin does not hold is `new`. */
export interface ToolChange {
  tool: string;
  kind: 'new' | 'changed' | 'removed';
  fields: PinnedField[];
}

/** JSON with object keys sorted at every level: equal values give equal text, whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Only the pinned fields, absent ones left out (an SDK may add fields of its own). */
export function pinnedDefinition(tool: PinnableTool): PinnableTool {
  const out: PinnableTool = { name: tool.name };
  for (const field of PINNED_FIELDS) if (tool[field] !== undefined) out[field] = tool[field];
  return out;
}

/** The fields of `now` that differ from `pinned`. */
export function changedFields(pinned: PinnableTool, now: PinnableTool): PinnedField[] {
  return PINNED_FIELDS.filter((f) => canonicalJson(pinned[f]) !== canonicalJson(now[f]));
}

/** How `seen` differs from `pinned`, tool by tool, in name order; empty when they are the same. */
export function toolChanges(pinned: PinFile['tools'], seen: PinFile['tools']): ToolChange[] {
  const names = [...new Set([...Object.keys(pinned), ...Object.keys(seen)])].sort();
  const changes: ToolChange[] = [];
  for (const tool of names) {
    const was = pinned[tool];
    const now = seen[tool];
    if (!was) changes.push({ tool, kind: 'new', fields: [] });
    else if (!now) changes.push({ tool, kind: 'removed', fields: [] });
    else if (was.digest !== now.digest) {
      changes.push({ tool, kind: 'changed', fields: changedFields(was.definition, now.definition) });
    }
  }
  return changes;
}

/** What changed, as the refusal and the trust command say it: "its description and inputSchema changed". */
export function describeChange(change: ToolChange): string {
  if (change.kind === 'new') return 'it is new on a server whose tools are pinned';
  if (change.kind === 'removed') return 'it is gone';
  const fields = change.fields.length ? change.fields : ['definition'];
  const list = fields.length > 1 ? `${fields.slice(0, -1).join(', ')} and ${fields[fields.length - 1]}` : fields[0];
  return `its ${list} changed`;
}

/**
 * Why a tool is hidden and refused (`ToolDefinition.changed`): what changed and the one command
 * that shows the change and pins it again, `awf mcp trust <key>`, for every kind of source.
 */
export function changedReason(change: ToolChange, key: PinKey, version?: string): string {
  const trust = `\`awf mcp trust ${key}\``;
  if (version === undefined) {
    return (
      `${describeChange(change)} since awf pinned the tools of ${pinOwner(key)}. ` +
      `A person can review the change and pin it with ${trust}`
    );
  }
  return (
    `${describeChange(change)} since awf pinned the tools of ${pinOwner(key)} ${version}, whose version ` +
    `is still ${version}. Installing a new version pins its tools anew; a person can review this ` +
    `change and pin it with ${trust}`
  );
}

/**
 * The lines of a field's change, for a person to read: each leaf that differs as
 * `path: pinned → now` (strings quoted as JSON), at most `max` lines.
 */
export function fieldDiff(field: PinnedField, was: unknown, now: unknown, max = 40): string[] {
  const lines: string[] = [];
  const walk = (path: string, a: unknown, b: unknown): void => {
    if (lines.length >= max || canonicalJson(a) === canonicalJson(b)) return;
    const object = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
    if (object(a) && object(b) && Array.isArray(a) === Array.isArray(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const k of keys) walk(Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`, a[k], b[k]);
      return;
    }
    const show = (v: unknown): string => (v === undefined ? '(none)' : canonicalJson(v));
    lines.push(`${path}: ${show(a)} → ${show(b)}`);
  };
  walk(field, was, now);
  return lines;
}
