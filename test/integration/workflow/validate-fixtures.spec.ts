import { join } from 'node:path';
import { AgentsModule } from '../../../src/infrastructure/agents/agents.module';
import { renderValidation } from '../../../src/interfaces/cli/workflows/validation.renderer';
import { wiredWorkflowService } from '../../support/wired-workflow-service';

const FIXTURES = join(__dirname, '../../fixtures/workflows');

/** The ADR 017 fixture list (awf-mcp-proxy.md §9 A), validated in-process as `awf validate` does. */
describe('validate on the mcp_proxy fixtures', () => {
  const wired = wiredWorkflowService([AgentsModule]);

  const check = async (name: string) => {
    const report = await wired.service.validate(join(FIXTURES, `${name}.yaml`));
    return {
      report,
      lines: [...report.errors, ...report.warnings].map((i) => `${i.severity} [${i.code}] ${i.path}: ${i.message}`),
    };
  };

  it.each([
    'mcp-proxy-valid-enabled',
    'mcp-proxy-empty-block',
    'mcp-proxy-disabled-empty',
    'mcp-proxy-on-command-step',
  ])('%s is valid', async (name) => {
    expect((await check(name)).lines).toEqual([]);
  });

  it('UNKNOWN_KEY names every unknown key once, in document order', async () => {
    expect((await check('mcp-proxy-unknown-key')).lines).toEqual([
      'error [USER.MCP_PROXY.UNKNOWN_KEY] states.start.mcp_proxy: unknown field(s) in mcp_proxy: sandbox (allowed: enable, intercept_builtins, plugin_tools, servers, policy)',
    ]);
    expect((await check('mcp-proxy-two-unknown-keys')).lines).toEqual([
      'error [USER.MCP_PROXY.UNKNOWN_KEY] states.start.mcp_proxy: unknown field(s) in mcp_proxy: unknown_key1, unknown_key2 (allowed: enable, intercept_builtins, plugin_tools, servers, policy)',
    ]);
  });

  it('EMPTY_PROXY is a USER error, not a YAML syntax error', async () => {
    expect((await check('mcp-proxy-empty-proxy-enabled')).lines).toEqual([
      'error [USER.MCP_PROXY.EMPTY_PROXY] states.start.mcp_proxy: MCP proxy enabled with intercept_builtins=false but no plugin_tools specified',
    ]);
  });

  it('NAME_COLLISION once for a plugin listed twice; every plugin is UNKNOWN_PLUGIN while none is installed', async () => {
    const { lines } = await check('mcp-proxy-name-collision');
    expect(lines.filter((l) => l.includes('NAME_COLLISION'))).toEqual([
      'error [USER.MCP_PROXY.NAME_COLLISION] states.start.mcp_proxy.plugin_tools[1].plugin: duplicate plugin entry: kubernetes',
    ]);
    expect(lines.filter((l) => l.includes('UNKNOWN_PLUGIN'))).toHaveLength(2);
  });

  it('UNKNOWN_PLUGIN carries the entry path', async () => {
    expect((await check('mcp-proxy-unknown-plugin')).lines).toEqual([
      'error [USER.MCP_PROXY.UNKNOWN_PLUGIN] states.start.mcp_proxy.plugin_tools[0].plugin: plugin "nonexistent_plugin" not found (installed: none)',
    ]);
  });

  it('collects the errors of several steps in one report', async () => {
    const { lines } = await check('mcp-proxy-multi-error');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringContaining('[USER.MCP_PROXY.EMPTY_PROXY] states.first.mcp_proxy'),
        expect.stringContaining('[USER.MCP_PROXY.NAME_COLLISION] states.second.mcp_proxy.plugin_tools[1].plugin'),
      ]),
    );
  });

  it('UNSUPPORTED_PROVIDER is a warning, rendered with a warning: prefix', async () => {
    const { report } = await check('mcp-proxy-codex-warning');
    expect(report.warnings).toEqual([
      expect.objectContaining({
        code: 'USER.MCP_PROXY.UNSUPPORTED_PROVIDER',
        path: 'states.start.mcp_proxy',
        message: expect.stringContaining('coexistence mode'),
      }),
    ]);
    expect(renderValidation(report, 'text').stderr).toContain(
      'warning: [USER.MCP_PROXY.UNSUPPORTED_PROVIDER] states.start.mcp_proxy: mcp_proxy on provider=codex',
    );
  });

  it('reports YAML syntax errors and a missing terminal as WORKFLOW errors', async () => {
    expect((await check('yaml-syntax')).lines[0]).toMatch(/^error \[WORKFLOW\.PARSE\.YAML_SYNTAX\] : .*line 5/);
    expect((await check('no-terminal')).lines).toEqual([
      'error [WORKFLOW.VALIDATION.NO_TERMINAL] states: a workflow needs at least one terminal state',
    ]);
  });
});
