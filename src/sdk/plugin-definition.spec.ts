import { checkDefinition, definePlugin, operationSchema } from './plugin-definition';

describe('operation annotations in a plugin definition', () => {
  const run = () => ({});

  it('go on the wire with the operation, and only when declared', () => {
    expect(
      operationSchema('get', { description: 'Reads.', annotations: { title: 'Read', readOnlyHint: true }, run }),
    ).toMatchObject({ name: 'get', annotations: { title: 'Read', readOnlyHint: true } });
    expect(operationSchema('get', { description: 'Reads.', run })).not.toHaveProperty('annotations');
  });

  it('are checked at start: a hint is true or false, a title a string', () => {
    const bad = (annotations: object) =>
      definePlugin({ name: 'p', version: '1.0.0', operations: { get: { description: '', annotations, run } } });
    expect(() => checkDefinition(bad({ readOnlyHint: 'yes' }))).toThrow(
      'operation get: readOnlyHint must be true or false',
    );
    expect(() => checkDefinition(bad({ title: 3 }))).toThrow('operation get: title must be a string');
    expect(() => checkDefinition(bad({ destructiveHint: false, title: 'Get' }))).not.toThrow();
  });
});
