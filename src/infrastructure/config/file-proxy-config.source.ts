import { Injectable } from '@nestjs/common';
import type { ProxyConfigSource } from '../../domain/ports/proxy-config-source.port';
import type { ProxyConfig } from '../../domain/proxy/proxy-config';
import { loadProxyConfig } from './proxy-config.loader';

/** The step's proxy config as `awf run` wrote it: a JSON file, validated on load. */
@Injectable()
export class FileProxyConfigSource implements ProxyConfigSource {
  load(file: string): ProxyConfig {
    return loadProxyConfig(file);
  }
}
