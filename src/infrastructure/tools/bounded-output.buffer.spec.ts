import { BoundedOutput } from './bounded-output.buffer';

describe('BoundedOutput', () => {
  it('returns short output whole', () => {
    const out = new BoundedOutput(10);
    out.push('abc');
    out.push('def');
    expect(out.render(10)).toBe('abcdef');
  });

  it('keeps the head and the tail and counts what was cut from the middle', () => {
    const out = new BoundedOutput(10);
    for (let i = 0; i < 1000; i++) out.push(String(i % 10));
    expect(out.total).toBe(1000);
    expect(out.render(10)).toBe('01234\n\n... [990 characters cut from the middle of the output] ...\n\n56789');
  });

  it('holds a bounded amount of text however much is pushed', () => {
    const out = new BoundedOutput(100);
    const chunk = 'y\n'.repeat(32 * 1024);
    for (let i = 0; i < 200; i++) out.push(chunk);
    expect(out.total).toBe(200 * chunk.length);
    const rendered = out.render(100);
    expect(rendered.length).toBeLessThan(200);
    expect(rendered).toContain(`[${200 * chunk.length - 100} characters cut`);
  });
});
