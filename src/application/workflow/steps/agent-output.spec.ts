import type { AgentStep } from '../../../domain/workflow/workflow.model';
import { formatOutput, tokenFields } from './agent-output';

const step = (outputFormat?: 'json' | 'text') => ({ name: 'plan', outputFormat }) as AgentStep;

describe('output_format (AWF pkg/output)', () => {
  it('keeps the answer as is without output_format', () => {
    expect(formatOutput(step(), '```\nx\n```')).toEqual({ Output: '```\nx\n```' });
  });

  it('text: keeps the inside of a fenced answer', () => {
    expect(formatOutput(step('text'), '```md\n# Title\nbody\n```\n')).toEqual({ Output: '# Title\nbody' });
  });

  it('json: parses the answer, fenced or not, or the first ```json block inside prose', () => {
    expect(formatOutput(step('json'), '{"files":["a"]}')).toEqual({
      Output: '{"files":["a"]}',
      JSON: { files: ['a'] },
    });
    expect(formatOutput(step('json'), '```json\n[1, 2]\n```')).toEqual({ Output: '[1, 2]', JSON: [1, 2] });
    expect(formatOutput(step('json'), 'Here it is:\n```json\n{"ok": true}\n```\nDone.').JSON).toEqual({ ok: true });
  });

  it('json: an answer that is not JSON fails the step', () => {
    expect(() => formatOutput(step('json'), 'I cannot do that.')).toThrow(
      /output_format is json but the answer is not JSON/,
    );
  });
});

describe('Tokens fields', () => {
  it('uses the provider counts, else estimates a token per four characters', () => {
    expect(tokenFields({ input: 10, output: 5 }, 'p', 'o')).toEqual({
      TokensInput: 10,
      TokensOutput: 5,
      TokensUsed: 15,
      TokensEstimated: false,
    });
    expect(tokenFields(undefined, 'x'.repeat(8), 'y'.repeat(5))).toEqual({
      TokensInput: 2,
      TokensOutput: 2,
      TokensUsed: 4,
      TokensEstimated: true,
    });
  });
});
