import { homedir } from 'node:os';
import { join } from 'node:path';
import { processSettings } from '../../../domain/settings/process-settings';
import type { Workflow } from '../../../domain/workflow/workflow.model';

/** AWF's directories as templates read them (`{{.awf.scripts_dir}}`), keyed as AWF keys them. */
export type AwfDirs = Record<string, string>;

/** The home directory, as AWF takes it ($HOME, else the account's). */
export function homeDir(env: Readonly<Record<string, string | undefined>>): string {
  return env.HOME || homedir();
}

/**
 * AWF's layout (its infra/xdg): the config dir is $AWF_CONFIG_HOME, else $XDG_CONFIG_HOME/awf,
 * else ~/.config/awf, and prompts, scripts, workflows, skills and roles live under it; the data
 * dir is $XDG_DATA_HOME/awf (awf's `--storage`, then $AWF_STORAGE, wins: it is where awf keeps its
 * data), and plugins live under $XDG_DATA_HOME/awf/plugins, where awf looks them up.
 */
export function awfDirs(
  env: Readonly<Record<string, string | undefined>>,
  storage: string | undefined = processSettings().storage,
): AwfDirs {
  const home = homeDir(env);
  const config = env.AWF_CONFIG_HOME || join(env.XDG_CONFIG_HOME || join(home, '.config'), 'awf');
  const xdgData = join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'awf');
  return {
    config_dir: config,
    data_dir: storage || env.AWF_STORAGE || xdgData,
    prompts_dir: join(config, 'prompts'),
    scripts_dir: join(config, 'scripts'),
    workflows_dir: join(config, 'workflows'),
    plugins_dir: join(xdgData, 'plugins'),
    skills_dir: join(config, 'skills'),
    roles_dir: join(config, 'roles'),
  };
}

/** `.awf.*` as one workflow sees them: AWF's directories, and `pack_name` for a pack's workflow (AWF). */
export function awfDirsOf(
  workflow: Pick<Workflow, 'pack'>,
  env: Readonly<Record<string, string | undefined>>,
): AwfDirs {
  const dirs = awfDirs(env);
  return workflow.pack ? { ...dirs, pack_name: workflow.pack } : dirs;
}
