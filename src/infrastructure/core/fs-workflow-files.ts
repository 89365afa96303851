import { closeSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { FileRead, WorkflowFiles } from '../../domain/workflow/ports/workflow-files.port';
import { FsFileProbe } from './fs-file.probe';

/**
 * WorkflowFiles over the real file system. The file is opened once and checked through its
 * descriptor (fstat), so what is measured is what is read, and no more than the cap is read
 * even when the file grows meanwhile.
 */
export class FsWorkflowFiles extends FsFileProbe implements WorkflowFiles {
  read(path: string, maxBytes: number): FileRead {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      return failure(err);
    }
    try {
      const st = fstatSync(fd);
      if (st.isDirectory()) return { problem: 'directory' };
      if (st.size > maxBytes) return { problem: 'too-large', detail: `${st.size} bytes` };
      const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
      let length = 0;
      for (let n = 1; n > 0 && length < buf.length; length += n)
        n = readSync(fd, buf, length, buf.length - length, null);
      if (length > maxBytes) return { problem: 'too-large', detail: `more than ${maxBytes} bytes` };
      return { text: buf.toString('utf8', 0, length) };
    } catch (err) {
      return failure(err);
    } finally {
      closeSync(fd);
    }
  }

  list(dir: string, maxDepth: number): string[] {
    const out: string[] = [];
    const walk = (rel: string, depth: number): void => {
      let entries;
      try {
        entries = readdirSync(join(dir, rel), { withFileTypes: true });
      } catch {
        return; // gone or unreadable: AWF's walk skips it too
      }
      for (const e of entries) {
        const path = rel ? `${rel}/${e.name}` : e.name;
        if (e.isFile()) out.push(path);
        else if (e.isDirectory() && !SKIPPED_DIRS.has(e.name) && depth < maxDepth) walk(path, depth + 1);
      }
    };
    walk('', 0);
    return out.sort();
  }
}

/** Directories a skill's resource list never enters. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

function failure(err: unknown): FileRead {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { problem: 'missing' };
  if (code === 'EISDIR') return { problem: 'directory' };
  return { problem: 'unreadable', detail: code ?? String(err) };
}
