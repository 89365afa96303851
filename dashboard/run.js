// One run: its status, a timeline of its steps, each step's output and tool calls (with the
// policy's decision), the calls waiting for a person, and its events; live over the run's
// event stream (EventSource resumes by itself after a lost connection).
import { useEffect, useState } from 'preact/hooks';
import { api, duration, html, Problem, Status, time } from './api.js';
import { ApprovalCard } from './approvals.js';

const FINAL = new Set(['workflow.completed', 'workflow.failed']);

function useRun(id, generation) {
  const [state, setState] = useState({ events: [] });
  useEffect(() => {
    setState((s) => ({ ...s, events: [] }));
    let timer;
    const base = `api/executions/${encodeURIComponent(id)}`;
    const load = async () => {
      try {
        const [run, calls, approvals] = await Promise.all([
          api('GET', base),
          api('GET', `${base}/tool-calls`).catch(() => ({ steps: [] })),
          api('GET', `${base}/approvals`),
        ]);
        setState((s) => ({ ...s, run, calls: calls.steps, approvals: approvals.approvals, error: undefined }));
      } catch (error) {
        setState((s) => ({ ...s, error }));
      }
    };
    // Many events come in a burst (a step's calls): one reload for the burst.
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(load, 100);
    };
    load();
    const stream = new EventSource(`${base}/events`);
    stream.onmessage = (m) => {
      const event = JSON.parse(m.data);
      setState((s) => ({ ...s, events: [...s.events, event].slice(-500) }));
      if (FINAL.has(event.kind)) stream.close(); // the server ends the stream; no reconnection
      soon();
    };
    return () => {
      stream.close();
      clearTimeout(timer);
    };
  }, [id, generation]);
  return state;
}

export function RunView({ id }) {
  // A resumed run writes on under the same id: follow its stream again from the start.
  const [generation, setGeneration] = useState(0);
  const { run, calls, approvals, events, error } = useRun(id, generation);
  const [actionError, setActionError] = useState(undefined);
  const act = (method, path, body) =>
    api(method, `api/executions/${encodeURIComponent(id)}${path}`, body).then(() => {
      setActionError(undefined);
      if (path === '/resume') setGeneration(generation + 1);
    }, setActionError);
  if (!run)
    return html`<h1>Run <code>${id.slice(0, 8)}</code></h1>
      <${Problem} error=${error} />`;
  return html`<h1>${run.workflow_name} <${Status} status=${run.status} /></h1>
    <p class="facts">
      Run <code>${run.execution_id}</code> · started ${time(run.started_at)}
      ${run.duration_ms !== null ? html` · took ${duration(run.duration_ms)}` : null}
      ${traceOf(calls) ? html` · trace <code>${traceOf(calls)}</code>` : null}
    </p>
    <div class="actions">
      ${run.status === 'running' ? html`<button class="danger" onClick=${() => act('DELETE', '')}>Cancel</button>` : null}
      ${
        run.resumable && run.status !== 'running'
          ? html`<button class="secondary" onClick=${() => act('POST', '/resume', {})}>Resume</button>`
          : null
      }
    </div>
    <${Problem} error=${actionError} />
    ${run.error ? html`<${Problem} error=${run.error} />` : null}
    ${
      approvals?.length
        ? html`<h2>Waiting for approval</h2>
            ${approvals.map((a) => html`<${ApprovalCard} key=${a.approval_id} approval=${a} runId=${id} />`)}`
        : null
    }
    <h2>Steps</h2>
    <${Timeline} run=${run} calls=${calls ?? []} />
    <h2>Events</h2>
    <ol class="events" aria-live="polite">
      ${events.map((e) => html`<li key=${e.seq}><code>${e.kind}</code> ${e.step ?? ''} ${e.tool ?? ''}</li>`)}
    </ol>`;
}

function Timeline({ run, calls }) {
  if (run.steps.length === 0)
    return html`<p>No step has finished yet${run.current_step ? ` (now: ${run.current_step})` : ''}.</p>`;
  const start = Date.parse(run.started_at);
  const end = Math.max(...run.steps.map((s) => Date.parse(s.started_at) + s.duration_ms), start + 1);
  return html`<ol class="timeline">
    ${run.steps.map((s, i) => {
      const left = ((Date.parse(s.started_at) - start) / (end - start)) * 100;
      const width = Math.max((s.duration_ms / (end - start)) * 100, 0.5);
      const stepCalls = calls.find((c) => c.step === s.name)?.events ?? [];
      return html`<li key=${i} class="step">
        <div class="step-head">
          <code>${s.name}</code> <span class="type">${s.type}</span> <${Status} status=${s.status} />
          <span class="took">${duration(s.duration_ms)}</span>
        </div>
        <div class="bar" aria-hidden="true"><span style=${`margin-left:${left}%;width:${width}%`}></span></div>
        ${s.error ? html`<${Problem} error=${s.error} />` : null}
        ${
          s.output
            ? html`<details>
                <summary>Output</summary>
                <pre>${s.output}</pre>
              </details>`
            : null
        }
        ${stepCalls.length ? html`<${ToolCalls} events=${stepCalls} />` : null}
      </li>`;
    })}
  </ol>`;
}

/** The trace of the run's spans (tool calls carry it when tracing is on). */
function traceOf(calls) {
  return (calls ?? []).flatMap((c) => c.events).find((e) => e.trace_id)?.trace_id;
}

function ToolCalls({ events }) {
  return html`<table class="calls">
    <caption>
      Tool calls
    </caption>
    <thead>
      <tr>
        <th>At</th>
        <th>Tool</th>
        <th>Source</th>
        <th>Took</th>
        <th>Result</th>
        <th>Policy</th>
      </tr>
    </thead>
    <tbody>
      ${events.map(
        (e, i) =>
          html`<tr key=${i}>
            <td>${e.start.slice(11, 23)}</td>
            <td><code>${e.tool}</code></td>
            <td>${e.source}</td>
            <td>${duration(e.duration_ms)}</td>
            <td>
              ${e.status === 'error' ? html`<span class="status status-failed">error</span> ${e.error ?? ''}` : 'ok'}
            </td>
            <td>
              ${e.policy ? html`${e.policy.decision}${e.policy.rule ? html` <small>${e.policy.rule}</small>` : null}` : ''}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
