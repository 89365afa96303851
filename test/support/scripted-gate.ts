import type { ApprovalAnswer, ApprovalGate, ApprovalRequest } from '../../src/domain/ports/approval-gate.port';

/** A person at the gate who gives the scripted answers in turn (then: nobody answered), and the questions asked. */
export class ScriptedGate implements ApprovalGate {
  readonly asked: ApprovalRequest[] = [];
  constructor(private readonly answers: ApprovalAnswer[]) {}
  async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    this.asked.push(request);
    return this.answers.shift() ?? { answer: 'deny', by: 'timeout' };
  }
}
