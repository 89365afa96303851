/** The workflows the HTTP API tests run: quick, slow (until cancelled), failing, and broken. */
export const API_WORKFLOWS: Record<string, string> = {
  'hello.yaml': `name: hello
description: says hello
version: 1.2.0
inputs:
  - name: who
    type: string
    required: true
states:
  initial: greet
  greet:
    type: step
    command: 'echo "hello {{.inputs.who}}"'
    on_success: done
  done: {type: terminal, status: success}
`,
  'slow.yaml': `name: slow
states:
  initial: wait
  wait:
    type: step
    command: 'sleep 60'
    on_success: done
  done: {type: terminal, status: success}
`,
  'flaky.yaml': `name: flaky
states:
  initial: first
  first:
    type: step
    command: 'echo one'
    on_success: second
  second:
    type: step
    command: 'test -f ok'
    on_success: done
  done: {type: terminal, status: success}
`,
  'broken.yaml': `name: broken
states:
  initial: nowhere
  done: {type: terminal, status: success}
`,
};

export const kinds = (frames: Array<{ data: any }>): string[] => frames.map((f) => f.data.kind);

/** The events of a one-step run that succeeds, in order. */
export const COMPLETED_RUN = ['run.started', 'step.started', 'step.completed', 'run.completed', 'workflow.completed'];
