// Calls waiting for a person: every one on this server (#/approvals), or one run's (run.js).
import { useState } from 'preact/hooks';
import { api, html, Problem, time } from './api.js';
import { usePolling } from './runs.js';

/** One question with its answers: approve this call, the rule for the step, these exact arguments; deny. */
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
      ${
        (approval.scopes ?? ['exact']).includes('exact')
          ? html`<button
              class="secondary"
              disabled=${busy}
              title="Calls of this tool with these very arguments, under this policy, for an hour"
              onClick=${() => answer('approve', 'exact')}
            >
              Approve these arguments (1 h)
            </button>`
          : null
      }
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
    )}
    <${ExactApprovals} />`;
}

/** The exact approvals kept (`awf approvals list`): a tool, its arguments, until when; each revocable. */
function ExactApprovals() {
  const [kept, setKept] = useState(undefined);
  const [error, setError] = useState(undefined);
  const load = () =>
    api('GET', 'api/approvals/exact').then(
      (b) => (setKept(b.approvals), setError(undefined)),
      (err) => setError(err),
    );
  usePolling(load, 5000, []);
  const revoke = (id) => api('DELETE', `api/approvals/exact/${id}`).then(load, setError);
  return html`<h2>Exact approvals</h2>
    <p class="hint">Calls approved ahead for these very arguments, under the policy of the time, until they expire.</p>
    <${Problem} error=${error} />
    ${kept?.length === 0 ? html`<p>None are kept.</p>` : null}
    ${
      kept?.length
        ? html`<table aria-label="Exact approvals">
            <thead>
              <tr>
                <th>Tool</th>
                <th>Arguments</th>
                <th>By</th>
                <th>Expires</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${kept.map(
                (a) =>
                  html`<tr key=${a.id}>
                    <td><code>${a.tool}</code></td>
                    <td><code>${JSON.stringify(a.args)}</code></td>
                    <td>${a.who ?? a.by}</td>
                    <td>${time(a.expires)}</td>
                    <td><button class="danger" onClick=${() => revoke(a.id)}>Revoke</button></td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : null
    }`;
}
