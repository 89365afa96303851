import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/**
 * The folder holding awf's package.json, from src/, dist/ or the bundle (dist/awf.cjs) alike:
 * the nearest folder up from this file whose package.json is awf's. (Counting levels up is
 * wrong from the bundle of an installed awf: three levels up is the user's own project.)
 */
export function awfPackageRoot(): string {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'awf') return dir;
  }
  throw new AwfError(ErrorCodes.SYSTEM_IO, `awf's package.json not found above ${__dirname}`, { dir: __dirname });
}
