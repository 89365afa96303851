import type { Arg, Node, ParsedTemplate, Pipeline } from './template-ast';

/** A path read from the data root: `.states.a.Output` (field form) or `loop.index` (function form). */
export interface TemplateReference {
  path: string[];
  form: 'field' | 'function';
}

/**
 * The references `awf validate` can check: fields read while the dot is still the root (outside
 * the bodies of range and with, whose dot is something else), `$.…` anywhere, and the namespace
 * functions. Bodies of {{define}} get whatever dot they are called with, so only their namespace
 * functions count.
 */
export function collectReferences(tree: ParsedTemplate): TemplateReference[] {
  const out: TemplateReference[] = [];
  let inDefine = false;
  const visitArg = (a: Arg, rootDot: boolean): void => {
    if (a.kind === 'field' && rootDot) out.push({ path: a.path, form: 'field' });
    else if (a.kind === 'variable' && a.name === '$' && !inDefine && a.path.length > 0)
      out.push({ path: a.path, form: 'field' });
    else if (a.kind === 'chain' && a.node.kind === 'identifier')
      out.push({ path: [a.node.name, ...a.path], form: 'function' });
    else if (a.kind === 'chain') visitArg(a.node, rootDot);
    else if (a.kind === 'identifier') out.push({ path: [a.name], form: 'function' });
    else if (a.kind === 'pipe') visitPipe(a.pipe, rootDot);
  };
  const visitPipe = (p: Pipeline, rootDot: boolean): void =>
    p.cmds.forEach((c) => c.args.forEach((a) => visitArg(a, rootDot)));
  const visitList = (list: Node[], rootDot: boolean): void => {
    for (const n of list) {
      if (n.kind === 'action' || n.kind === 'template') n.pipe && visitPipe(n.pipe, rootDot);
      else if (n.kind === 'if' || n.kind === 'with' || n.kind === 'range') {
        visitPipe(n.pipe, rootDot);
        visitList(n.list, n.kind === 'if' ? rootDot : false);
        if (n.elseList) visitList(n.elseList, rootDot);
      }
    }
  };
  visitList(tree.root, true);
  inDefine = true;
  for (const body of tree.defines.values()) visitList(body, false);
  return out.filter((r) => r.form === 'field' || NAMESPACES_AS_FUNCTIONS.has(r.path[0]));
}

const NAMESPACES_AS_FUNCTIONS = new Set(['inputs', 'states', 'workflow', 'env', 'loop', 'context', 'error', 'awf']);
