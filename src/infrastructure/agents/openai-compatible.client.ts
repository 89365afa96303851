import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
}

export interface ChatChoice {
  message?: { content?: string | null; tool_calls?: ChatToolCall[] };
  finish_reason?: string | null;
}

export interface ChatResponse {
  choices?: ChatChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
}

const RESPONSE_CAP = 10 * 1024 * 1024;

/**
 * One Chat Completions POST (non-streaming). HTTP failures map to one code with a message
 * that says which (authentication, rate limit, server, request); a timeout or cancel of
 * `signal` is the step's, so the caller decides how to name it.
 */
export async function postChatCompletion(
  url: string,
  apiKey: string | undefined,
  body: object,
  signal: AbortSignal,
): Promise<ChatResponse> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    throw failed(`cannot reach ${url}: ${causeOf(err)}`, { url });
  }
  const text = await response.text();
  if (text.length > RESPONSE_CAP) throw failed(`response from ${url} is larger than ${RESPONSE_CAP} bytes`, { url });
  if (!response.ok) throw failed(statusMessage(response), { url, status: response.status, body: text.slice(0, 500) });
  try {
    return JSON.parse(text) as ChatResponse;
  } catch {
    throw failed(`response from ${url} is not JSON`, { url, body: text.slice(0, 500) });
  }
}

function statusMessage(response: Response): string {
  const status = response.status;
  if (status === 401) return 'authentication failed (HTTP 401)';
  if (status === 429) {
    const retry = response.headers.get('retry-after');
    return `rate limited (HTTP 429)${retry ? `, retry after ${retry}` : ''}`;
  }
  if (status >= 500) return `server error (HTTP ${status})`;
  return `bad request (HTTP ${status})`;
}

function failed(message: string, details: Record<string, unknown>): AwfError {
  return new AwfError(
    ErrorCodes.AGENT_API_FAILED,
    `openai_compatible: ${message}`,
    details,
    'Check options.base_url, options.model and the API key (options.api_key or OPENAI_API_KEY).',
  );
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
