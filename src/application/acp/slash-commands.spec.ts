import type { Workflow } from '../../domain/workflow/workflow.model';
import { slashCommand } from './slash-commands';

const summary = { name: 'review', file: '/w/review.yaml', source: 'local' };

describe('a workflow as an editor slash command', () => {
  it('hints its inputs, required first, and lists them under _meta.awf', () => {
    const workflow = {
      description: 'Reviews a file',
      inputs: [
        { name: 'kind', type: 'string', required: false, default: 'general', secret: false },
        { name: 'file', type: 'string', description: 'what to review', required: true, secret: false },
        { name: 'level', type: 'integer', required: true, default: '2', secret: false },
      ],
    } as unknown as Workflow;
    expect(slashCommand(summary, workflow)).toEqual({
      name: 'review',
      description: 'Reviews a file',
      input: { hint: 'file=… [kind=…] [level=…]' },
      _meta: {
        awf: {
          requiredInputs: [{ name: 'file', type: 'string', description: 'what to review' }],
          optionalInputs: [
            { name: 'kind', type: 'string' },
            { name: 'level', type: 'integer' },
          ],
        },
      },
    });
  });

  it('never has an empty description: strict editors refuse the whole list for one', () => {
    expect(slashCommand(summary).description).toBe('review');
    expect(slashCommand({ ...summary, description: 'from the list' }).description).toBe('from the list');
    expect(slashCommand(summary, { description: '', inputs: [] } as unknown as Workflow)).toEqual({
      name: 'review',
      description: 'review',
      _meta: { awf: { requiredInputs: [], optionalInputs: [] } },
    });
  });
});
