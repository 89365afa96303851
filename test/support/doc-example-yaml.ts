type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const END = 'doc_example_done';

/**
 * A YAML block as a whole workflow: a workflow is itself; one state (`name: {type: …}`) or an
 * `mcp_proxy:` block is put in the smallest workflow around it, so `awf validate` holds it to
 * the same rules as a real file. Inputs it interpolates are declared; states it goes to that
 * the fragment does not show become terminals.
 */
export function wrapFragment(data: unknown, inputs: Record<string, string>): { workflow: unknown; runs: boolean } {
  if (isObj(data) && 'states' in data) return { workflow: data, runs: true };
  // A proxy block alone says which tools a step gets, not what it does with them: validated only.
  if (isObj(data) && Object.keys(data).length === 1 && isObj(data.mcp_proxy)) {
    const step = { type: 'agent', provider: 'script', prompt: 'unused', mcp_proxy: data.mcp_proxy, options: { calls: [{ tool: 'Glob', args: { pattern: '*' } }] } };
    return { workflow: workflow('proxy_step', step, inputs), runs: false };
  }
  const keys = isObj(data) ? Object.keys(data) : [];
  if (isObj(data) && keys.length === 1 && isObj(data[keys[0]]) && typeof (data[keys[0]] as Obj).type === 'string') {
    return { workflow: workflow(keys[0], data[keys[0]] as Obj, inputs), runs: true };
  }
  throw new Error('a YAML block that is neither a workflow, one state, an mcp_proxy block nor a project config: '
    + 'name its file in a first-line comment (# .awf/...), or mark it <!-- doc-test: skip: <why> -->');
}

function workflow(name: string, state: Obj, given: Record<string, string>): Obj {
  const text = JSON.stringify(state);
  const used = new Set([...text.matchAll(/\{\{\s*\.inputs\.(\w+)/g)].map((m) => m[1]).concat(Object.keys(given)));
  const body: Obj = { ...state };
  if (body.type !== 'terminal' && body.on_success === undefined && body.transitions === undefined) body.on_success = END;
  const states: Obj = { initial: name, [name]: body };
  for (const target of targets(body)) if (!(target in states)) states[target] = { type: 'terminal' };
  return {
    name: 'doc-example',
    inputs: [...used].map((n) => ({ name: n, type: 'string' })),
    states,
  };
}

function targets(state: Obj): string[] {
  const out = [state.on_success, state.on_failure].filter((t): t is string => typeof t === 'string');
  if (Array.isArray(state.transitions)) {
    for (const t of state.transitions) if (isObj(t) && typeof t.goto === 'string') out.push(t.goto);
  }
  return out;
}
