import { PassThrough } from 'node:stream';
import { ValueSecretMasker } from '../../application/secret-masker.service';
import { ApprovalDesk } from './approval-desk';

describe('ApprovalDesk at a terminal', () => {
  it('offers exactly these arguments, and `e` answers exact', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const output = new PassThrough();
    let shown = '';
    output.on('data', (c: Buffer) => (shown += c.toString()));
    const desk = new ApprovalDesk(new ValueSecretMasker({}), { input, output });
    const answer = desk.decide({
      tool: 'Bash',
      args: { command: 'make' },
      rules: ['step s: approve "Bash"'],
      auto: false,
    });
    await new Promise((r) => setImmediate(r));
    expect(shown).toContain('[e]xactly these arguments, for an hour');
    input.write('e\n');
    expect(await answer).toEqual({ answer: 'exact', by: 'person' });
    expect(shown).toContain('approved for these arguments, for an hour');
  });
});
