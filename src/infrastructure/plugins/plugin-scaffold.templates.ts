/** The files of a new TypeScript plugin project; `awf plugin init` fills in the names. */
export interface ScaffoldVars {
  name: string;
  /** The `awf` dependency: the vendored SDK (`file:vendor/awf`) or what `--awf` gave. */
  awfDependency: string;
  /** Other runtime dependencies (gRPC for the vendored SDK, Nest for a Nest plugin), pinned. */
  dependencies?: Record<string, string>;
  /** The scaffold's own test file, run by `npm test` after the build. */
  testFile?: string;
  /** Extra compiler options (decorators for a Nest plugin). */
  compilerOptions?: Record<string, unknown>;
}

/** package.json, tsconfig.json, plugin.yaml, .gitignore: the same for every kind of plugin. */
export function projectFiles(v: ScaffoldVars): Record<string, string> {
  const test = v.testFile ?? 'dist/definition.test.js';
  return {
    'package.json':
      JSON.stringify(
        {
          name: `awf-plugin-${v.name}`,
          version: '0.1.0',
          private: true,
          scripts: { build: 'tsc -p tsconfig.json', test: `npm run build && node --test ${test}` },
          dependencies: { awf: v.awfDependency, ...v.dependencies },
          devDependencies: { '@types/node': '20.19.43', typescript: '5.9.3' },
          // `npm pack` then makes a tarball that `awf plugin install` can use as it is.
          bundleDependencies: true,
          files: ['dist', 'plugin.yaml', 'vendor', 'README.md'],
        },
        null,
        2,
      ) + '\n',
    'tsconfig.json':
      JSON.stringify(
        {
          compilerOptions: {
            module: 'node16',
            moduleResolution: 'node16',
            target: 'ES2022',
            strict: true,
            esModuleInterop: true,
            skipLibCheck: true,
            outDir: 'dist',
            rootDir: 'src',
            types: ['node'],
            ...v.compilerOptions,
          },
          include: ['src'],
        },
        null,
        2,
      ) + '\n',
    'plugin.yaml': [
      `name: ${v.name}`,
      'version: 0.1.0',
      `description: "${v.name}: describe what your plugin does"`,
      'awf_version: ">=0.1.0"',
      'capabilities: [operations]',
      '# awf runs this in the plugin folder; `node` is the Node that runs awf.',
      'command: node dist/plugin.js',
      '',
    ].join('\n'),
    '.gitignore': 'node_modules/\ndist/\n',
  };
}

/** A plugin written with `definePlugin` and served by the SDK's `serve`. */
export function scaffoldFiles(v: ScaffoldVars): Record<string, string> {
  return {
    ...projectFiles(v),
    'src/definition.ts': `import { definePlugin } from 'awf/plugin-sdk';

/** Each operation becomes the MCP tool ${v.name}_<operation> when a step exposes it. */
// Its name, version and description are in plugin.yaml, read when the plugin starts.
export const plugin = definePlugin({
  operations: {
    greet: {
      description: 'Greets someone by name.',
      inputs: { name: { type: 'string', description: 'Who to greet.', required: true } },
      outputs: { greeting: { type: 'string', description: 'The greeting.' } },
      run: ({ name }) => ({ greeting: \`Hello, \${String(name)}!\` }),
    },
  },
});
`,
    'src/plugin.ts': `import { serve } from 'awf/plugin-sdk';
import { plugin } from './definition';

void serve(plugin);
`,
    'src/definition.test.ts': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { invoke } from 'awf/plugin-sdk';
import { plugin } from './definition';

test('greet greets by name', async () => {
  const result = await invoke(plugin, 'greet', { name: 'Ada' });
  assert.deepEqual(result, { success: true, output: '', data: { greeting: 'Hello, Ada!' }, error: '' });
});

test('greet refuses a call without a name', async () => {
  const result = await invoke(plugin, 'greet', {});
  assert.equal(result.success, false);
  assert.match(result.error, /name is required/);
});
`,
    'README.md': readme(v, 'Its operations are in `src/definition.ts`; `src/plugin.ts` serves them.'),
  };
}

/** How to build, test and install the plugin, as the commands really are. */
export function readme(v: ScaffoldVars, layout: string): string {
  return `# ${v.name}

An awf plugin. ${layout} Build and test it:

    npm install
    npm test

Install it where awf looks for plugins (the plugin is started once to check it):

    awf plugin install .            # a copy; or --link to use your builds at once
    npm pack && awf plugin install awf-plugin-${v.name}-0.1.0.tgz

then \`awf plugin list\` shows it. Expose its operations to an agent step with
\`mcp_proxy.plugin_tools: [{ plugin: ${v.name}, expose: [greet] }]\`; the agent then calls the tool
\`${v.name}_greet\`. The SDK is in \`vendor/awf\` (a copy of the awf that made this project), so
the folder works wherever it is moved or installed.
`;
}
