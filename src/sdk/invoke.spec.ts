import { invoke } from './invoke';
import { definePlugin } from './plugin-definition';

const plugin = definePlugin({
  name: 'demo',
  version: '1.0.0',
  operations: {
    greet: {
      description: 'Greets.',
      inputs: {
        name: { type: 'string', required: true },
        times: { type: 'integer', default: 1 },
        site: { type: 'string', validation: 'url' },
        to: { type: 'string', validation: 'email' },
      },
      run: ({ name, times }) => ({ greeting: `hi ${String(name)}`.repeat(Number(times)) }),
    },
    text: { description: 'Plain text.', run: () => 'just text' },
    boom: {
      description: 'Throws.',
      run: () => {
        throw new Error('nope');
      },
    },
  },
});

describe('invoke (the SDK path of one Execute)', () => {
  it('applies defaults and returns outputs as data', async () => {
    expect(await invoke(plugin, 'greet', { name: 'Ada' })).toEqual({
      success: true,
      output: '',
      data: { greeting: 'hi Ada' },
      error: '',
    });
  });

  it('returns a string result as output', async () => {
    expect(await invoke(plugin, 'text')).toMatchObject({ success: true, output: 'just text', data: {} });
  });

  it('reports every input problem without calling run', async () => {
    const res = await invoke(plugin, 'greet', { times: 1.5, site: 'not a url', to: 'nobody' });
    expect(res.success).toBe(false);
    expect(res.error).toBe(
      'invalid inputs: name is required; times must be an integer, got 1.5; site must be a URL; to must be an email address',
    );
  });

  it('turns a thrown error and an unknown operation into success=false', async () => {
    expect(await invoke(plugin, 'boom')).toMatchObject({ success: false, error: 'nope' });
    expect(await invoke(plugin, 'toString')).toMatchObject({
      success: false,
      error: 'unknown operation "toString" in plugin demo',
    });
  });

  it('refuses definitions tools cannot use', async () => {
    const bad = definePlugin({
      name: 'bad',
      version: '1',
      operations: { 'a.b': { description: '', run: () => undefined } },
    });
    await expect(invoke(bad, 'a.b')).rejects.toThrow(/operation name "a.b"/);
    const arrays = {
      name: 'bad',
      version: '1',
      operations: { op: { description: '', inputs: { tags: { type: 'array' } }, run: () => undefined } },
    };
    await expect(invoke(arrays as never, 'op')).rejects.toThrow(/input op.tags has type "array"/);
  });
});
