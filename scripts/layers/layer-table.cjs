// The layer rules of docs/architecture.md as one executable table: which area of src/ may import
// which, and which packages belong to which area. `.dependency-cruiser.cjs` turns it into
// dependency-cruiser rules for src/; the self-test (test/architecture/layers.spec.ts) turns it into
// rules for a scratch tree and injects one violation per rule. Every import form counts: side-effect
// imports, require(), import(), `import type` and re-exports. Specs (*.spec.ts) are exempt: tests
// wire real adapters on purpose.

/** Node built-ins that do I/O or start processes: application reaches them only through ports. */
const IO_BUILTINS = [
  'fs',
  'fs/promises',
  'child_process',
  'net',
  'http',
  'https',
  'http2',
  'dgram',
  'tls',
  'dns',
  'worker_threads',
  'cluster',
  'readline',
  'v8',
  'vm',
  'inspector',
];

/** Shared infrastructure any adapter area may use: the container's core, config readers, logging. */
const SHARED = ['infrastructure/core', 'infrastructure/config', 'infrastructure/logging'];

/**
 * area → the areas it may import (besides itself; an entry ending in `.ts` is a root file of src/),
 * and whether npm packages / node built-ins are allowed. `version.ts` is the one root file every
 * area but domain may read. The root files themselves are areas too: `app.module.ts` composes the
 * adapters and never reaches back into the CLI that builds it.
 */
const AREAS = {
  domain: { may: [], packages: false, builtins: false },
  application: { may: ['domain'], packages: false, builtins: 'pure' },
  'infrastructure/core': { may: ['domain', 'application', 'infrastructure/logging', 'infrastructure/config'] },
  'infrastructure/config': { may: ['domain'] },
  'infrastructure/logging': { may: ['domain'] },
  'infrastructure/tools': { may: ['domain'] },
  'infrastructure/plugins': { may: ['domain', 'sdk', 'infrastructure/releases', ...SHARED] },
  // Installs from GitHub-style releases (API client, checksums, safe unpacking), for packs and plugins.
  'infrastructure/releases': { may: ['domain', ...SHARED] },
  // `awf upgrade`: an npm-installed awf asks the configured npm registry and its package manager.
  'infrastructure/upgrade': { may: ['domain', 'infrastructure/releases', ...SHARED] },
  // `awf workflow install|list|info|update|remove|search`: workflow packs.
  'infrastructure/packs': { may: ['domain', 'infrastructure/releases', 'infrastructure/workflow', ...SHARED] },
  'infrastructure/agents': { may: ['domain', 'application', 'infrastructure/mcp-client', ...SHARED] },
  'infrastructure/telemetry': { may: ['domain', ...SHARED] },
  'infrastructure/history': { may: ['domain', 'application', ...SHARED] },
  'infrastructure/upstreams': { may: ['domain', ...SHARED] },
  // The policy's wiring and the approval channel (a private unix socket) to the owning `awf run`.
  'infrastructure/policy': { may: ['domain', 'application', ...SHARED] },
  'infrastructure/mcp-edge': { may: ['domain', 'application', ...SHARED] },
  'infrastructure/mcp-client': { may: ['domain'] },
  // `awf acp-serve`: the Agent Client Protocol edge (the ACP SDK) and its config file.
  'infrastructure/acp': { may: ['domain', 'application', ...SHARED] },
  // `awf diagram -o x.svg|png|pdf`: Graphviz (WebAssembly), resvg, pdfkit; loaded on first use.
  'infrastructure/diagram': { may: ['domain'] },
  // `awf run` owns the approval desk its steps' mcp-serve processes ask (infrastructure/policy).
  'infrastructure/workflow': { may: ['domain', 'application', 'infrastructure/policy', ...SHARED] },
  // `awf init`, `list prompts`, `config show`: reads the settings where each area reads them.
  'infrastructure/project': {
    may: [
      'domain',
      'application',
      'infrastructure/plugins',
      'infrastructure/telemetry',
      'infrastructure/workflow',
      ...SHARED,
    ],
  },
  // Runs on workers through a queue on Redis (BullMQ), over the one WorkflowService.
  'infrastructure/queue': { may: ['domain', 'application', 'infrastructure/workflow', ...SHARED] },
  'interfaces/cli': { may: '*' },
  // `awf serve`: AWF's HTTP API on Nest's HTTP platform, started by the CLI's serve command.
  'interfaces/http': { may: ['domain', 'application'] },
  // `awf tui`: AWF's terminal UI (React and Ink), started by the CLI's tui command.
  'interfaces/tui': { may: ['domain', 'application'] },
  embed: { may: ['domain', 'application', 'infrastructure/mcp-edge', 'infrastructure/config'] },
  sdk: { may: [] },
  // Users' Nest modules from .awf/config.yaml; they get the package's own public surface (index.ts).
  extensions: { may: ['domain', 'index.ts'] },
  'app.module.ts': { may: ['infrastructure'] },
  'index.ts': { may: ['domain', 'application', 'embed'] },
  'main.ts': { may: '*' },
  'version.ts': { may: [] },
};

