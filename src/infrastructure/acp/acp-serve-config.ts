import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/** `awf acp-serve --config FILE`: YAML or JSON; AWF reads `workflows_dir` alone, and so do we. */
export interface AcpServeConfig {
  /** Absolute; when set, the editor sees the workflows of this directory only. */
  workflowsDir?: string;
}

/** A relative `workflows_dir` is taken from the current directory, as AWF takes it (the editor starts us there). */
export function loadAcpServeConfig(file: string): AcpServeConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw invalid(`cannot read the acp-serve config ${file}: ${(err as Error).message}`, file);
  }
  let data: unknown;
  try {
    data = parse(text) ?? {};
  } catch (err) {
    throw invalid(`the acp-serve config ${file} is not YAML or JSON: ${(err as Error).message}`, file);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw invalid(`the acp-serve config ${file} must be a mapping (e.g. \`workflows_dir: .awf/workflows\`)`, file);
  const dir = (data as Record<string, unknown>).workflows_dir;
  if (dir === undefined || dir === null || dir === '') return {};
  if (typeof dir !== 'string') throw invalid(`workflows_dir in ${file} must be a path`, file);
  const workflowsDir = resolve(dir);
  if (!isDirectory(workflowsDir)) throw invalid(`workflows_dir "${dir}" in ${file} is not a directory`, file);
  return { workflowsDir };
}

function invalid(message: string, file: string): AwfError {
  return new AwfError(
    ErrorCodes.ACP_CONFIG_INVALID,
    message,
    { file },
    'Point --config at a YAML or JSON file; `workflows_dir`, when given, must name an existing directory.',
  );
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
