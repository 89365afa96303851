import { execFile } from 'node:child_process';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { BuiltinOperation, OperationResult } from '../../domain/workflow/ports/builtin-operation.port';
import { HttpRequestOperation } from './http-request.operation';

const PRIORITIES = ['low', 'default', 'high'];
/** notify-send's urgency for each of AWF's priorities. */
const URGENCY: Record<string, string> = { low: 'low', default: 'normal', high: 'critical' };
const DESKTOP_TIMEOUT_MS = 5_000;
/** AWF's webhook client waits 10 s. */
const WEBHOOK_TIMEOUT_S = 10;
const WEBHOOK_MAX_BODY = 64 * 1024;

/**
 * AWF's built-in `notify.send`: `backend` (desktop | webhook), `message` (required), `title`
 * (default "AWF Workflow"), `priority` (low | default | high), `webhook_url` (webhook). Outputs
 * `backend`, `status` (the HTTP status; 0 for desktop) and `response`. The webhook POSTs
 * `{title, message, priority}` as JSON through http.request's client (same-host redirects only,
 * capped body); a status outside 2xx fails the step. The desktop backend runs `notify-send`
 * (Linux) or `osascript` (macOS); where neither exists, the step fails saying so.
 */
export class NotifySendOperation implements BuiltinOperation {
  readonly name = 'notify.send';

  constructor(
    private readonly http: Pick<BuiltinOperation, 'execute'> = new HttpRequestOperation(),
    private readonly platform: NodeJS.Platform = process.platform,
    /** Where `notify-send` / `osascript` are looked up (its PATH). */
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async execute(inputs: Record<string, unknown>, signal: AbortSignal): Promise<OperationResult> {
    const bad = (error: string): OperationResult => ({ success: false, outputs: {}, error: `notify.send: ${error}` });
    const backend = text(inputs.backend);
    const message = text(inputs.message);
    const title = text(inputs.title) || 'AWF Workflow';
    const priority = text(inputs.priority) || 'default';
    if (!backend) return bad('backend is required (desktop or webhook)');
    if (!message) return bad('message is required');
    if (!PRIORITIES.includes(priority)) return bad(`invalid priority "${priority}" (must be: low, default, high)`);
    if (backend === 'webhook') return this.webhook(text(inputs.webhook_url), { title, message, priority }, signal);
    if (backend === 'desktop') return this.desktop(title, message, priority, signal);
    return bad(`backend "${backend}" not available (available: desktop, webhook)`);
  }

  private async webhook(
    url: string,
    payload: { title: string; message: string; priority: string },
    signal: AbortSignal,
  ): Promise<OperationResult> {
    if (!url) return { success: false, outputs: {}, error: 'notify.send: backend "webhook" requires webhook_url' };
    const res = await this.http.execute(
      {
        url,
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
        timeout: WEBHOOK_TIMEOUT_S,
        max_body_bytes: WEBHOOK_MAX_BODY,
      },
      signal,
    );
    if (!res.success) return { ...res, outputs: {}, error: `notify.send: webhook failed: ${res.error ?? ''}` };
    const status = Number(res.outputs.status_code);
    const outputs = { backend: 'webhook', status, response: String(res.outputs.body ?? '') };
    if (status < 200 || status > 299)
      return { success: false, outputs, error: `notify.send: webhook returned status ${status}` };
    return { success: true, outputs };
  }

  private desktop(title: string, message: string, priority: string, signal: AbortSignal): Promise<OperationResult> {
    const command =
      this.platform === 'darwin'
        ? ['osascript', ['-e', `display notification "${apple(message)}" with title "${apple(title)}"`]]
        : this.platform === 'linux'
          ? ['notify-send', ['-u', URGENCY[priority], title, message]]
          : undefined;
    if (!command) {
      const error = `notify.send: desktop notifications need Linux (notify-send) or macOS, not ${this.platform}`;
      return Promise.resolve({ success: false, outputs: {}, error, code: ErrorCodes.OPERATION_UNAVAILABLE });
    }
    const [program, args] = command as [string, string[]];
    return new Promise((resolve) => {
      execFile(program, args, { timeout: DESKTOP_TIMEOUT_MS, signal, env: this.env }, (err, stdout, stderr) => {
        const response = `${stdout}${stderr}`.trim();
        if (!err) return resolve({ success: true, outputs: { backend: 'desktop', status: 0, response } });
        const code = (err as NodeJS.ErrnoException).code;
        const why =
          code === 'ENOENT'
            ? `${program} was not found on PATH (on Linux it comes with libnotify, e.g. the libnotify-bin package)`
            : `${program} failed: ${response || err.message}`;
        resolve({ success: false, outputs: { backend: 'desktop', status: 1, response }, error: `notify.send: ${why}` });
      });
    });
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
}

/** AppleScript string escaping (AWF's escapeAppleScript). */
function apple(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
