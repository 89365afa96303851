import type { FoundRepository } from '../../infrastructure/releases/github-releases.client';
import { jsonLine } from './global-flags';
import { renderTable } from './table.renderer';

/** AWF's search table (NAME, STARS, DESCRIPTION cut at 60), or the items as JSON (AWF: a bare array). */
export function renderFound(found: FoundRepository[], format: string, none: string): void {
  if (format === 'json') return void process.stdout.write(jsonLine({ repositories: found }));
  if (found.length === 0) return void process.stdout.write(`${none}\n`);
  const cut = (d: string | null) => (d && d.length > 60 ? `${d.slice(0, 57)}...` : (d ?? ''));
  const rows = found.map((r) => [r.full_name, String(r.stargazers_count ?? 0), cut(r.description)]);
  process.stdout.write(renderTable([['NAME', 'STARS', 'DESCRIPTION'], ...rows], format === 'table'));
}
