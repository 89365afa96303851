import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { maskedJson } from '../../domain/model/masked-json';

const masker = { mask: (text: string) => text.replace(/sk-[a-z0-9]+/g, '***') } as SecretMasker;

describe("an upstream server's words to the client besides its result", () => {
  it('have every string masked, at any depth, and nothing else changed', () => {
    const logged = { level: 'info', data: { note: 'key sk-abc123', list: ['sk-zz9', 3, true, null] } };
    expect(maskedJson(logged, masker)).toEqual({
      level: 'info',
      data: { note: 'key ***', list: ['***', 3, true, null] },
    });
    expect(maskedJson('plain sk-1', masker)).toBe('plain ***');
  });
});
