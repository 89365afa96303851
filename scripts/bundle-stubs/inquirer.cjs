// Stands in for `inquirer` in the awf bundle. nest-commander requires inquirer eagerly
// (~80-100 ms at every start) only to offer @QuestionSet prompts, which awf never uses:
// it runs in CI and under agents, where nobody answers a prompt. Asking one fails loudly.
'use strict';
function prompt() {
  return Promise.reject(
    new Error('awf has no interactive prompts (inquirer is not bundled); pass the value as an option or input'),
  );
}
prompt.prompts = {};
module.exports = { prompt, createPromptModule: () => prompt, registerPrompt() {}, restoreDefaultPrompts() {} };
