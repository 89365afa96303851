import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import { goSpelling, STATE_FIELDS, WORKFLOW_FIELDS } from '../../../domain/workflow/interpolation.types';
import { TemplateExecError, type TemplateFunction } from './go-builtins';
import type { ParsedTemplate } from './template-ast';
import { Evaluator, UndefinedReferenceError } from './template-evaluator';
import { TemplateSyntaxError } from './template-lexer';
import { parseTemplate } from './template-parser';
import { collectReferences, type TemplateReference } from './template-walk';
import {
  CONTEXT_KEYS,
  ERROR_KEYS,
  LOOP_KEYS,
  namespaceFunctions,
  NAMESPACE_FUNCTION_NAMES,
  withStructDefaults,
} from './template-namespaces';
import { readFileFunction, TEMPLATE_FUNCTIONS, type TemplateFileAccess } from './template-functions';

const KNOWN_FUNCTIONS: ReadonlySet<string> = new Set([...Object.keys(TEMPLATE_FUNCTIONS), ...NAMESPACE_FUNCTION_NAMES]);

/** Parsed templates by source: loops render the same text once per iteration. */
const cache = new Map<string, ParsedTemplate>();
const CACHE_SIZE = 512;

/**
 * AWF's template language: Go's text/template with `missingkey=error` (a real lexer, parser
 * and evaluator in ./template/), AWF's FuncMap and Go's predefined functions, and the
 * namespaces as fields (`.inputs.x`) or functions (`inputs.x`, `loop.index1`). Values are
 * pasted unescaped, as in AWF.
 */
export class Template {
  private constructor(private readonly tree: ParsedTemplate) {}

  static parse(source: string): Template {
    let tree = cache.get(source);
    if (!tree) {
      try {
        tree = parseTemplate(source, KNOWN_FUNCTIONS);
      } catch (err) {
        throw toAwfError(err);
      }
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(source, tree);
    }
    return new Template(tree);
  }

  /** The data paths the template reads from the root (not those relative to a range/with dot). */
  references(): TemplateReference[] {
    return collectReferences(this.tree);
  }

  /** `files`: what `readFile` reads through; without it, readFile fails with a template error. */
  render(data: Record<string, unknown>, files?: TemplateFileAccess): string {
    const root = withStructDefaults(data);
    const funcs: Record<string, TemplateFunction> = {
      ...TEMPLATE_FUNCTIONS,
      ...(files ? { readFile: readFileFunction(files) } : {}),
      ...namespaceFunctions(root),
    };
    try {
      return new Evaluator(this.tree, funcs).run(root);
    } catch (err) {
      throw toAwfError(err);
    }
  }
}

export function renderTemplate(source: string, data: Record<string, unknown>, files?: TemplateFileAccess): string {
  return source.includes('{{') ? Template.parse(source).render(data, files) : source;
}

function toAwfError(err: unknown): unknown {
  if (err instanceof UndefinedReferenceError) return undefinedReference(err.reference, err.message);
  if (err instanceof TemplateSyntaxError)
    return new AwfError(ErrorCodes.WORKFLOW_TEMPLATE_SYNTAX, `template: ${err.message}`);
  if (err instanceof TemplateExecError)
    return new AwfError(ErrorCodes.WORKFLOW_TEMPLATE_EXECUTION, `template: ${err.message}`);
  return err;
}

/** A plain missing key needs no gloss; "can't evaluate field x in type string" does. */
export function undefinedReference(reference: string, why?: string): AwfError {
  const gloss = why && !why.startsWith('map has no entry') ? ` (${why})` : '';
  return new AwfError(
    ErrorCodes.WORKFLOW_UNDEFINED_REFERENCE,
    `undefined reference ${reference}${gloss}${spellingHint(reference)}`,
    { reference },
  );
}

const STRUCT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  workflow: WORKFLOW_FIELDS,
  context: Object.values(CONTEXT_KEYS),
  loop: Object.values(LOOP_KEYS),
  error: Object.values(ERROR_KEYS),
};

/** `.states.a.output` → `; use .states.a.Output` (AWF's docs spell some fields in lower case; its engine does not). */
function spellingHint(reference: string): string {
  const parts = reference.replace(/^\./, '').split('.');
  const fields = parts[0] === 'states' && parts.length === 3 ? STATE_FIELDS : STRUCT_FIELDS[parts[0]];
  const spelled = fields && parts.length <= 3 && goSpelling(parts[parts.length - 1], fields);
  return spelled ? `; use .${[...parts.slice(0, -1), spelled].join('.')}` : '';
}
