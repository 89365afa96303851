import type { ToolCallEvent } from '../../domain/model/tool-call-event';
import { formatAuditLine, MAX_AUDIT_LINE_BYTES } from './audit-line';

const base: ToolCallEvent = {
  run_id: 'r1',
  step: 'build',
  tool: 'Bash',
  source: 'builtin',
  start: '2026-11-30T05:00:00.000Z',
  duration_ms: 12.5,
  status: 'ok',
  args_shape: { command: 12 },
};

describe('formatAuditLine', () => {
  it('writes the event as one JSON line', () => {
    const line = formatAuditLine(base);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(JSON.parse(line)).toEqual(base);
  });

  it('cuts a huge error message so the line stays within 4 KiB and valid JSON', () => {
    const line = formatAuditLine({ ...base, status: 'error', error: 'é'.repeat(10_000) });
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_AUDIT_LINE_BYTES);
    const parsed = JSON.parse(line) as ToolCallEvent;
    expect(parsed).toMatchObject({ tool: 'Bash', status: 'error', duration_ms: 12.5 });
    expect(parsed.error!.endsWith('…')).toBe(true);
  });

  it('replaces an oversized argument shape by its key count', () => {
    const args_shape = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`argument_number_${i}`, i]));
    const line = formatAuditLine({ ...base, args_shape });
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_AUDIT_LINE_BYTES);
    expect(JSON.parse(line).args_shape).toEqual({ '…': '400 keys' });
  });

  it('cuts long names last, keeping the numbers', () => {
    const long = 'n'.repeat(3000);
    const line = formatAuditLine({
      ...base,
      step: long,
      run_id: long,
      source: `module:${long}`,
      status: 'error',
      error: long,
    });
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_AUDIT_LINE_BYTES);
    expect(JSON.parse(line)).toMatchObject({ tool: 'Bash', duration_ms: 12.5, status: 'error' });
  });
});
