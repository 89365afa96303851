import { Injectable, Module } from '@nestjs/common';
import type { AgentProvider, AgentRunRequest, AgentRunResult } from '../../src/domain/ports/agent-provider.port';
import { ProvidesAgent } from '../../src/domain/ports/markers';

/** An agent (`provider: echo_prompt`) whose answer is the prompt it was handed: what prompt_file delivered. */
@Injectable()
@ProvidesAgent()
class EchoPromptAgent implements AgentProvider {
  readonly name = 'echo_prompt';
  readonly canInterceptBuiltins = true;
  async run(request: AgentRunRequest): Promise<AgentRunResult> {
    return { output: request.prompt, exitCode: 0 };
  }
}

@Module({ providers: [EchoPromptAgent] })
export class EchoPromptModule {}
