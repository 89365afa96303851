import { FsFileProbe } from '../../../infrastructure/core/fs-file.probe';
import type { InputDef } from '../../../domain/workflow/workflow.model';
import { parseInputFlags, resolveInputs } from './input-resolver';

/** The real file system: file_exists checks what is on disk. */
const files = new FsFileProbe();

const def = (d: Partial<InputDef> & { name: string }): InputDef => ({ required: false, secret: false, ...d });

describe('resolveInputs', () => {
  it('layers defaults < project config < --input', () => {
    const defs = [def({ name: 'a', default: '1' }), def({ name: 'b', default: '2' }), def({ name: 'c' })];
    expect(resolveInputs(defs, { b: 'cli' }, { a: 'project', b: 'project', other: 'ignored' }, files)).toEqual({
      a: 'project',
      b: 'cli',
    });
  });

  it('reports every problem in one error', () => {
    const defs = [
      def({ name: 'file', required: true }),
      def({ name: 'count', type: 'integer', validation: { min: 1, max: 5 } }),
      def({ name: 'flag', type: 'boolean' }),
      def({ name: 'env', validation: { enum: ['dev', 'prod'] } }),
    ];
    let message = '';
    try {
      resolveInputs(defs, { count: '9', flag: 'maybe', env: 'qa', bogus: 'x' }, {}, files);
    } catch (err) {
      message = (err as Error).message;
      expect(err).toMatchObject({ code: 'USER.INPUT.VALIDATION_FAILED' });
    }
    for (const part of [
      'inputs.bogus: not declared',
      'inputs.file: required',
      'inputs.count: must be ≤ 5',
      'inputs.flag: must be true or false',
      'inputs.env: must be one of dev, prod',
    ]) {
      expect(message).toContain(part);
    }
  });

  it('checks file_exists and file_extension (AWF validation rules)', () => {
    const defs = [def({ name: 'spec', validation: { fileExists: true, fileExtension: ['.md'] } })];
    expect(
      resolveInputs(defs, { spec: __filename.replace(/[^/]+$/, '') + '../../../../README.md' }, {}, files),
    ).toBeDefined();
    expect(() => resolveInputs(defs, { spec: '/nonexistent/notes.txt' }, {}, files)).toThrow(
      /file \/nonexistent\/notes.txt does not exist[\s\S]*must end in \.md/,
    );
  });

  it('never echoes a secret value in an error', () => {
    expect(() =>
      resolveInputs([def({ name: 'pin', type: 'integer', secret: true })], { pin: 'hunter2' }, {}, files),
    ).toThrow(/"\*\*\*" is not an integer/);
  });
});

describe('parseInputFlags', () => {
  it('splits on the first = and keeps the rest of the value', () => {
    expect(parseInputFlags(['a=1', ' b =x=y', 'c='])).toEqual({ a: '1', b: 'x=y', c: '' });
  });
  it('refuses a flag without a name', () => {
    expect(() => parseInputFlags(['=1'])).toThrow(/must be name=value/);
    expect(() => parseInputFlags(['novalue'])).toThrow(/must be name=value/);
  });
});
