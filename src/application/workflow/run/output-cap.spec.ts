import { keepHeadAndTail } from './output-cap';

describe('keepHeadAndTail', () => {
  it('returns short text as it is and long text as head, marker, tail within the bound', () => {
    expect(keepHeadAndTail('short', 100)).toBe('short');
    const kept = keepHeadAndTail(`${'a'.repeat(600)}${'b'.repeat(600)}`, 1000);
    expect(kept).toBe(`${'a'.repeat(500)}\n[… 200 bytes truncated …]\n${'b'.repeat(500)}`);
  });
});
