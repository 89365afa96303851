/** Where jest's globalSetup records the package it packed and installed (launch-paths.ts reads it). */
export const INSTALLED_ENV = 'AWF_TEST_INSTALLED_PACKAGE';

export interface InstalledPackage {
  /** `<scratch project>/node_modules/awf`. */
  packageDir: string;
  /** Why there is none, when pack or install failed. */
  error?: string;
}
