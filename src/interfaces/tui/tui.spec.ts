import { KEY, tuiHarness } from '../../../test/support/tui-harness';

const HELLO = `name: hello
description: says hello twice
states:
  initial: greet
  greet: {type: step, command: 'echo hello from greet', on_success: again}
  again: {type: step, command: 'echo and again', on_success: done}
  done: {type: terminal, status: success}
`;
const DEPLOY = `name: deploy
description: needs a region and a secret token
inputs:
  - {name: region, required: true}
  - {name: api_token, secret: true, required: true}
  - {name: tier, default: small}
states:
  initial: ship
  ship: {type: step, command: 'echo "shipping $tier to $region with $api_token"', on_success: done}
  done: {type: terminal, status: success}
`;
const BROKEN = `name: broken
states:
  initial: nowhere
  first: {type: step, command: 'true', on_success: missing_step}
`;
const FAILS = `name: fails
states:
  initial: boom
  boom: {type: step, command: 'echo about to fail; exit 3', on_success: done}
  done: {type: terminal, status: success}
`;

describe('awf tui: the four tabs over real services', () => {
  const tui = tuiHarness({ hello: HELLO, deploy: DEPLOY, broken: BROKEN, fails: FAILS });

  it('opens on Workflows, lists what awf finds, and switches tabs with 1-4', async () => {
    const t = await tui.draw();
    const first = await t.until('hello');
    expect(first).toMatch(/1 Workflows/);
    expect(first).toMatch(/deploy\s+env\s+needs a region and a secret token/);
    await t.press('2');
    await t.until('No active execution');
    await t.press('3');
    await t.until(/STATUS\s+WORKFLOW\s+ID\s+STARTED\s+DURATION/);
    await t.press('4');
    await t.until('No audit log yet');
    await t.press('?');
    await t.until('Monitoring: ↑/k ↓/j step');
    await t.press('1');
    await t.until('› broken');
  });

  it('launches a workflow without inputs with enter: Monitoring shows its steps and their output', async () => {
    const t = await tui.draw();
    await t.until('hello');
    await t.filter('hel');
    await t.press(KEY.enter);
    const done = await t.until(/hello\s+success/);
    expect(done).toMatch(/✓ greet\s+step/);
    expect(done).toMatch(/✓ again\s+step/);
    expect(done).toContain('and again'); // the selected step (following: the last) shows its output
    await t.press('k');
    await t.until('hello from greet');
  });

  it('asks for inputs in a form; a required field blocks the submit; the secret is masked everywhere', async () => {
    const t = await tui.draw();
    await t.until('deploy');
    await t.filter('dep');
    await t.press(KEY.enter);
    await t.until('› region*');
    expect(t.screen()).toMatch(/tier\s+small/); // the default is filled in
    await t.press(KEY.tab);
    await t.until('› api_token*');
    await t.press(KEY.tab);
    await t.until('› tier');
    await t.press(KEY.enter);
    await t.until('required: region, api_token');
    await t.press(KEY.tab);
    await t.until('› region*');
    await t.press(...'eu-west', KEY.tab);
    await t.until('› api_token*');
    await t.press(...'s3cr3t-value-42');
    await t.until('•••••••••••••••');
    expect(t.screen()).not.toContain('s3cr3t');
    await t.press(KEY.enter);
    await t.until('› tier');
    await t.press(KEY.enter);
    const shown = await t.until(/deploy\s+success/);
    expect(shown).toContain('shipping small to eu-west with ***');
    expect(shown).not.toContain('s3cr3t');
    // The history keeps the inputs but never a secret one.
    await t.press('3');
    await t.until(/STATUS\s+WORKFLOW/);
    await t.filter('deploy');
    await t.press(KEY.enter);
    const detail = await t.until('esc back');
    expect(detail).toContain('region = eu-west');
    expect(detail).not.toContain('s3cr3t');
  });

  it('validates the selected workflow with v and closes the result with esc', async () => {
    const t = await tui.draw();
    await t.until('broken');
    await t.filter('bro');
    await t.press('v');
    const overlay = await t.until('✗ broken is not valid');
    expect(overlay).toMatch(/nowhere/);
    await t.press(KEY.esc);
    await t.until((s) => !s.includes('is not valid'));
    await t.press(KEY.esc);
    await t.until('› broken');
    await t.until('deploy');
    await t.press('j');
    await t.until('› deploy');
    await t.press('v');
    await t.until('✓ deploy is valid');
  });

  it('History lists the runs, filters by name and status (tab), and opens one with enter', async () => {
    const t = await tui.draw();
    await t.until('fails');
    await t.filter('fai');
    await t.press(KEY.enter);
    await t.until(/fails\s+failure/);
    await t.press('1');
    await t.until('Filter: fai');
    await t.press(KEY.esc);
    await t.until('› broken');
    await t.filter('hel');
    await t.press(KEY.enter);
    await t.until(/hello\s+success/);
    await t.press('3');
    const all = await t.until(/failure\s+fails/);
    expect(all).toMatch(/success\s+hello/);
    await t.press(KEY.tab); // [✓ Success]
    const success = await t.until((s) => !/failure\s+fails/.test(s));
    expect(success).toMatch(/success\s+hello/);
    await t.press(KEY.tab); // [✗ Failed]
    const failed = await t.until((s) => !/success\s+hello/.test(s));
    expect(failed).toMatch(/failure\s+fails/);
    await t.press(KEY.tab); // [All]
    await t.until(/success\s+hello/);
    await t.filter('hel');
    const filtered = await t.until(/success\s+hello/);
    expect(filtered).not.toMatch(/failure\s+fails/);
    await t.press(KEY.enter);
    const detail = await t.until('esc back');
    expect(detail).toMatch(/✓ greet/);
    expect(detail).toMatch(/✓ again/);
    await t.press(KEY.esc);
    await t.until(/STATUS\s+WORKFLOW/);
  });
});

