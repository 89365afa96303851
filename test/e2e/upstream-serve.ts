import { join } from 'node:path';
import { connectMcpServe, type McpSession } from '../support/mcp-client';
import { workflowProject } from './workflow-support';

/**
 * `awf mcp-serve` of a fresh project serving one upstream server (no built-ins) under a step
 * policy that denies `deny`, for the length of `use`: session and project are gone after it.
 * The agent's client declares `capabilities` (none by default).
 */
export async function withUpstreamServe(
  upstream: Record<string, unknown>,
  deny: string,
  use: (session: McpSession, project: ReturnType<typeof workflowProject>) => Promise<void>,
  capabilities: Record<string, unknown> = {},
): Promise<void> {
  const p = workflowProject();
  try {
    const session = await connectMcpServe(
      p.dir,
      {
        intercept_builtins: false,
        root_dir: p.dir,
        upstreams: [upstream],
        // Not where the environment's data dir is: the config decides (`awf mcp trust --storage store`).
        pins_dir: join(p.dir, 'store', 'mcp-pins'),
        policy: { layers: [{ origin: 'step agent', tools: { deny: [deny] } }] },
      },
      { env: p.env, capabilities },
    );
    try {
      await use(session, p);
    } finally {
      await session.close();
    }
  } finally {
    p.cleanup();
  }
}
