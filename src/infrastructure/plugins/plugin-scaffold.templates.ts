/** The files of a new TypeScript plugin project; `awf plugin init` fills in the names. */
export interface ScaffoldVars {
  name: string;
  awfDependency: string;
}

export function scaffoldFiles(v: ScaffoldVars): Record<string, string> {
  return {
    'package.json':
      JSON.stringify(
        {
          name: `awf-plugin-${v.name}`,
          version: '0.1.0',
          private: true,
          description: `An awf plugin: ${v.name}`,
          scripts: { build: 'tsc -p tsconfig.json', test: 'npm run build && node --test dist/definition.test.js' },
          dependencies: { awf: v.awfDependency },
          devDependencies: { '@types/node': '20.19.43', typescript: '5.9.3' },
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
    'src/definition.ts': `import { definePlugin } from 'awf/plugin-sdk';

/** Each operation becomes the MCP tool ${v.name}_<operation> when a step exposes it. */
export const plugin = definePlugin({
  name: '${v.name}',
  version: '0.1.0',
  description: 'Describe what your plugin does.',
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
    '.gitignore': 'node_modules/\ndist/\n',
    'README.md': `# ${v.name}

An [awf](https://www.npmjs.com/package/awf) plugin. Build and test it:

    npm install
    npm test

Install it where awf looks for plugins, e.g. a project's \`.awf/plugins/${v.name}\` (copy or link this
folder there), then check that awf sees it:

    awf plugin list

Expose its operations to an agent step with \`mcp_proxy.plugin_tools: [{ plugin: ${v.name}, expose: [greet] }]\`;
the agent then calls the tool \`${v.name}_greet\`.
`,
  };
}
