/**
 * A scripted model on 127.0.0.1 that speaks the four wire formats the agent CLIs use:
 * Anthropic Messages, OpenAI Responses, OpenAI Chat Completions and Gemini
 * streamGenerateContent. It follows a script of tool calls: while the conversation carries
 * fewer tool results than the script has calls, it asks for the next turn's calls (by the
 * name the CLI gave the proxy's tool); then it answers with text quoting the last result.
 * Requests that offer none of the scripted tools (titles, routing) get plain text.
 * Every request is logged, so tests can assert what the CLI offered the model.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicApi, chatApi, geminiApi, responsesApi, type Reply, type WireApi } from './scripted-model.wire';

export interface ScriptedCall {
  /** The proxy's tool name (`Read`); matched against the names the CLI offers (`mcp__awf-proxy__Read`). */
  tool: string;
  args: Record<string, unknown>;
  /** A native tool, called by its exact name only (Copilot's `bash` beside its `read_bash`). */
  exact?: boolean;
}

/** One model turn: one or several tool calls. */
export type ScriptedTurn = ScriptedCall | ScriptedCall[];

export interface LoggedRequest {
  api: WireApi['name'];
  path: string;
  body: Record<string, unknown>;
  /** Tool names offered to the model, as the CLI named them. */
  tools: string[];
  /** Tool results the conversation carried back, as text. */
  toolResults: string[];
}

export interface ScriptedModel {
  url: string;
  port: number;
  requests: LoggedRequest[];
  /** Replaces the script (and clears the request log) for the next run. */
  reset(script: ScriptedTurn[], finalText?: string): void;
  close(): Promise<void>;
}

const APIS: WireApi[] = [anthropicApi, responsesApi, chatApi, geminiApi];
/** Serves at most this many tool turns per conversation, so a confused client cannot spin forever. */
const MAX_TURNS = 30;

export async function startScriptedModel(script: ScriptedTurn[] = [], finalText = 'DONE'): Promise<ScriptedModel> {
  let turns = script.map(asTurn);
  let final = finalText;
  const requests: LoggedRequest[] = [];

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: err.message } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const path = req.url ?? '/';
    const api = req.method === 'POST' ? APIS.find((a) => a.matches(path)) : undefined;
    if (!api) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const offered = api.offeredTools(body);
    const results = api.toolResults(body);
    requests.push({
      api: api.name,
      path,
      body,
      tools: offered.map((t) => (t.namespace ? `${t.namespace}.${t.name}` : t.name)),
      toolResults: results,
    });
    api.send(res, body, path, decide(offered, results.length, results.at(-1)));
  }

  function decide(offered: { name: string; namespace?: string }[], resultCount: number, lastResult?: string): Reply {
    // Prefer the proxy's tool over a native one of the same name (Claude Code's own `Read`).
    const resolve = (call: ScriptedCall) =>
      offered.find((t) => !call.exact && t.name !== call.tool && matches(t.name, call.tool)) ??
      offered.find((t) => t.namespace !== undefined && t.name === call.tool) ??
      offered.find((t) => t.name === call.tool);
    const scripted = turns.length > 0 && turns.some((turn) => turn.some((c) => resolve(c)));
    if (!scripted) return { kind: 'text', text: 'ok' };
    let consumed = 0;
    for (const [index, turn] of turns.entries()) {
      if (index >= MAX_TURNS) break;
      if (resultCount < consumed + turn.length) {
        return {
          kind: 'calls',
          calls: turn.map((c, i) => {
            const tool = resolve(c);
            return { id: `call_${index}_${i}`, name: tool?.name ?? c.tool, namespace: tool?.namespace, args: c.args };
          }),
        };
      }
      consumed += turn.length;
    }
    return { kind: 'text', text: lastResult === undefined ? final : `${final}; last tool result: ${lastResult}` };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    reset(next, nextFinal = 'DONE') {
      turns = next.map(asTurn);
      final = nextFinal;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `mcp__awf-proxy__Read`, `mcp_awf-proxy_Read`, `awf-proxy_Read`, Copilot's `awf-proxy-Read` and
 * Codex's `Read` in namespace `mcp__awf_proxy` all name `Read`.
 */
export function matches(offered: string, tool: string): boolean {
  return offered === tool || offered.endsWith(`_${tool}`) || offered.endsWith(`-${tool}`);
}

function asTurn(turn: ScriptedTurn): ScriptedCall[] {
  return Array.isArray(turn) ? turn : [turn];
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { raw: text };
  }
}
