import { existsSync } from 'node:fs';
import type { FileProbe } from '../../domain/ports/file-probe.port';

/** FileProbe over the real file system. */
export class FsFileProbe implements FileProbe {
  exists(path: string): boolean {
    return existsSync(path);
  }
}
