import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { awfDirs } from '../../application/workflow/run/awf-dirs';
import type { StepTemplateLookup, StepTemplateSource } from '../../domain/workflow/step-templates';

/**
 * The directories `use_template: <name>` looks in, first hit wins: the workflow's own `.awf`
 * (a workflow in `<x>/workflows/` reads `<x>/templates`, the local-before-global rule awf
 * applies to scripts and prompts), then AWF's two: ./.awf/templates and <storage>/templates.
 */
export function stepTemplateDirs(env: NodeJS.ProcessEnv, cwd: string, sourceDir: string): string[] {
  const dirs = [
    ...(basename(sourceDir) === 'workflows' ? [join(dirname(sourceDir), 'templates')] : []),
    join(cwd, '.awf', 'templates'),
    join(resolve(cwd, awfDirs(env).data_dir), 'templates'),
  ];
  return [...new Set(dirs)];
}

/** StepTemplateSource over `<dir>/<name>.yaml` files. */
export class FsStepTemplates implements StepTemplateSource {
  constructor(private readonly dirs: readonly string[]) {}

  find(name: string): StepTemplateLookup {
    for (const dir of this.dirs) {
      const file = join(dir, `${name}.yaml`);
      if (!existsSync(file) || statSync(file).isDirectory()) continue;
      try {
        const doc = parseDocument(readFileSync(file, 'utf8'));
        if (doc.errors.length > 0) return { file, error: doc.errors[0].message.split('\n')[0] };
        return { file, doc: doc.toJS() };
      } catch (err) {
        return { file, error: err instanceof Error ? err.message : String(err) };
      }
    }
    return { searched: [...this.dirs] };
  }
}
