import { homedir } from 'node:os';
import { awfDirs } from '../../application/workflow/run/awf-dirs';
import { join, resolve } from 'node:path';

export interface WorkflowDir {
  dir: string;
  source: 'env' | 'local' | 'global';
}

/** AWF's lookup order, first hit wins: $AWF_WORKFLOWS_PATH, ./.awf/workflows, the user config dir. */
export function workflowDirs(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): WorkflowDir[] {
  const dirs: WorkflowDir[] = [];
  for (const entry of (env.AWF_WORKFLOWS_PATH ?? '').split(':').filter(Boolean))
    dirs.push({ dir: resolve(cwd, entry), source: 'env' });
  dirs.push({ dir: join(cwd, '.awf', 'workflows'), source: 'local' });
  const configHome = env.AWF_CONFIG_HOME ?? join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'awf');
  dirs.push({ dir: join(configHome, 'workflows'), source: 'global' });
  return dirs;
}

/** Per-run files (the steps' audit events): $AWF_STORAGE, else $XDG_DATA_HOME/awf, under runs/. */
export function runsDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(awfDirs(env).data_dir, 'runs');
}
