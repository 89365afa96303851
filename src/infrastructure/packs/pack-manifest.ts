import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { isVersion, satisfies } from '../releases/release-version';
import { PACK_NAME, RESERVED_PACK_NAMES } from '../workflow/pack-paths';

/** A pack's `manifest.yaml` (AWF's fields). */
export interface PackManifest {
  name: string;
  version: string;
  description?: string;
  author?: string;
  license?: string;
  awf_version: string;
  workflows: string[];
  /** plugin name → version constraint. */
  plugins: Record<string, string>;
}

/** AWF's cap on manifest.yaml (a hostile pack cannot make awf read a huge file). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * Reads and checks `<dir>/manifest.yaml` as AWF does: name, SemVer version, an `awf_version`
 * constraint that accepts `awfVersion` (when given), a non-empty `workflows` list whose every
 * entry is a name with its `workflows/<name>.yaml`. Throws USER.PACK.* naming what is wrong.
 */
export function readPackManifest(dir: string, awfVersion?: string): PackManifest {
  const file = join(dir, 'manifest.yaml');
  if (!existsSync(file)) throw invalid(dir, 'has no manifest.yaml at its root');
  if (statSync(file).size > MAX_MANIFEST_BYTES) throw invalid(dir, 'has a manifest.yaml over 1 MiB');
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw invalid(dir, `manifest.yaml is not YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid(dir, 'manifest.yaml is not a mapping');
  const m = raw as Record<string, unknown>;
  const name = String(m.name ?? '');
  if (!PACK_NAME.test(name))
    throw invalid(dir, `name ${JSON.stringify(m.name)} is not lower-case letters, digits and "-"`);
  if (RESERVED_PACK_NAMES.includes(name)) throw invalid(dir, `name "${name}" is reserved (local, global, env)`);
  if (!isVersion(m.version)) throw invalid(dir, `version ${JSON.stringify(m.version)} is not SemVer (X.Y.Z)`);
  const constraint = String(m.awf_version ?? '');
  if (satisfies('0.0.0', constraint) === undefined) {
    throw invalid(dir, `awf_version ${JSON.stringify(m.awf_version)} is not a version constraint such as ">=0.1.0"`);
  }
  const workflows = Array.isArray(m.workflows) ? m.workflows.map(String) : [];
  if (workflows.length === 0) throw invalid(dir, 'workflows lists no workflow');
  for (const wf of workflows) {
    if (!PACK_NAME.test(wf)) throw invalid(dir, `workflow name ${JSON.stringify(wf)} is not a name`);
    if (!existsSync(join(dir, 'workflows', `${wf}.yaml`)))
      throw invalid(dir, `lists ${wf} but has no workflows/${wf}.yaml`);
  }
  const plugins = typeof m.plugins === 'object' && m.plugins !== null ? (m.plugins as Record<string, unknown>) : {};
  const manifest: PackManifest = {
    name,
    version: m.version as string,
    ...(typeof m.description === 'string' ? { description: m.description } : {}),
    ...(typeof m.author === 'string' ? { author: m.author } : {}),
    ...(typeof m.license === 'string' ? { license: m.license } : {}),
    awf_version: constraint,
    workflows,
    plugins: Object.fromEntries(Object.entries(plugins).map(([k, v]) => [k, String(v)])),
  };
  if (awfVersion && !satisfies(awfVersion, constraint)) {
    throw new AwfError(
      ErrorCodes.PACK_INCOMPATIBLE,
      `workflow pack ${name} requires AWF ${constraint}; awf implements AWF ${awfVersion}`,
      { pack: name, awf_version: constraint, version: awfVersion },
      'Install a release of the pack made for this version (owner/repo@X.Y.Z), or upgrade awf.',
    );
  }
  return manifest;
}

function invalid(dir: string, what: string): AwfError {
  return new AwfError(
    ErrorCodes.PACK_INVALID_MANIFEST,
    `workflow pack ${dir}: ${what}`,
    { dir },
    'A pack holds manifest.yaml (name, version, awf_version, workflows) and workflows/<name>.yaml at its root.',
  );
}