const CHAT = `name: chat
description: a conversation step
states:
  initial: talk
  talk:
    type: agent
    provider: script
    mode: conversation
    prompt: hi
    mcp_proxy: {enable: true}
    options:
      calls: [{tool: Glob, args: {pattern: '*.none'}}]
    on_success: done
  done: {type: terminal, status: success}
`;

const GUARDED = `name: guarded
states:
  initial: look
  look:
    type: agent
    provider: script
    prompt: unused
    mcp_proxy:
      enable: true
      policy: {approve: [Glob]}
    options:
      calls:
        - {tool: Glob, args: {pattern: '*.yaml'}}
        - {tool: Glob, args: {pattern: '*.md'}, expect: {is_error: true, contains: 'the person denied it'}}
    on_success: done
  done: {type: terminal, status: success}
`;

describe('awf tui: the Monitoring input line', () => {
  const tui = tuiHarness({ chat: CHAT, guarded: GUARDED });

  it('asks for the next turn of a conversation, sends what is typed, and an empty line ends it', async () => {
    const t = await tui.draw();
    await t.until('› chat');
    await t.press(KEY.enter);
    await t.until('step talk waits for the next message');
    await t.press(...'tell me more', KEY.enter);
    await t.until('you: tell me more');
    await t.until('step talk waits for the next message');
    await t.press(KEY.enter);
    const done = await t.until(/chat\s+success/);
    expect(done).toMatch(/✓ talk\s+agent/);
    expect(done).not.toContain('waits for the next message');
  });

  it("asks a policy approve rule's question: y approves the call, n denies the next", async () => {
    const t = await tui.draw();
    await t.until('guarded');
    await t.filter('gua');
    await t.press(KEY.enter);
    await t.until('approve Glob (');
    await t.press('y', KEY.enter);
    // The second call's question may replace the first at once: the same words on screen. That
    // both answers were taken shows at the end: the run ends only once its second call is answered.
    await new Promise((r) => setTimeout(r, 300));
    await t.until('approve Glob (');
    await t.press('n', KEY.enter);
    const done = await t.until(/guarded\s+success/);
    expect(done).toMatch(/✓ look\s+agent/);
  });
});

describe('awf tui: the Logs tab follows AWF_AUDIT_LOG', () => {
  const log = `${require('node:os').tmpdir()}/awf-tui-audit-${process.pid}.jsonl`;
  const tui = tuiHarness({}, { AWF_AUDIT_LOG: log });
  const line = (tool: string, start: string, extra: object = {}) =>
    `${JSON.stringify({ step: 'review', tool, source: 'builtin', start, duration_ms: 3, status: 'ok', args_shape: { file_path: 12 }, ...extra })}\n`;
  afterAll(() => require('node:fs').rmSync(log, { force: true }));

  it('shows the last lines, then each appended one, masked; a truncated file is read again with a notice', async () => {
    const { writeFileSync, appendFileSync } = require('node:fs') as typeof import('node:fs');
    writeFileSync(log, line('Read', '2026-12-04T10:00:00.000Z'));
    tui.masker().add('hunter2-secret-value');
    const t = await tui.draw();
    await t.press('4');
    const first = await t.until(/10:00:00\.000\s+review\s+Read\s+builtin\s+3ms\s+ok\s+\(file_path=12\)/);
    expect(first).toContain('(1 entries)');
    appendFileSync(
      log,
      line('Bash', '2026-12-04T10:00:01.000Z', { status: 'error', error: 'token hunter2-secret-value refused' }),
    );
    const next = await t.until('Bash  builtin  3ms  error token *** refused');
    expect(next).not.toContain('hunter2');
    writeFileSync(log, line('Glob', '2026-12-04T10:00:02.000Z'));
    await t.until('was truncated or rotated');
    await t.until(/review\s+Glob/);
  });
});
