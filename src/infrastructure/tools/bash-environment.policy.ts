/** Names every command gets; anything else stays in the awf process unless the config passes it through. */
const BASE_NAMES = ['PATH', 'HOME', 'LANG', 'TERM', 'TMPDIR', 'USER', 'SHELL'];

/**
 * The environment a Bash call runs with: an allowlist, never the whole parent environment,
 * so API keys and tokens of the awf process do not reach commands the model writes.
 */
export function bashEnvironment(parent: NodeJS.ProcessEnv, passthrough: readonly string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (BASE_NAMES.includes(name) || name.startsWith('LC_') || passthrough.includes(name)) env[name] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return env;
}
