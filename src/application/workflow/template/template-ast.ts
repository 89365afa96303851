/** The parse tree of a template, shaped like Go's text/template/parse nodes. */
export type Arg =
  | { kind: 'field'; path: string[] }
  | { kind: 'variable'; name: string; path: string[] }
  | { kind: 'identifier'; name: string }
  | { kind: 'chain'; node: Arg; path: string[] }
  | { kind: 'pipe'; pipe: Pipeline }
  | { kind: 'dot' }
  | { kind: 'nil' }
  | { kind: 'literal'; value: string | number | boolean; source: string };

export interface Command {
  args: Arg[];
}

export interface Pipeline {
  /** `$x :=` declares, `$x =` assigns; a range may declare `$i, $e`. */
  decl: string[];
  isAssign: boolean;
  cmds: Command[];
  /** The action's text, for messages. */
  source: string;
}

export type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipe: Pipeline }
  | { kind: 'if' | 'with'; pipe: Pipeline; list: Node[]; elseList?: Node[] }
  | { kind: 'range'; pipe: Pipeline; list: Node[]; elseList?: Node[] }
  | { kind: 'break' | 'continue' }
  | { kind: 'template'; name: string; pipe?: Pipeline };

export interface ParsedTemplate {
  root: Node[];
  /** `{{define}}` and `{{block}}` bodies by name. */
  defines: Map<string, Node[]>;
}
