import type { CatalogueEntry } from '../../../domain/errors/error-catalogue';
import { jsonLine, type OutputFormat } from '../global-flags';
import { renderTable } from '../table.renderer';

/**
 * AWF's two layouts: one code in full (`Error Code:`, `Description:`, `Resolution:`,
 * `Related Codes:`), several as a block each; awf adds the exit code to both.
 */
export function renderCatalogue(entries: CatalogueEntry[], format: OutputFormat, asked: boolean): string {
  if (format === 'json') return jsonLine({ codes: entries.map(toJson) });
  if (format === 'quiet') return entries.map((e) => `${e.code}\n`).join('');
  if (format === 'table')
    return renderTable(
      [['CODE', 'EXIT', 'DESCRIPTION'], ...entries.map((e) => [e.code, exit(e), e.description])],
      true,
    );
  if (entries.length === 1 && asked) return single(entries[0]);
  return entries.map(block).join('\n');
}

function single(e: CatalogueEntry): string {
  const lines = [`Error Code: ${e.code}`, `Exit code: ${exit(e)}`, '', 'Description:', `  ${e.description}`];
  lines.push('', 'Resolution:', `  ${e.resolution}`);
  if (e.related?.length) lines.push('', 'Related Codes:', ...e.related.map((r) => `  - ${r}`));
  return `${lines.join('\n')}\n`;
}

function block(e: CatalogueEntry): string {
  const lines = [`${e.code} (exit ${exit(e)})`, `  ${e.description}`, `  Resolution: ${e.resolution}`];
  if (e.related?.length) lines.push(`  Related: ${e.related.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

function exit(e: CatalogueEntry): string {
  return e.exitCode === null ? 'none: a tool result' : String(e.exitCode);
}

function toJson(e: CatalogueEntry): Record<string, unknown> {
  return {
    code: e.code,
    exit_code: e.exitCode,
    description: e.description,
    resolution: e.resolution,
    ...(e.related?.length ? { related_codes: e.related } : {}),
  };
}
