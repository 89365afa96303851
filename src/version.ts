/** The package version, read once; dist/ and src/ both sit one level below package.json. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const AWF_VERSION: string = (require('../package.json') as { version: string }).version;
