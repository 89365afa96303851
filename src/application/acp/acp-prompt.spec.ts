import { AwfError } from '../../domain/errors/awf-error';
import { parseWorkflowPrompt, promptText } from './acp-prompt';

const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (err) {
    return err instanceof AwfError ? `${err.code}: ${err.message}` : String(err);
  }
  return undefined;
};

describe('an ACP prompt, as AWF reads it', () => {
  it('takes k=v, --input=k=v and --input k=v alike; quotes group and are dropped; the first = splits', () => {
    expect(
      parseWorkflowPrompt(`/my-workflow file=main.go --input=msg="hello world" --input 'x=a b' url=https://x?a=1&b=2`),
    ).toEqual({
      workflow: 'my-workflow',
      inputs: { file: 'main.go', msg: 'hello world', x: 'a b', url: 'https://x?a=1&b=2' },
    });
  });

  it('ignores words that are not pairs and unknown --flags, as AWF does', () => {
    expect(parseWorkflowPrompt('/review please --verbose k=v\n  and  more')).toEqual({
      workflow: 'review',
      inputs: { k: 'v' },
    });
  });

  it('refuses a prompt that does not begin with /<workflow>, or an input with no name', () => {
    expect(code(() => parseWorkflowPrompt('review k=v'))).toMatch(/^USER\.ACP\.INVALID_PROMPT: a prompt must begin/);
    expect(code(() => parseWorkflowPrompt('/ k=v'))).toMatch(/^USER\.ACP\.INVALID_PROMPT/);
    expect(code(() => parseWorkflowPrompt('   '))).toMatch(/^USER\.ACP\.INVALID_PROMPT/);
    expect(code(() => parseWorkflowPrompt('/wf =v'))).toBe(
      'USER.ACP.INVALID_PROMPT: input "=v" has no name before its "="',
    );
  });

  it('joins text blocks and resource links by lines; refuses images, audio and embedded resources', () => {
    expect(
      promptText([
        { type: 'text', text: '/review' },
        { type: 'resource_link', uri: 'file:///src/main.go' },
      ]),
    ).toBe('/review\nfile:///src/main.go');
    for (const type of ['image', 'audio', 'resource'])
      expect(code(() => promptText([{ type: 'text', text: '/x' }, { type }]))).toBe(
        `USER.ACP.UNSUPPORTED_BLOCK: ${type} blocks are not supported`,
      );
  });
});
