// Calls waiting for a person: every one on this server (#/approvals), or one run's (run.js).
import { useState } from 'preact/hooks';
import { api, html, Problem, time } from './api.js';
import { usePolling } from './runs.js';

/** One question with its answers: approve this call, approve the rule for the step, deny. */
export function ApprovalCard({ approval, runId, onAnswered, showRun }) {
  const [error, setError] = useState(undefined);
  const [busy, setBusy] = useState(false);
  const answer = async (decision, scope) => {
    setBusy(true);
    try {
      await api('POST', `api/executions/${runId}/approvals/${approval.approval_id}`, { decision, scope });
      onAnswered?.();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const label = `${approval.tool} in step ${approval.step}`;
  return html`<section class="approval" aria-label=${`Approval: ${label}`}>
    <h3>
      ${approval.tool} <small>in step <code>${approval.step}</code></small>
    </h3>
    ${
      showRun && approval.source === 'mcp'
        ? html`<p>A call of an MCP client at <code>/mcp</code></p>`
        : showRun
          ? html`<p>
              Run <a href=${`#/runs/${runId}`}><code>${runId.slice(0, 8)}</code></a>
            </p>`
          : null
    }
    <p class="rule">Rule: <code>${approval.rule}</code> · asked ${time(approval.requested_at)}</p>
    <pre class="arguments">${JSON.stringify(approval.arguments, null, 2)}</pre>
    <div class="actions">
      <button disabled=${busy} onClick=${() => answer('approve', 'once')}>Approve</button>
      <button class="secondary" disabled=${busy} onClick=${() => answer('approve', 'step')}>
        ${approval.source === 'mcp' ? 'Approve the rule for /mcp' : 'Approve for this step'}
      </button>
      <button class="danger" disabled=${busy} onClick=${() => answer('deny', 'once')}>Deny</button>
    </div>
    <${Problem} error=${error} />
  </section>`;
}

export function ApprovalsView() {
  const [list, setList] = useState(undefined);
  const [error, setError] = useState(undefined);
  const load = () =>
    api('GET', 'api/approvals').then(
      (b) => (setList(b.approvals), setError(undefined)),
      (err) => setError(err),
    );
  usePolling(load, 2000, []);
  return html`<h1>Approvals</h1>
    <p class="hint">
      Calls of the runs this server started, and of its <code>/mcp</code> clients, that wait for a person.
    </p>
    <${Problem} error=${error} />
    ${list?.length === 0 ? html`<p>Nothing is waiting.</p>` : null}
    ${list?.map(
      (a) =>
        html`<${ApprovalCard} key=${a.approval_id} approval=${a} runId=${a.execution_id} showRun onAnswered=${load} />`,
    )}`;
}
