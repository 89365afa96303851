/**
 * Facts about paths that application code checks without reading: an input declared with
 * `validation.file_exists`, for one. Relative paths are taken from the process's cwd.
 */
export interface FileProbe {
  exists(path: string): boolean;
}
