import { HeadTailCapture } from './head-tail.capture';

describe('HeadTailCapture', () => {
  it('keeps everything that fits, whatever the chunks', () => {
    const c = new HeadTailCapture(10);
    ['ab', 'cdef', 'ghij'].forEach((s) => c.push(Buffer.from(s)));
    expect(c.text()).toBe('abcdefghij');
    expect(c.dropped).toBe(0);
  });

  it('keeps the first and the latest half across chunks and counts what fell between', () => {
    const c = new HeadTailCapture(8);
    ['abc', 'defgh', 'ijk', 'lmnopq', 'rs'].forEach((s) => c.push(Buffer.from(s)));
    expect(c.text()).toBe('abcd\n[… 11 bytes truncated …]\npqrs');
    expect(c.dropped).toBe(11);
  });

  it('drops a character cut at the gap whole instead of showing U+FFFD', () => {
    const c = new HeadTailCapture(4);
    c.push(Buffer.from(`${'aé'.repeat(3)}zzzzzéb`)); // 17 bytes; both edges of the gap cut an é
    expect(c.text()).toBe('a\n[… 15 bytes truncated …]\nb');
  });
});
