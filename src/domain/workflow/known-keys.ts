/**
 * Every key of AWF's workflow format, in one place (AWF's `repository/yaml_types.go` structs,
 * its fixtures and awf-core.md §1), for the unknown-key check. A schema says what a value may
 * hold: a mapping with known keys, a list of one shape, or anything (`free`: options, inputs
 * passed on, plugin config). Scalars need no schema; a schema for a mapping is not applied to
 * a string (so `on_failure: done` and `on_failure: {message}` share one).
 */
export type KeySchema = { keys: Record<string, KeySchema | null> } | { list: KeySchema } | 'free' | 'states';

const map = (keys: Record<string, KeySchema | null>): KeySchema => ({ keys });
const list = (item: KeySchema): KeySchema => ({ list: item });
const leaves = (...names: string[]): Record<string, null> => Object.fromEntries(names.map((n) => [n, null]));

const HOOK_ACTIONS = list(map(leaves('log', 'command')));

/** Keys of every step, whatever its type. */
const COMMON: Record<string, KeySchema | null> = {
  // `use_template` and `parameters` are expanded away on load (step-templates.ts); left over, they warn.
  ...leaves('type', 'description', 'timeout', 'on_success', 'continue_on_error', 'depends_on'),
  on_failure: map(leaves('message', 'status')),
  transitions: list(map(leaves('when', 'goto'))),
  hooks: map({ pre: HOOK_ACTIONS, post: HOOK_ACTIONS }),
  capture: map(leaves('stdout', 'stderr', 'max_size', 'encoding')),
  // Strict on its own (USER.MCP_PROXY.UNKNOWN_KEY, ADR 017), so not walked again here.
  mcp_proxy: 'free',
};

const RETRY = map(
  leaves('max_attempts', 'initial_delay', 'max_delay', 'backoff', 'multiplier', 'jitter', 'retryable_exit_codes'),
);
const LOOP = leaves('body', 'max_iterations', 'break_when', 'on_complete');

/** The keys each step type adds to COMMON. `plugin` is any `type: <plugin>.<step>`. */
export const STEP_KEYS: Record<string, Record<string, KeySchema | null>> = {
  step: { ...leaves('command', 'script_file', 'dir'), retry: RETRY },
  agent: {
    ...leaves('provider', 'prompt', 'prompt_file', 'output_format', 'mode', 'system_prompt', 'role', 'dir'),
    options: 'free',
    skills: list(map(leaves('path'))),
    conversation: map(leaves('continue_from')),
  },
  terminal: leaves('status', 'message'),
  parallel: leaves('parallel', 'strategy', 'max_concurrent', 'fan_out'),
  for_each: { ...LOOP, ...leaves('fan_out', 'max_concurrent'), items: 'free' },
  while: { ...LOOP, while: null },
  operation: { operation: null, inputs: 'free', operation_inputs: 'free' },
  call_workflow: { workflow: null, inputs: 'free', outputs: 'free' },
  plugin: { config: 'free' },
};

export function stepSchema(type: string): Record<string, KeySchema | null> {
  return { ...COMMON, ...STEP_KEYS[type] };
}

const INPUT = map({
  ...leaves('name', 'type', 'description', 'required', 'default', 'secret'),
  validation: map(leaves('pattern', 'enum', 'min', 'max', 'file_exists', 'file_extension')),
});

/** The document: top-level keys, then `states` (an `initial` and one step per other key). */
export const WORKFLOW_SCHEMA: KeySchema = map({
  ...leaves('name', 'version', 'description', 'author', 'tags'),
  env: 'free',
  inputs: list(INPUT),
  // A called workflow's outputs (AWF's fixtures show them; flow maps them).
  outputs: 'free',
  plugins: 'free',
  hooks: map({
    workflow_start: HOOK_ACTIONS,
    workflow_end: HOOK_ACTIONS,
    workflow_error: HOOK_ACTIONS,
    workflow_cancel: HOOK_ACTIONS,
  }),
  states: 'states',
});
