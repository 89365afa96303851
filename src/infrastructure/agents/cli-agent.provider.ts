import { Inject, Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type {
  AgentProvider,
  AgentRunRequest,
  AgentRunResult,
  NativeToolUse,
} from '../../domain/ports/agent-provider.port';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import { APP_LOGGER } from '../../domain/ports/tokens';
import { AgentOptions } from './agent-options';
import { runAgentProcess } from './agent-process.runner';
import { PrivateTempDir } from '../core/private-temp-dir';
import { asRecord, type JsonEvent } from './ndjson';

/** What one provider puts on the command line and in the environment for one step. */
export interface CliInvocation {
  args: string[];
  env?: Record<string, string>;
}

export interface CliRunContext {
  request: AgentRunRequest;
  /** The step's prompt, with the coexistence instruction already in front when it applies. */
  prompt: string;
  options: AgentOptions;
  /** Private, removed when the step settles: for per-run config files. */
  dir: PrivateTempDir;
}

export interface ParsedAgentOutput {
  output: string;
  tokens?: { input?: number; output?: number };
  costUsd?: number;
  /** Set when the CLI exited 0 but reported the run as failed. */
  error?: string;
  raw?: unknown;
  /** The session the CLI reported (Claude's session_id, Codex's thread_id, …), for a later resume. */
  sessionId?: string;
}

/** Reads one run's native tool uses: each event of the CLI's stream, then once more when the CLI is gone. */
export interface ToolUseReader {
  line(event: JsonEvent): void;
  finish(): void;
}

export interface ToolUseReaderContext {
  request: AgentRunRequest;
  /** The CLI's environment. */
  env: NodeJS.ProcessEnv;
  serverName: string;
  report(use: NativeToolUse): void;
  /** Epoch ms, just before the CLI starts. */
  since: number;
}

/** Put in front of the prompt when an agent keeps its own tools next to the proxy's. */
export const COEXISTENCE_INSTRUCTION =
  'Use only the tools of the MCP server "awf-proxy" for reading, searching, editing files and running commands; never use your built-in tools.';

/**
 * The shared life of a CLI agent step: read options, write per-run config into a private
 * temp dir, run the CLI in its own process group, parse what it printed, remove the dir.
 * Subclasses say only how their CLI is invoked and how its output reads.
 */
@Injectable()
export abstract class CliAgentProvider implements AgentProvider {
  abstract readonly name: string;
  abstract readonly canInterceptBuiltins: boolean;
  /** Most CLIs resume their own sessions (their resume flag); one without sessions resends the turns. */
  readonly resumes: 'session' | 'history' = 'session';
  /** Whether the CLI takes a system prompt by flag; if not, a first turn's goes in front of the prompt (AWF). */
  protected readonly systemPromptFlag: boolean = false;
  /** The executable looked up on PATH unless `options.binary` names another. */
  protected abstract readonly binary: string;
  protected abstract readonly installHint: string;

  constructor(@Inject(APP_LOGGER) protected readonly logger: AppLogger) {}

  protected abstract invocation(ctx: CliRunContext): CliInvocation;
  protected abstract parse(stdout: string): ParsedAgentOutput;

  /**
   * The native tool use one event of the CLI's JSON stream reports, if any: a tool that is not
   * the proxy's (`serverName`). Providers whose CLI keeps tools of its own override it.
   */
  protected nativeToolUse(_event: JsonEvent, _serverName: string): NativeToolUse | undefined {
    return undefined;
  }

  /** The reader of one run's native tool uses; by default the stream, event by event (`nativeToolUse`). */
  protected toolUseReader(ctx: ToolUseReaderContext): ToolUseReader {
    return {
      line: (event) => {
        const use = this.nativeToolUse(event, ctx.serverName);
        if (use) ctx.report(use);
      },
      finish: () => undefined,
    };
  }

  async run(request: AgentRunRequest): Promise<AgentRunResult> {
    if (!request.prompt || request.prompt.trim() === '') {
      throw new AwfError(ErrorCodes.AGENT_INVALID_OPTIONS, `${this.name}: the prompt is empty`, {
        provider: this.name,
        step: request.step,
      });
    }
    const options = new AgentOptions(this.name, request.options);
    const binary = options.string('binary') ?? this.binary;
    const dir = new PrivateTempDir(`awf-${this.name}-`);
    try {
      const invocation = this.invocation({ request, prompt: this.promptFor(request), options, dir });
      const env = { ...process.env, ...request.env, ...invocation.env };
      const reader = this.watch(request, env);
      let stdout: string;
      try {
        ({ stdout } = await runAgentProcess({
          provider: this.name,
          binary,
          args: invocation.args,
          cwd: request.cwd,
          env,
          timeoutMs: request.timeoutMs,
          signal: request.signal,
          installHint: this.installHint,
          onStdoutLine: reader && ((line) => readLine(reader, line)),
        }));
      } finally {
        reader?.finish();
      }
      const parsed = this.parse(stdout);
      if (parsed.error !== undefined) {
        throw new AwfError(ErrorCodes.AGENT_REPORTED_ERROR, `${this.name} reported an error: ${parsed.error}`, {
          provider: this.name,
          step: request.step,
        });
      }
      return {
        output: parsed.output || stdout.trim() || ' ',
        exitCode: 0,
        tokens: parsed.tokens,
        costUsd: parsed.costUsd,
        raw: parsed.raw,
        ...(parsed.sessionId ? { sessionId: parsed.sessionId } : {}),
      };
    } finally {
      dir.remove();
    }
  }

  /** Reads the CLI's tool uses as they come, for bypass detection (docs/policy.md, ADR 171). */
  private watch(request: AgentRunRequest, env: NodeJS.ProcessEnv): ToolUseReader | undefined {
    const report = request.onNativeToolUse;
    const serverName = request.proxy?.serverName;
    if (!report || !serverName) return undefined;
    return this.toolUseReader({ request, env, serverName, report, since: Date.now() });
  }

  /**
   * With intercept_builtins on an agent that cannot switch its tools off, the model is asked
   * in the prompt itself (AWF put it in a system prompt the CLI never received). The WARN
   * for coexistence mode is the agent step's, once per step.
   */
  private promptFor(request: AgentRunRequest): string {
    const system = request.conversation?.systemPrompt;
    const prompt = system && !this.systemPromptFlag ? `${system}\n\n${request.prompt}` : request.prompt;
    if (!request.proxy?.interceptBuiltins || this.canInterceptBuiltins) return prompt;
    this.logger.info(
      { provider: this.name, workflow: request.workflow, step: request.step },
      `${this.name} keeps its own tools next to the proxy's (coexistence mode): the prompt asks the model to use only the proxy's`,
    );
    return `${COEXISTENCE_INSTRUCTION}\n\n${prompt}`;
  }
}

/** A stdout line that is a JSON object, to the reader; anything else (banners) is not an event. */
function readLine(reader: ToolUseReader, line: string): void {
  const text = line.trim();
  if (text.startsWith('{')) reader.line(asRecord(JSON.parse(text)));
}
