import { readdirSync, readFileSync } from 'node:fs';
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

  it('writes --output files whole: DOT and Mermaid text, and SVG, PNG and PDF images', () => {
    const scratch = scratchDir();
    try {
      const dot = join(scratch.dir, 'wf.dot');
      expect(awf(['diagram', FIXTURE, '-o', dot]).status).toBe(0);
      expect(readFileSync(dot, 'utf8')).toBe(EXPECTED_DOT);
      const mmd = join(scratch.dir, 'wf.mmd');
      expect(awf(['diagram', FIXTURE, '--output', mmd]).status).toBe(0);
      expect(readFileSync(mmd, 'utf8')).toMatch(/^flowchart TB\n/);

      for (const ext of ['svg', 'png', 'pdf']) {
        const r = awf(['diagram', FIXTURE, '-o', join(scratch.dir, `wf.${ext}`)]);
        expect({ ext, status: r.status, stderr: r.stderr }).toEqual({ ext, status: 0, stderr: '' });
      }
      const svg = readFileSync(join(scratch.dir, 'wf.svg'), 'utf8');
      expect(svg).toMatch(/^<\?xml[^>]*>\s*<!DOCTYPE svg/);
      expect(svgNode(svg, 'failed').match(/<ellipse/g)).toHaveLength(2);
      const [, wPt, hPt] = /<svg width="(\d+)pt" height="(\d+)pt"/.exec(svg)!.map(Number);

      const png = pngSize(readFileSync(join(scratch.dir, 'wf.png')));
      // Drawn at twice the SVG's size in CSS pixels (a point is 4/3 of one).
      expect(Math.abs(png.width - (2 * wPt * 4) / 3)).toBeLessThanOrEqual(2);
      expect(Math.abs(png.height - (2 * hPt * 4) / 3)).toBeLessThanOrEqual(2);

      const pdf = readFileSync(join(scratch.dir, 'wf.pdf'));
      expect(pdfObjects(pdf)).toBeGreaterThan(3);
      expect(pdf.toString('latin1')).toMatch(new RegExp(`/MediaBox \\[0 0 ${wPt} ${hPt}\\]`));
      expect(readdirSync(scratch.dir).sort()).toEqual(['wf.dot', 'wf.mmd', 'wf.pdf', 'wf.png', 'wf.svg']);

      const jpg = awf(['diagram', FIXTURE, '-o', join(scratch.dir, 'wf.jpg')]);
      expect(jpg.status).toBe(1);
      expect(jpg.stderr).toContain('[USER.CLI.INVALID_ARGS] --output');
      expect(jpg.stderr).toContain('.svg, .png or .pdf');
    } finally {
      scratch.cleanup();
    }
  });

  it('draws a draft that does not validate, its problems in red where they are; refuses a file with no workflow', () => {
    const scratch = scratchDir({
      'draft.yaml': 'name: draft\nstates:\n  initial: build\n  build: {type: step, command: make, on_success: tset}\n',
      'garbage.yaml': 'name: [\n',
    });
    try {
      const r = awf(['diagram', join(scratch.dir, 'draft.yaml')]);
      expect(r.status).toBe(0);
      expect(r.stderr).toBe(
        'warning: the workflow does not validate (2 errors, drawn in red); `awf validate` lists them\n',
      );
      expect(r.stdout).toContain(
        '    build [label="build\\nWORKFLOW.VALIDATION.MISSING_STATE", shape=box, color=red, fontcolor=red, penwidth=2];',
      );
      expect(r.stdout).toContain(
        '    tset [label="tset\\n(no such state)", shape=box, style=dashed, color=red, fontcolor=red];',
      );
      expect(r.stdout).toContain('    build -> tset [color=red];');
      expect(r.stdout).toContain('label="WORKFLOW.VALIDATION.NO_TERMINAL at states", shape=note, color=red');
      const png = join(scratch.dir, 'draft.png');
      expect(awf(['diagram', join(scratch.dir, 'draft.yaml'), '-o', png]).status).toBe(0);
      expect(pngSize(readFileSync(png)).width).toBeGreaterThan(100);
      const svg = graphvizSvg(r.stdout);
      expect(svgNode(svg, 'tset')).toContain('stroke-dasharray');
      const garbage = awf(['diagram', join(scratch.dir, 'garbage.yaml'), '-o', join(scratch.dir, 'g.png')]);
      expect(garbage.status).toBe(2);
      expect(garbage.stderr).toMatch(/^\[WORKFLOW\.PARSE\.YAML_SYNTAX\]/);
      expect(readdirSync(scratch.dir).sort()).toEqual(['draft.png', 'draft.yaml', 'garbage.yaml']);
    } finally {
      scratch.cleanup();
    }
  });

  it('refuses a bad direction or highlight, and -f mermaid on other commands', () => {
    const scratch = scratchDir();
    try {
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

/** A PNG's size from its IHDR chunk, after checking the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Parses a PDF's skeleton as a reader would: the %PDF header, `startxref` at the end, the
 * cross-reference table it points to, and an `N 0 obj` at every offset that table gives.
 * Returns the number of objects.
 */
function pdfObjects(pdf: Buffer): number {
  const text = pdf.toString('latin1');
  expect(text.startsWith('%PDF-1.')).toBe(true);
  expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
  const xrefAt = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
  const table = /^xref\s+0 (\d+)\s+/.exec(text.slice(xrefAt))!;
  const count = Number(table[1]);
  const entries = text
    .slice(xrefAt + table[0].length)
    .split(/\r?\n/)
    .slice(0, count);
  entries.forEach((entry, n) => {
    const [offset, , kind] = entry.trim().split(' ');
    if (kind === 'n') expect(text.slice(Number(offset)).startsWith(`${n} 0 obj`)).toBe(true);
  });
  expect(text.slice(xrefAt)).toMatch(/trailer\s*<<[^]*\/Root \d+ 0 R/);
  return count;
}
