type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isState = (v: unknown): v is Obj => isObj(v) && typeof v.type === 'string';
const END = 'doc_example_done';

/**
 * A YAML block as a whole workflow: a workflow is itself; a fragment is put in the smallest
 * workflow around it, so `awf validate` holds it to the same rules as a real file:
 * - states (`name: {type: …}`, one or several), or `states:` without `name`/`initial` (with
 *   `hooks:`, say): the first state is the initial one;
 * - an `mcp_proxy:` block: given to a script agent step.
 * Inputs it interpolates are declared; states it names but does not show are stand-ins: a
 * terminal for a route target, a `true` command for a branch, a loop body step or a template's
 * `.states.X`. Only a block of one state, or a whole workflow, is run; other fragments are
 * validated, since their stand-ins would decide what a run does.
 */
export function wrapFragment(data: unknown, inputs: Record<string, string>): { workflow: unknown; runs: boolean } {
  if (isObj(data) && 'states' in data && 'name' in data) return { workflow: data, runs: true };
  if (isObj(data) && Object.keys(data).length === 1 && isObj(data.mcp_proxy)) {
    const step = {
      type: 'agent',
      provider: 'script',
      prompt: 'unused',
      mcp_proxy: data.mcp_proxy,
      options: { calls: [{ tool: 'Glob', args: { pattern: '*' } }] },
    };
    return { workflow: workflow({ proxy_step: step }, {}, inputs), runs: false };
  }
  if (isObj(data) && isObj(data.states)) {
    const { states, ...rest } = data;
    return {
      workflow: workflow(
        Object.fromEntries(Object.entries(states).filter(([k]) => k !== 'initial')),
        rest,
        inputs,
        states.initial,
      ),
      runs: false,
    };
  }
  if (isObj(data) && Object.keys(data).length > 0 && Object.values(data).every(isState)) {
    return { workflow: workflow(data, {}, inputs), runs: Object.keys(data).length === 1 };
  }
  throw new Error(
    'a YAML block that is neither a workflow, states, an mcp_proxy block nor a project config: ' +
      'name its file in a first-line comment (# .awf/...), or mark it <!-- doc-test: skip: <why> -->',
  );
}

function workflow(shown: Obj, rest: Obj, given: Record<string, string>, initial?: unknown): Obj {
  const text = JSON.stringify(shown) + JSON.stringify(rest);
  const used = new Set([...text.matchAll(/\{\{\s*\.inputs\.(\w+)/g)].map((m) => m[1]).concat(Object.keys(given)));
  const states: Obj = { initial: typeof initial === 'string' ? initial : Object.keys(shown)[0] };
  for (const [name, s] of Object.entries(shown)) {
    const body = { ...(s as Obj) };
    const routed = ['on_success', 'on_failure', 'on_complete', 'transitions'].some((k) => body[k] !== undefined);
    if (body.type !== 'terminal' && !routed)
      body[body.type === 'for_each' || body.type === 'while' ? 'on_complete' : 'on_success'] = END;
    states[name] = body;
  }
  const named = Object.values(shown).map((s) => references(s as Obj));
  for (const target of named.flatMap((r) => r.targets)) if (!(target in states)) states[target] = { type: 'terminal' };
  for (const step of [...named.flatMap((r) => r.steps), ...[...text.matchAll(/\.states\.(\w+)\./g)].map((m) => m[1])]) {
    if (!(step in states)) states[step] = { type: 'step', command: 'true', on_success: END };
  }
  if (!(END in states)) states[END] = { type: 'terminal' };
  return { name: 'doc-example', ...rest, inputs: [...used].map((n) => ({ name: n, type: 'string' })), states };
}

function references(state: Obj): { targets: string[]; steps: string[] } {
  const targets = [state.on_success, state.on_failure, state.on_complete].filter(
    (t): t is string => typeof t === 'string',
  );
  if (Array.isArray(state.transitions)) {
    for (const t of state.transitions) if (isObj(t) && typeof t.goto === 'string') targets.push(t.goto);
  }
  const steps = [state.parallel, state.body].flatMap((l) =>
    Array.isArray(l) ? l.filter((s): s is string => typeof s === 'string') : [],
  );
  return { targets, steps };
}
