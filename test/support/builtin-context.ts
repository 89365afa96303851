import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS, type ProxyLimits } from '../../src/domain/proxy/proxy-config';
import type { ToolResult } from '../../src/domain/model/tool-result';
import type { ToolCallContext } from '../../src/domain/ports/tool-scope';
import type { SecretMasker } from '../../src/domain/ports/secret-masker.port';
import { ValueSecretMasker } from '../../src/application/secret-masker.service';
import { BashTool } from '../../src/infrastructure/tools/bash.tool';
import { BuiltinToolProvider } from '../../src/infrastructure/tools/builtin-tool.provider';
import { EditTool } from '../../src/infrastructure/tools/edit.tool';
import { GlobTool } from '../../src/infrastructure/tools/glob.tool';
import { GrepTool } from '../../src/infrastructure/tools/grep.tool';
import { PathSandbox } from '../../src/infrastructure/tools/path-sandbox.service';
import { ReadTool } from '../../src/infrastructure/tools/read.tool';
import { WriteTool } from '../../src/infrastructure/tools/write.tool';

/** A real scratch root with an `outside` sibling, so tests can prove nothing leaked out. */
export function builtinSandbox(): { base: string; root: string; outside: string; cleanup: () => void } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'awf-builtin-')));
  const root = join(base, 'proj');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { base, root, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export function builtinContext(
  rootDir: string,
  limits: Partial<ProxyLimits> = {},
  signal: AbortSignal = new AbortController().signal,
): ToolCallContext {
  return {
    scope: { rootDir, interceptBuiltins: true, pluginTools: [], limits: { ...DEFAULT_LIMITS, ...limits } },
    signal,
    callId: 'test-call',
  };
}

export function text(result: ToolResult): string {
  return result.content.map((c) => c.text).join('\n');
}

/** The real provider with every tool wired as Nest would, minus the container. */
export function builtinTools(masker: SecretMasker = new ValueSecretMasker({})): BuiltinToolProvider {
  const sandbox = new PathSandbox();
  return new BuiltinToolProvider(
    new ReadTool(sandbox),
    new WriteTool(sandbox),
    new EditTool(sandbox),
    new BashTool(sandbox, masker),
    new GlobTool(sandbox),
    new GrepTool(sandbox),
  );
}
