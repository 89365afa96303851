import { REPO_ROOT } from '../support/cli';
import { type DocExample, extractExamples, markdownFiles } from '../support/doc-examples';
import { docProject, type DocProject } from '../support/doc-example-project';
import { runExample } from '../support/doc-example-runners';

/**
 * Every fenced block of README.md and docs/ runs as a user would run it (a workflow is validated,
 * and run when it needs no real agent; a shell snippet runs in a scratch project; TypeScript
 * compiles against the package's own types), or carries `<!-- doc-test: skip: <why> -->`.
 * How blocks are marked: test/support/doc-examples.ts.
 */
const docs = markdownFiles(REPO_ROOT).map((doc) => [doc, extractExamples(REPO_ROOT, doc)] as const);

const label = (ex: DocExample) =>
  `${ex.doc}:${ex.line} ${ex.lang || 'plain'}${ex.skip ? ` (skipped: ${ex.skip})` : ''}`;

describe.each(docs.filter(([, examples]) => examples.length > 0))('%s', (_doc, examples) => {
  let project: DocProject;
  beforeAll(() => {
    project = docProject();
  });
  afterAll(() => project.cleanup());

  // In document order: a block may use the files an earlier one wrote.
  for (const ex of examples) {
    if (ex.skip) {
      it.skip(label(ex), () => undefined);
    } else if (ex.knownDefect) {
      // Fails today for the reason given; once fixed this test fails, and the marker must go.
      it.failing(
        `${label(ex)} (known defect: ${ex.knownDefect})`,
        () => {
          runExample(ex, project);
        },
        200_000,
      );
    } else {
      it(
        label(ex),
        () => {
          runExample(ex, project);
        },
        200_000,
      );
    }
  }
});
