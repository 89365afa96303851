// PolicyModule: the step's tool policy in the proxy — the policy interceptor (found by its
// @InterceptsToolCalls marker, like every interceptor) and the mcp-serve end of the approval
// channel. Loaded in every container that serves tools. Must never import the MCP SDK, a
// tools/plugins/agents module or the CLI; the matching rules live in domain/policy.
import { Global, Module } from '@nestjs/common';
import { PolicyPathGuard } from '../../application/policy/policy-path.guard';
import { PATH_GUARD } from '../../domain/ports/path-guard.port';
import { ToolPolicyInterceptor } from '../../application/policy/tool-policy.interceptor';
import { APPROVAL_GATE, type ApprovalGate } from '../../domain/ports/approval-gate.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../domain/ports/tokens';
import { EXACT_APPROVALS, type ExactApprovals } from '../../domain/ports/exact-approvals.port';
import { ExactApprovalStore } from './exact-approval.store';
import { SocketApprovalGate } from './socket-approval.gate';

// Global: the path sandbox (ToolsModule) finds the policy's PathGuard without importing us.
@Global()
@Module({
  providers: [
    { provide: APPROVAL_GATE, useFactory: () => new SocketApprovalGate() },
    { provide: PATH_GUARD, useFactory: () => new PolicyPathGuard() },
    { provide: EXACT_APPROVALS, useFactory: () => new ExactApprovalStore() },
    {
      provide: ToolPolicyInterceptor,
      useFactory: (gate: ApprovalGate, masker: SecretMasker, exact: ExactApprovals) =>
        new ToolPolicyInterceptor(gate, masker, exact),
      inject: [APPROVAL_GATE, SECRET_MASKER, EXACT_APPROVALS],
    },
  ],
  exports: [PATH_GUARD],
})
export class PolicyModule {}