/** package (a regular expression on its name) → the only areas that may import it. */
const PACKAGES = {
  '@modelcontextprotocol/client': ['infrastructure/mcp-client', 'infrastructure/upstreams'],
  '@modelcontextprotocol/server': ['infrastructure/mcp-edge'],
  '@modelcontextprotocol/node': ['infrastructure/mcp-edge'], // Node's http for the SDK's HTTP entry (/mcp)
  '@agentclientprotocol/sdk': ['infrastructure/acp'],
  '@opentelemetry/(?!api(/|$))[^/]+': ['infrastructure/telemetry'],
  'nestjs-otel': ['infrastructure/telemetry'],
  '@grpc/[^/]+': ['infrastructure/plugins', 'sdk'],
  'better-sqlite3': ['infrastructure/history'],
  '(?:tar|semver)': ['infrastructure/releases'],
  '(?:bullmq|ioredis)': ['infrastructure/queue'],
  '(?:@hpcc-js/wasm-graphviz|@resvg/resvg-js|pdfkit|svg-to-pdfkit)': ['infrastructure/diagram'],
  '@nestjs/platform-express': ['interfaces/http'],
  '@nestjs/swagger': ['interfaces/http'], // only `awf serve` loads it
  '(?:ink|react|ink-testing-library)': ['interfaces/tui'], // only `awf tui` loads them
  'nest-commander': ['interfaces/cli', 'extensions'], // extensions share awf's instance
  '@nestjs/[^/]+': Object.keys(AREAS).filter(
    (a) => !['domain', 'application', 'sdk', 'version.ts', 'index.ts'].includes(a),
  ),
};

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The path pattern of an area: a folder, or a root file of src/. */
const pattern = (area) => (area.endsWith('.ts') ? `${esc(area)}$` : `${esc(area)}/`);
const SPEC = '\\.spec\\.ts$';

/** dependency-cruiser `forbidden` rules for a source tree at `src` (a path relative to the cwd). */
function layerRules(src = 'src') {
  const root = `^${esc(src)}/`;
  const areaPath = (area) => `${root}${pattern(area)}`;
  const rules = [];
  for (const [area, spec] of Object.entries(AREAS)) {
    if (spec.may === '*') continue;
    const allowed = [area, ...spec.may, ...(area === 'domain' ? [] : ['version.ts'])];
    rules.push({
      name: `layer:${area}`,
      comment: `${area} may import only ${allowed.join(', ')}`,
      severity: 'error',
      from: { path: areaPath(area), pathNot: SPEC },
      to: { path: root, pathNot: `${root}(?:${allowed.map(pattern).join('|')})` },
    });
    if (spec.packages === false) {
      rules.push({
        name: `packages:${area}`,
        comment: `${area} imports no npm package`,
        severity: 'error',
        from: { path: areaPath(area), pathNot: SPEC },
        to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'unknown'] },
      });
    }
    if (spec.builtins === false || spec.builtins === 'pure') {
      rules.push({
        name: `builtins:${area}`,
        comment:
          spec.builtins === false
            ? `${area} imports no node built-in`
            : `${area} does no I/O of its own: no ${IO_BUILTINS.join(', ')}`,
        severity: 'error',
        from: { path: areaPath(area), pathNot: SPEC },
        to:
          spec.builtins === false
            ? { dependencyTypes: ['core'] }
            : { dependencyTypes: ['core'], path: `^(node:)?(${IO_BUILTINS.map(esc).join('|')})$` },
      });
    }
  }
  for (const [pkg, areas] of Object.entries(PACKAGES)) {
    rules.push({
      name: `package:${pkg.replace(/[^a-z0-9@/-]/gi, '')}`,
      comment: `${pkg} is imported only in ${areas.join(', ')}`,
      severity: 'error',
      from: { path: root, pathNot: `${SPEC}|${root}(?:${areas.map(pattern).join('|')})` },
      to: { path: `(^|/)node_modules/${pkg}(/|$)|^${pkg}(/|$)` }, // resolved, or not installed
    });
  }
  const known = Object.keys(AREAS).map(pattern);
  rules.push({
    name: 'layer:unknown-area',
    comment: 'every folder of src/ is an area of the layer table (scripts/layers/layer-table.cjs): add it there first',
    severity: 'error',
    from: { path: root, pathNot: `${SPEC}|${root}(?:${known.join('|')})` },
    to: {},
  });
  rules.push({
    name: 'no-cycles',
    comment: 'no import cycles, type-only imports included',
    severity: 'error',
    from: { path: root, pathNot: SPEC },
    to: { circular: true },
  });
  return rules;
}

module.exports = { AREAS, PACKAGES, IO_BUILTINS, layerRules };
