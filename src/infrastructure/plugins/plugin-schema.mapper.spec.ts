import type { OperationSchemaMessage } from '../../sdk/wire/messages';
import { mapExecuteResult, mapOperationTool } from './plugin-schema.mapper';

const input = (name: string, extra: Partial<OperationSchemaMessage['inputs'][number]> = {}) => ({
  name,
  type: 'string',
  required: false,
  default: '',
  description: '',
  validation: '',
  ...extra,
});
const op = (extra: Partial<OperationSchemaMessage> = {}): OperationSchemaMessage => ({
  name: 'send',
  description: '',
  inputs: [],
  outputs: [],
  ...extra,
});
const data = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(JSON.stringify(v))]));

describe('mapOperationTool', () => {
  it('names the tool <plugin>_<operation> with source plugin:<plugin>', () => {
    expect(mapOperationTool('notify', op())).toMatchObject({ name: 'notify_send', source: 'plugin:notify' });
  });

  it('passes on a declared title and hints as MCP annotations, leaving unset hints out', () => {
    // As proto-loader hands over a message with unset optional fields: null or absent, '' for the title.
    const declared = op({ annotations: { title: 'Send a notification', destructiveHint: false, openWorldHint: true } });
    expect(mapOperationTool('notify', declared)).toMatchObject({
      title: 'Send a notification',
      annotations: { destructiveHint: false, openWorldHint: true },
    });
    expect(mapOperationTool('notify', declared).annotations).toEqual({ destructiveHint: false, openWorldHint: true });
    const none = mapOperationTool('notify', op({ annotations: null }));
    expect(none).not.toHaveProperty('annotations');
    expect(none).not.toHaveProperty('title');
    expect(mapOperationTool('notify', op({ annotations: { title: '' } }))).not.toHaveProperty('title');
  });

  it('sorts required names, whatever the declaration order', () => {
    const schema = mapOperationTool(
      'p',
      op({ inputs: ['zebra', 'apple', 'mango', 'banana'].map((n) => input(n, { required: true })) }),
    ).inputSchema;
    expect(schema.required).toEqual(['apple', 'banana', 'mango', 'zebra']);
  });

  it('keeps types and descriptions, types defaults by the input type, and maps url/email validations to formats', () => {
    const schema = mapOperationTool(
      'p',
      op({
        inputs: [
          input('site', { validation: 'url', description: 'Where' }),
          input('to', { validation: 'email' }),
          input('count', { type: 'integer', default: '3' }),
          input('loud', { type: 'boolean', default: 'false' }),
          input('ratio', { type: 'number', default: '0.5' }),
          input('label', { default: 'none', validation: 'uuid' }),
        ],
      }),
    ).inputSchema;
    expect(schema).toEqual({
      type: 'object',
      properties: {
        site: { type: 'string', description: 'Where', format: 'uri' },
        to: { type: 'string', format: 'email' },
        count: { type: 'integer', default: 3 },
        loud: { type: 'boolean', default: false },
        ratio: { type: 'number', default: 0.5 },
        label: { type: 'string', default: 'none' },
      },
      required: [],
    });
  });

  it('refuses array and object inputs, naming the input', () => {
    expect(() => mapOperationTool('p', op({ inputs: [input('tags', { type: 'array' })] }))).toThrow(
      expect.objectContaining({
        code: 'USER.MCP_PROXY.UNSUPPORTED_SCHEMA',
        message: 'plugin p operation send: input tags has unsupported schema type "array"',
      }),
    );
    expect(() => mapOperationTool('p', op({ inputs: [input('opts', { type: 'object' })] }))).toThrow(
      /input opts has unsupported schema type "object"/,
    );
  });

  it('describes an operation without a description by name, and lists outputs only when there are some', () => {
    const bare = mapOperationTool('notify', op());
    expect(bare.description).toBe("Operation 'send' from plugin 'notify'.");
    const withOutputs = mapOperationTool(
      'notify',
      op({
        description: 'Sends.',
        outputs: [
          { name: 'id', type: 'string', description: 'message id' },
          { name: 'at', type: '', description: '' },
        ],
      }),
    );
    expect(withOutputs.description).toBe('Sends. Returns a JSON object with fields: id (string): message id; at.');
  });
});

describe('mapExecuteResult', () => {
  it('merges output and data into one object, as JSON text and structuredContent', () => {
    expect(
      mapExecuteResult('p', 'send', { success: true, output: 'sent', data: data({ id: '123', n: 2 }), error: '' }),
    ).toEqual({
      content: [{ type: 'text', text: '{"id":"123","n":2,"output":"sent"}' }],
      structuredContent: { id: '123', n: 2, output: 'sent' },
    });
  });

  it('makes success=false an error even without a message, and puts an error message last', () => {
    expect(mapExecuteResult('p', 'send', { success: false, output: '', data: {}, error: '' })).toEqual({
      content: [{ type: 'text', text: 'plugin p: operation send failed' }],
      isError: true,
    });
    const withError = mapExecuteResult('p', 'send', {
      success: true,
      output: '',
      data: data({ partial: true }),
      error: 'x',
    });
    expect(withError.isError).toBe(true);
    expect(withError.content.at(-1)).toEqual({ type: 'text', text: 'x' });
  });

  it('reads data values that are not JSON as plain strings', () => {
    expect(
      mapExecuteResult('p', 'send', { success: true, output: '', data: { raw: Buffer.from('not json') }, error: '' })
        .structuredContent,
    ).toEqual({ raw: 'not json' });
  });
});
