import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT, scratchDir } from '../support/cli';
import { graphvizSvg, svgNode } from '../support/graphviz';
import { awf } from './workflow-support';

const FIXTURE = resolve(REPO_ROOT, 'test/fixtures/diagram/every-kind.yaml');

/** AWF's DOT, line for line (docs/cli.md says where awf differs: the failure oval, the call label). */
const EXPECTED_DOT = `digraph "every-kind" {
    rankdir=TB;
    node [fontname="Arial", fontsize=10];
    edge [fontname="Arial", fontsize=9];
    __start__ [shape=point, width=0.2];
    __start__ -> prepare;
    child [label="child\\n(calls every-kind-child)", shape=folder];
    done [label="done", shape=oval, fillcolor="#90EE90", style="filled"];
    each [label="each", shape=hexagon];
    failed [label="failed", shape=oval, peripheries=2, fillcolor="#FFB6C1", style="filled"];
    "fan-out" [label="fan-out", shape=diamond];
    subgraph "cluster_fan-out" {
        label="fan-out branches";
        style=dashed;
        left [label="left", shape=box];
        right [label="right", shape=box];
    }
    fetch [label="fetch", shape=box3d];
    left [label="left", shape=box];
    prepare [label="prepare", shape=box];
    right [label="right", shape=box];
    each -> child;
    each -> fetch [label="complete"];
    "fan-out" -> left;
    "fan-out" -> right;
    "fan-out" -> each;
    fetch -> done;
    fetch -> failed [style=dashed, color=red];
    left -> done;
    prepare -> "fan-out";
    prepare -> failed [style=dashed, color=red];
    prepare -> "fan-out" [label="states.prepare.ExitCode == 0"];
    right -> done;
}
`;

describe('awf diagram', () => {
  it('prints AWF’s DOT: parallel cluster, loop body and exit, call_workflow, operation, transitions', () => {
    const r = awf(['diagram', FIXTURE]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(EXPECTED_DOT);
  });

  it('is DOT that Graphviz lays out, with the shapes AWF names', () => {
    const svg = graphvizSvg(awf(['diagram', FIXTURE, '--direction', 'LR', '--highlight', 'each']).stdout);
    expect(svg).toContain('<title>cluster_fan&#45;out</title>');
    // peripheries=2: two ellipses; AWF's `doubleoval` would be drawn as a box, with a warning.
    expect(svgNode(svg, 'failed').match(/<ellipse/g)).toHaveLength(2);
    expect(svgNode(svg, 'done').match(/<ellipse/g)).toHaveLength(1);
    expect(svgNode(svg, 'fan&#45;out')).toContain('<polygon');
    expect(svgNode(svg, 'each')).toContain('stroke="#2196f3"');
    expect(svg.match(/<g id="edge/g)).toHaveLength(13); // 12 transitions and the start arrow
  });

  it('draws the same graph as a Mermaid flowchart with -f mermaid', () => {
    const r = awf(['diagram', FIXTURE, '-f', 'mermaid', '--direction', 'lr']);
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('flowchart LR');
    expect(lines).toContain('    start --> s7');
    expect(lines).toContain('    s0[["child<br/>(calls every-kind-child)"]]');
    expect(lines).toContain('    s3((("failed")))');
    expect(lines).toContain('    subgraph c0["fan-out branches"]');
    expect(lines).toContain('    s7 -->|"states.prepare.ExitCode == 0"| s4');
    expect(lines).toContain('    s7 -.-> s3');
    expect(lines).toContain('    linkStyle 7,10 stroke:red');
    expect(lines.filter((l) => /^ +\w+ -(-|\.-)>/.test(l))).toHaveLength(13);
  });

  it('writes --output files whole, and refuses image formats it cannot make', () => {
    const scratch = scratchDir();
    try {
      const dot = join(scratch.dir, 'wf.dot');
      expect(awf(['diagram', FIXTURE, '-o', dot]).status).toBe(0);
      expect(readFileSync(dot, 'utf8')).toBe(EXPECTED_DOT);
      const mmd = join(scratch.dir, 'wf.mmd');
      expect(awf(['diagram', FIXTURE, '--output', mmd]).status).toBe(0);
      expect(readFileSync(mmd, 'utf8')).toMatch(/^flowchart TB\n/);
      const png = awf(['diagram', FIXTURE, '-o', join(scratch.dir, 'wf.png')]);
      expect(png.status).toBe(1);
      expect(png.stderr).toContain('[USER.CLI.INVALID_ARGS] --output');
      expect(png.stderr).toContain('| dot -Tpng -o');
    } finally {
      scratch.cleanup();
    }
  });

  it('refuses a broken workflow, a bad direction or highlight, and -f mermaid on other commands', () => {
    const scratch = scratchDir({ 'broken.yaml': 'name: broken\nstates:\n  initial: nowhere\n' });
    try {
      const broken = awf(['diagram', join(scratch.dir, 'broken.yaml')]);
      expect(broken.status).toBe(2);
      expect(broken.stderr).toMatch(/^\[WORKFLOW\./);
      expect(awf(['diagram', FIXTURE, '--direction', 'up']).stderr).toContain('invalid direction "up"');
      const highlight = awf(['diagram', FIXTURE, '--highlight', 'nope']);
      expect(highlight.status).toBe(1);
      expect(highlight.stderr).toContain('hint: Pick one of: prepare, fan-out');
      const list = awf(['list', '-f', 'mermaid']);
      expect(list.status).toBe(1);
      expect(list.stderr).toContain('[USER.CLI.INVALID_ARGS] invalid output format "mermaid" for awf list');
      expect(awf(['diagram', FIXTURE, '-f', 'yaml']).stderr).toContain('invalid output format "yaml"');
    } finally {
      scratch.cleanup();
    }
  });
});
